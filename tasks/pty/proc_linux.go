package pty

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// sessionMembers returns the processes of the terminal session sid that are
// still running (zombies are left out: they run nothing, and where PID 1
// does not reap, orphans stay zombies for good). A program started in the
// pty is the session leader, so its pid is the sid; job-control shells put
// each job in a process group of its own inside that session, which is why
// the session, not the leader's process group, is what gets signalled.
func sessionMembers(sid int) []int {
	dir, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return nil
	}
	want := []byte(strconv.Itoa(sid))
	var pids []int
	for _, name := range names {
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		stat, err := os.ReadFile("/proc/" + name + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid pgrp session ...; comm may hold anything.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(stat[i+1:])
		if len(f) < 4 || !bytes.Equal(f[3], want) {
			continue
		}
		if s := f[0]; len(s) == 1 && (s[0] == 'Z' || s[0] == 'X') {
			continue
		}
		if pid, err := strconv.Atoi(name); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// signalSession sends sig to the leader's process group and to every
// other process of the session.
func signalSession(sid int, sig syscall.Signal) {
	_ = syscall.Kill(-sid, sig)
	for _, pid := range sessionMembers(sid) {
		_ = syscall.Kill(pid, sig)
	}
}

// sessionAlive reports whether any process of the session still runs.
func sessionAlive(sid int) bool {
	return len(sessionMembers(sid)) > 0
}
