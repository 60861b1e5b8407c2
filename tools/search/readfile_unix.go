//go:build unix

package search

import (
	"io"
	"os"
	"syscall"
)

// rawFile reads a file through plain system calls. os.Open costs an fcntl,
// a poller check and a finalizer per file, a large share of the Go engine's
// time on a big tree where almost every call is a system call.
type rawFile int

func openRaw(path string) (rawFile, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return rawFile(fd), err
		}
	}
}

func (f rawFile) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(int(f), p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		if n == 0 && len(p) > 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

// size returns the file's size, or -1 when it cannot be known.
func (f rawFile) size() int64 {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f), &st); err != nil {
		return -1
	}
	return st.Size
}

func (f rawFile) Close() error { return syscall.Close(int(f)) }

// readDir lists a directory. Opened with os.Open, a directory goes through
// the poller setup (several fcntl calls and an epoll_ctl that fails); a
// blocking descriptor wrapped by os.NewFile skips it.
func readDir(dir string) ([]os.DirEntry, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), dir)
	defer f.Close()
	return f.ReadDir(-1)
}
