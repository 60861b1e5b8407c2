//go:build !linux

package rewind

import "errors"

// workFS needs openat2 to write beneath the work tree without following
// links; elsewhere a restore refuses rather than write less carefully.
type workFS struct{}

func openWorkFS(string) (*workFS, error) {
	return nil, errors.New("rewind: restoring files needs Linux (openat2)")
}

func (w *workFS) close()                                 {}
func (w *workFS) remove(string) error                    { return nil }
func (w *workFS) rmdir(string) error                     { return nil }
func (w *workFS) writeFile(string, []byte, uint32) error { return nil }
func (w *workFS) symlink(string, string) error           { return nil }
