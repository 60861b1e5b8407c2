package main

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// takeTypedAhead ends the terminal's line mode for the rest of the start
// and returns what the person typed in it so far: keys typed right after
// `workbench`, while settings load and the session assembles. The terminal
// turned each Enter among them into a line feed, which the TUI would read
// as Ctrl+J (a new line in the input), so the prompt was not sent; taken
// here, they reach the app as the keys they were (ui.Config.TypedAhead).
// From here on the terminal neither echoes nor translates, so what is
// typed until the TUI reads it arrives as the TUI expects; signals (Ctrl-C)
// and output are as before. restore puts the terminal back as it was;
// with stdin not a terminal there is nothing to take or restore.
func takeTypedAhead(in *os.File) (typed string, restore func()) {
	fd := int(in.Fd())
	was, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return "", func() {}
	}
	t := *was
	t.Lflag &^= unix.ICANON | unix.ECHO
	t.Iflag &^= unix.ICRNL
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	// TCSETS changes the mode now, keeping the input queued; leaving
	// canonical mode makes an unfinished line readable as well.
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, &t); err != nil {
		return "", func() {}
	}
	restore = func() { _ = unix.IoctlSetTermios(fd, unix.TCSETS, was) }
	n, err := unix.IoctlGetInt(fd, unix.TIOCINQ)
	if err != nil || n <= 0 {
		return "", restore
	}
	// Exactly the bytes already queued: reading them does not wait.
	buf := make([]byte, n)
	got, _ := io.ReadFull(in, buf)
	return string(buf[:got]), restore
}
