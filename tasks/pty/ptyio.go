package pty

import (
	"errors"
	"io"
	"os"
	"syscall"
	"unsafe"

	cpty "github.com/creack/pty"
)

// openPTY opens a pty pair with the master in non-blocking mode. creack/pty
// leaves the master blocking, and then closing it neither wakes a blocked
// read nor hangs up the child (measured); non-blocking, reads wait in Go's
// poller, and Close wakes them and releases the terminal.
func openPTY(rows, cols int) (master, slave *os.File, err error) {
	master, slave, err = cpty.Open()
	if err != nil {
		return nil, nil, err
	}
	if err = setNonblock(master); err == nil {
		err = setSize(master, rows, cols)
	}
	if err != nil {
		master.Close()
		slave.Close()
		return nil, nil, err
	}
	return master, slave, nil
}

func setNonblock(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), true) }); err != nil {
		return err
	}
	return serr
}

// setSize sets the terminal size (TIOCSWINSZ); the kernel then sends
// SIGWINCH to the foreground process group. It goes through SyscallConn
// because creack/pty's Setsize calls Fd, which makes the master blocking
// again.
func setSize(f *os.File, rows, cols int) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	ws := cpty.Winsize{Rows: uint16(rows), Cols: uint16(cols)}
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&ws)))
	}); err != nil {
		return err
	}
	if errno != 0 {
		return errno
	}
	return nil
}

// tryRead reads what is already waiting on the master behind rc, without
// waiting for more: n is 0 when nothing is there.
func tryRead(rc syscall.RawConn, buf []byte) (int, error) {
	var n int
	var rerr error
	if err := rc.Read(func(fd uintptr) bool {
		n, rerr = syscall.Read(int(fd), buf)
		return true
	}); err != nil {
		return 0, err
	}
	switch {
	case errors.Is(rerr, syscall.EAGAIN):
		return 0, nil
	case rerr != nil:
		return 0, rerr
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}
