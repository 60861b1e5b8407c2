//go:build unix

package rewind

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// ErrInUse is returned when another process has the session's checkpoints
// open, such as the workbench that runs the session.
var ErrInUse = errors.New("the session's checkpoints are in use by another workbench (is the session still open?)")

func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("rewind: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, ErrInUse
		}
		return nil, fmt.Errorf("rewind: locking %s: %w", dir, err)
	}
	return f, nil
}
