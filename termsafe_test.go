package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// hostile is file content that would drive a terminal: a window title, a
// screen clear, a line overwritten by a carriage return, a C1 CSI and a
// stray byte.
const hostile = "line one\n\x1b]0;pwned\x07\x1b[2J\rfake prompt$ \u009b31m\xff end\r\n"

func TestH15_ToolEscapesControlCharactersOnATerminal(t *testing.T) {
	c := newCLI(t)
	c.write("evil.txt", hostile)
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	defer ptmx.Close()
	got := make(chan string)
	go func() {
		var b bytes.Buffer
		io.Copy(&b, ptmx) // ends when the tty side closes
		got <- b.String()
	}()
	var errb bytes.Buffer
	code := run([]string{"tool", "--cwd", c.project, "Read", `{"file_path":"evil.txt"}`}, strings.NewReader(""), tty, &errb)
	tty.Close()
	out := <-got
	if code != exitOK {
		t.Fatalf("exit %d: %s %s", code, out, errb.String())
	}
	for _, raw := range []string{"\x1b", "\x07", "\u009b", "\xff"} {
		if strings.Contains(out, raw) {
			t.Errorf("the terminal received %q raw: %q", raw, out)
		}
	}
	for _, shown := range []string{`\x1b]0;pwned\x07`, `\x1b[2J\x0dfake prompt$ `, `\u009b31m`, `\xff end`} {
		if !strings.Contains(out, shown) {
			t.Errorf("the terminal output does not show %q escaped: %q", shown, out)
		}
	}
	// Piped output is the result byte for byte, for scripts.
	_, stdout, _ := c.run("", "tool", "--cwd", c.project, "Read", `{"file_path":"evil.txt"}`)
	if !strings.Contains(stdout, "\x1b]0;pwned\x07\x1b[2J\rfake prompt$ ") {
		t.Errorf("piped output was altered: %q", stdout)
	}
}
