//go:build !linux

package pty

import "syscall"

// signalSession sends sig to the leader's process group. Without /proc the
// other process groups of the session (job-control jobs) cannot be found;
// they still get SIGHUP from the kernel when the terminal goes away.
func signalSession(sid int, sig syscall.Signal) {
	_ = syscall.Kill(-sid, sig)
}

// sessionAlive reports whether the leader's process group still has a
// member (zombies included, which is the best kill(2) can tell).
func sessionAlive(sid int) bool {
	return syscall.Kill(-sid, 0) == nil
}
