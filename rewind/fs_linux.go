package rewind

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// workFS changes files beneath the work tree through descriptors opened
// with openat2 RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS: a restore never
// follows a link, so a link planted since the checkpoint cannot lead its
// writes into .git or out of the project.
type workFS struct{ root int }

func openWorkFS(dir string) (*workFS, error) {
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("rewind: opening %s: %w", dir, err)
	}
	return &workFS{root: fd}, nil
}

func (w *workFS) close() { unix.Close(w.root) }

var beneath = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS

// dir opens the directory rel (slash-separated, "" for the root), making
// missing ones when create is set.
func (w *workFS) dir(rel string, create bool) (int, error) {
	if rel == "" || rel == "." {
		return unix.Dup(w.root)
	}
	how := &unix.OpenHow{Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: uint64(beneath)}
	fd, err := unix.Openat2(w.root, rel, how)
	if err == nil || !create || !errors.Is(err, unix.ENOENT) {
		return fd, err
	}
	parent, err := w.dir(path.Dir(rel), true)
	if err != nil {
		return -1, err
	}
	defer unix.Close(parent)
	if err := unix.Mkdirat(parent, path.Base(rel), 0o755); err != nil && !errors.Is(err, unix.EEXIST) {
		return -1, err
	}
	return unix.Openat2(parent, path.Base(rel), how)
}

// remove deletes the file or link rel; one already gone is no error.
func (w *workFS) remove(rel string) error {
	return w.inParent(rel, false, func(dir int, name string) error {
		err := unix.Unlinkat(dir, name, 0)
		if errors.Is(err, unix.ENOENT) {
			return nil
		}
		return err
	})
}

// rmdir removes the directory rel if it is empty; one that still holds
// files (ignored ones, say) stays.
func (w *workFS) rmdir(rel string) error {
	return w.inParent(rel, false, func(dir int, name string) error {
		err := unix.Unlinkat(dir, name, unix.AT_REMOVEDIR)
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTEMPTY) || errors.Is(err, unix.EEXIST) {
			return nil
		}
		return err
	})
}

// writeFile replaces rel with data and mode, through a temporary file in
// the same directory and a rename, so it is never seen half written.
func (w *workFS) writeFile(rel string, data []byte, mode uint32) error {
	return w.inParent(rel, true, func(dir int, name string) error {
		tmp := ".wb-rewind-" + strconv.Itoa(unix.Getpid()) + "-" + name
		if len(tmp) > 250 {
			tmp = tmp[:250]
		}
		fd, err := unix.Openat(dir, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if err != nil {
			return err
		}
		err = writeAll(fd, data)
		if err == nil {
			err = unix.Fchmod(fd, mode)
		}
		if cerr := unix.Close(fd); err == nil {
			err = cerr
		}
		if err == nil {
			err = unix.Renameat2(dir, tmp, dir, name, 0)
		}
		if err != nil {
			unix.Unlinkat(dir, tmp, 0)
		}
		return err
	})
}

func writeAll(fd int, data []byte) error {
	for len(data) > 0 {
		n, err := unix.Write(fd, data)
		if err != nil {
			if errors.Is(err, unix.EINTR) {
				continue
			}
			return err
		}
		data = data[n:]
	}
	return nil
}

// symlink makes rel a symbolic link to target, replacing a file there.
func (w *workFS) symlink(rel, target string) error {
	return w.inParent(rel, true, func(dir int, name string) error {
		if err := unix.Unlinkat(dir, name, 0); err != nil && !errors.Is(err, unix.ENOENT) {
			return err
		}
		return unix.Symlinkat(target, dir, name)
	})
}

func (w *workFS) inParent(rel string, create bool, f func(dir int, name string) error) error {
	if rel == "" || strings.HasPrefix(rel, "/") || strings.Contains("/"+rel+"/", "/../") {
		return fmt.Errorf("path %q is not beneath the work tree", rel)
	}
	dir, err := w.dir(path.Dir(rel), create)
	if err != nil {
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV) {
			return fmt.Errorf("a symbolic link is on the way to %s; left alone", rel)
		}
		return err
	}
	defer unix.Close(dir)
	return f(dir, path.Base(rel))
}
