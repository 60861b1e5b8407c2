package main

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// dropFromPageCache asks the kernel to drop the cached pages of the file at
// path. Pages that a running process maps stay; the others are read again at
// the next start, in the same pieces for every binary.
func dropFromPageCache(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	// Dirty pages cannot be dropped: a binary the linker has just written
	// is written out first.
	if err := unix.Fdatasync(int(f.Fd())); err != nil {
		return fmt.Errorf("fdatasync %s: %w", path, err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		return fmt.Errorf("fadvise %s: %w", path, err)
	}
	return nil
}
