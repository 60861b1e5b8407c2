//go:build !linux

package tasks

import (
	"os"
	"syscall"
)

// growPipe keeps the system's default pipe size where it cannot be changed.
func growPipe(*os.File) {}

// groupLive reports whether group pgid still has members. Without /proc,
// zombies count as members, so a group of unreaped orphans is waited for
// until its SIGKILL deadline.
func groupLive(pgid int) bool {
	return syscall.Kill(-pgid, 0) == nil
}
