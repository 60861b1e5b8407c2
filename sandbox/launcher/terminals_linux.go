package launcher

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// The person's terminals are pseudo-terminals under /dev/pts, owned by the
// person and open to them: a sandboxed command that opens one can paint
// over the TUI (a dialog that is not Workbench's), read the keys the
// person types, or make the terminal answer a query into Workbench's
// input. Inside the sandbox /dev/pts is a devpts instance of its own: the
// terminals a sandboxed program makes (script, expect, a test of a pty)
// are there, the person's are not. A process keeps the terminal it was
// given (an agent's shell session), by descriptor and as its controlling
// terminal; only its name under /dev/pts is gone, so `tty` there says
// "not a tty".

// privateTerminals mounts a new devpts instance over /dev/pts and makes
// /dev/ptmx open it. When the kernel refuses a new instance, an empty
// read-only directory covers /dev/pts instead: no terminal can be made
// inside, and none of the person's can be opened.
func privateTerminals() error {
	const flags = unix.MS_NOSUID | unix.MS_NOEXEC
	if err := unix.Mount("devpts", "/dev/pts", "devpts", flags, "newinstance,ptmxmode=0666,mode=0620"); err == nil {
		if err := unix.Mount("/dev/pts/ptmx", "/dev/ptmx", "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("/dev/ptmx: %w", err)
		}
		return nil
	}
	if err := unix.Mount("tmpfs", "/dev/pts", "tmpfs", unix.MS_RDONLY|flags|unix.MS_NODEV, "size=4k,mode=0555"); err != nil {
		return fmt.Errorf("/dev/pts: %w", err)
	}
	return nil
}
