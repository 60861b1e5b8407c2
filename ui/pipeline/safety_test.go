package pipeline

import (
	"strings"
	"testing"
)

// TestH16_PanelEscapesInvisibleCharacters hides a right-to-left override
// and a zero-width space in a command, a file name and a result, and checks
// the panel and its detail view draw the marked escapes and never the raw
// characters.
func TestH16_PanelEscapesInvisibleCharacters(t *testing.T) {
	t.Parallel()
	const rlo, zwsp = "\u202E", "\u200B"
	p := New()
	p.ToolUse("c1", "Bash", input(t, map[string]any{"command": "rm -rf " + rlo + "fdp." + zwsp + "x"}))
	feed(p, "c1", "Bash", t0, cat(front("Bash(rm:*)"), back(ms(5)))...)
	p.ToolUse("c2", "Read", input(t, map[string]any{"file_path": "/tmp/re" + rlo + "adme" + zwsp + ".md"}))
	feed(p, "c2", "Read", t0, cat(front("Read"), back(ms(5)))...)
	p.SetResult("c1", "removed "+rlo+"txt.exe"+zwsp+"\n", false)
	p.SetSize(80, 10)
	p.Select("c1")

	for name, out := range map[string]string{"panel": p.View(), "detail": p.Detail(80, 30)} {
		if strings.Contains(out, rlo) || strings.Contains(out, zwsp) {
			t.Errorf("%s draws a raw U+202E or U+200B:\n%q", name, out)
		}
		if !strings.Contains(out, "\x1b[7m<U+202E>\x1b[27m") || !strings.Contains(out, "\x1b[7m<U+200B>\x1b[27m") {
			t.Errorf("%s does not draw the escapes in reverse video:\n%q", name, out)
		}
	}
	view := plain(p.View())
	for _, want := range []string{"rm -rf <U+202E>fdp.<U+200B>x", "re<U+202E>adme<U+200B>.md"} {
		if !strings.Contains(view, want) {
			t.Errorf("panel lacks %q:\n%s", want, view)
		}
	}
	if d := plain(p.Detail(80, 30)); !strings.Contains(d, "removed <U+202E>txt.exe<U+200B>") {
		t.Errorf("detail lacks the escaped result:\n%s", d)
	}
}

// A backspace or a carriage return in a command is shown as an escape in
// the panel, not as a space that hides it.
func TestH16_PanelShowsControlCharactersInACommand(t *testing.T) {
	t.Parallel()
	p := New()
	p.ToolUse("c1", "Bash", input(t, map[string]any{"command": "echo saf\be\rrm notes.md"}))
	feed(p, "c1", "Bash", t0, cat(front("Bash(echo:*)"), back(ms(5)))...)
	p.SetSize(80, 10)
	if view := plain(p.View()); !strings.Contains(view, `echo saf\x08e\rrm notes.md`) {
		t.Errorf("the panel does not show the controls:\n%s", view)
	}
}

// A result's output reads as a terminal shows it (a progress bar's last
// state, no colour codes), while a CR in the command stays an escape.
func TestPanelShowsOutputAsATerminalDoes(t *testing.T) {
	t.Parallel()
	p := New()
	p.ToolUse("c1", "Bash", input(t, map[string]any{"command": "make\rx"}))
	feed(p, "c1", "Bash", t0, cat(front("Bash(make:*)"), back(ms(5)))...)
	p.SetResult("c1", "10%\r50%\r100%\n\x1b[32mok\x1b[0m built\n", false)
	p.SetSize(80, 10)
	p.Select("c1")
	d := plain(p.Detail(80, 30))
	if !strings.Contains(d, "100%") || strings.Contains(d, "10%") || strings.Contains(d, `\r`+"50%") || !strings.Contains(d, "ok built") || strings.Contains(d, `\x1b`) {
		t.Errorf("the result is not shown as a terminal shows it:\n%s", d)
	}
	if !strings.Contains(plain(p.View()), `make\rx`) {
		t.Errorf("the command's CR is not an escape:\n%s", plain(p.View()))
	}
}
