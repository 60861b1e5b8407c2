//go:build linux

package files

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// resolveFlags keep every open beneath the directory it starts from and let
// it follow no symlink at all, magic /proc links included: the path opened
// is the one the check resolved, so a link met on the way was put there
// after the check.
const resolveFlags = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS

// openRetries bounds retries of an openat2 the kernel asks to repeat
// (EAGAIN when a rename raced the lookup, EINTR).
const openRetries = 8

// openat2 opens path beneath dirfd with resolveFlags.
func openat2(dirfd int, path string, flags int, mode uint32) (int, error) {
	how := &unix.OpenHow{Flags: uint64(flags | unix.O_CLOEXEC), Mode: uint64(mode), Resolve: resolveFlags}
	for i := 0; ; i++ {
		fd, err := unix.Openat2(dirfd, path, how)
		if (errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR)) && i < openRetries {
			continue
		}
		return fd, err
	}
}

// openBase opens the directory opens start from: a workspace root or /,
// both already resolved, so no link may be followed to reach them either.
func (f *checkedFile) openBase(base string) (int, error) {
	how := &unix.OpenHow{Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	fd, err := unix.Openat2(unix.AT_FDCWD, base, how)
	if err != nil {
		return -1, f.openError(base, err)
	}
	return fd, nil
}

// verify refuses a descriptor whose real path is not want.
func (f *checkedFile) verify(fd int, want string) error {
	got, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err != nil {
		return fmt.Errorf("cannot confirm what was opened for %s: %w", f.display, err)
	}
	if got != want {
		return fmt.Errorf("%w: %s opened as %s, not the checked %s; nothing was done", errMoved, f.display, got, want)
	}
	return nil
}

// openError turns an open's errno into what a model can act on: a missing
// file is fs.ErrNotExist, a link or an escape met on the way is a refusal.
func (f *checkedFile) openError(p string, err error) error {
	switch {
	case errors.Is(err, unix.ENOENT):
		return &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	case errors.Is(err, unix.ELOOP), errors.Is(err, unix.EXDEV):
		return fmt.Errorf("%w: a symlink now stands in the way to %s (checked as %s); nothing was done", errMoved, f.display, f.real)
	}
	return &fs.PathError{Op: "open", Path: p, Err: err}
}

// openRead opens the checked file for reading, beneath its workspace root,
// and confirms the descriptor is the checked file. A FIFO or device does
// not block the open; the caller refuses what is not a regular file.
func (f *checkedFile) openRead() (*os.File, error) {
	base, rel := f.beneath(f.real)
	bfd, err := f.openBase(base)
	if err != nil {
		return nil, err
	}
	defer unix.Close(bfd)
	fd, err := openat2(bfd, rel, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, f.openError(f.real, err)
	}
	if err := f.verify(fd, f.real); err != nil {
		unix.Close(fd)
		return nil, err
	}
	var st unix.Stat_t
	if unix.Fstat(fd, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
		_ = unix.SetNonblock(fd, false)
	}
	return os.NewFile(uintptr(fd), f.real), nil
}

// openDir opens the checked file's directory beneath its workspace root,
// one component at a time, creating missing ones when create is set (as
// Write creates parents), and confirms it is the checked directory.
func (f *checkedFile) openDir(create bool) (int, error) {
	dir := filepath.Dir(f.real)
	base, rel := f.beneath(dir)
	cur, err := f.openBase(base)
	if err != nil {
		return -1, err
	}
	if rel != "." {
		for _, c := range strings.Split(rel, "/") {
			next, err := openat2(cur, c, unix.O_PATH|unix.O_DIRECTORY, 0)
			if errors.Is(err, unix.ENOENT) && create {
				if err := unix.Mkdirat(cur, c, uint32(dirMode)); err != nil && !errors.Is(err, unix.EEXIST) {
					unix.Close(cur)
					return -1, &fs.PathError{Op: "mkdir", Path: dir, Err: err}
				}
				next, err = openat2(cur, c, unix.O_PATH|unix.O_DIRECTORY, 0)
			}
			unix.Close(cur)
			if err != nil {
				return -1, f.openError(dir, err)
			}
			cur = next
		}
	}
	if err := f.verify(cur, dir); err != nil {
		unix.Close(cur)
		return -1, err
	}
	return cur, nil
}

// writeAtomic replaces the checked file with data, so a reader sees the old
// content or the new: a temporary file is created in the checked directory
// through its descriptor, written, synced and renamed over the file's name
// there, so nothing lands anywhere else whatever links change meanwhile.
func (f *checkedFile) writeAtomic(data []byte, perm fs.FileMode) error {
	if err := f.checkStillWritable(); err != nil {
		return err
	}
	dfd, err := f.openDir(true)
	if err != nil {
		return err
	}
	defer unix.Close(dfd)
	name := filepath.Base(f.real)
	tmp := "." + name + ".tmp-" + strconv.FormatUint(rand.Uint64(), 36)
	fd, err := unix.Openat(dfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return &fs.PathError{Op: "create", Path: filepath.Join(filepath.Dir(f.real), tmp), Err: err}
	}
	file := os.NewFile(uintptr(fd), tmp)
	_, err = file.Write(data)
	if err == nil {
		err = file.Chmod(perm)
	}
	if err == nil {
		err = file.Sync()
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if err = unix.Renameat(dfd, tmp, dfd, name); err != nil {
			err = &fs.PathError{Op: "rename", Path: f.real, Err: err}
		}
	}
	if err != nil {
		_ = unix.Unlinkat(dfd, tmp, 0)
	}
	return err
}
