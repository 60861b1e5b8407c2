package tasks

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// pipeSize is the output pipe's kernel buffer. A command that prints a lot
// then blocks less often waiting for the reader; 1 MiB is the largest size
// an unprivileged process may ask for by default (fs.pipe-max-size).
const pipeSize = 1 << 20

// fSetPipeSize is F_SETPIPE_SZ, missing from package syscall.
const fSetPipeSize = 1031

// growPipe enlarges the pipe's buffer; failing is harmless, as the default
// size works, only with more wake-ups.
func growPipe(f *os.File) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		syscall.Syscall(syscall.SYS_FCNTL, fd, fSetPipeSize, pipeSize)
	})
}

// groupLive reports whether a process of group pgid is still running.
// kill(-pgid, 0) alone is not enough: it also counts zombies, and orphans
// stay zombies for good when PID 1 does not reap them (many containers), so
// /proc is asked for a member in any state but Z (zombie) or X (dead).
func groupLive(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	dir, err := os.Open("/proc")
	if err != nil {
		return true
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return true
	}
	want := []byte(strconv.Itoa(pgid))
	for _, name := range names {
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		stat, err := os.ReadFile("/proc/" + name + "/stat")
		if err != nil {
			continue // exited meanwhile
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(stat[i+1:])
		if len(f) < 3 || !bytes.Equal(f[2], want) {
			continue
		}
		if s := f[0]; len(s) == 1 && (s[0] == 'Z' || s[0] == 'X') {
			continue
		}
		return true
	}
	return false
}
