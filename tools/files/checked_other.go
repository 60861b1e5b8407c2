//go:build !linux

package files

import (
	"fmt"
	"io/fs"
	"os"

	"github.com/seed92b641c3/workbench/internal/atomicfile"
	"github.com/seed92b641c3/workbench/permission"
)

// Without openat2 the checked path is opened by name and the path is
// resolved again after the open: a link changed in between is refused.
// This narrows the window rather than closing it; Linux closes it.

func (f *checkedFile) still() error {
	if now := permission.Resolve(f.given); now != f.real {
		return fmt.Errorf("%w: %s leads to %s now, not the checked %s; nothing was done", errMoved, f.display, now, f.real)
	}
	return nil
}

func (f *checkedFile) openRead() (*os.File, error) {
	file, err := os.OpenFile(f.real, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	if err := f.still(); err != nil {
		file.Close()
		return nil, err
	}
	return file, nil
}

func (f *checkedFile) writeAtomic(data []byte, perm fs.FileMode) error {
	if err := f.checkStillWritable(); err != nil {
		return err
	}
	if err := f.still(); err != nil {
		return err
	}
	return atomicfile.Write(f.real, data, perm, dirMode)
}
