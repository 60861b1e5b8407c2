package ui

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed92b641c3/workbench/ui/safetext"
)

// sgr matches the style sequences the UI writes itself; whatever else is
// a control character in a drawn screen came from outside.
var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// checkNothingRaw fails when a drawn screen holds a control character
// other than the newlines between its rows, or a character safetext
// shows as an escape: either would let text act on the terminal or read
// as something else.
func checkNothingRaw(t *testing.T, raw string) {
	t.Helper()
	for i, r := range sgr.ReplaceAllString(raw, "") {
		switch {
		case r == '\n':
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || safetext.Invisible(r) || r == utf8.RuneError:
			t.Errorf("the screen holds %U raw at byte %d:\n%q", r, i, raw)
			return
		}
	}
}

// bashTurn is a script whose model runs one command.
func bashTurn(cmd string) string {
	in, _ := json.Marshal(map[string]any{"command": cmd})
	return fmt.Sprintf(`{"turns":[{"text":"Running it.","tool_calls":[{"id":"b","name":"Bash","input":%s}]},{"text":"Done."}]}`, in)
}

// TestH16_DialogShowsEveryControlCharacterInACommand: a carriage return,
// a backspace, a cursor movement, vertical tab, form feed, a C1 control,
// a line separator, a bidi override and a zero-width space inside a
// command cannot make the approval dialog show other than the command:
// each is an escape, marked, and the dialog warns.
func TestH16_DialogShowsEveryControlCharacterInACommand(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, cmd, shown string
	}{
		{"a carriage return", "echo safe\rrm notes.md", `safe\rrm notes.md`},
		{"a backspace", "echo saf\be; rm notes.md", `saf\x08e; rm notes.md`},
		{"a cursor movement", "echo ok\x1b[1A\x1b[2Krm notes.md", `ok\x1b[1A\x1b[2Krm notes.md`},
		{"a vertical tab and a form feed", "echo a\vb\fc; rm notes.md", `a\x0bb\x0cc; rm notes.md`},
		{"a C1 next-line", "echo ok\u0085rm notes.md", `ok\x85rm notes.md`},
		{"a line separator", "echo ok\u2028rm notes.md", `ok<U+2028>rm notes.md`},
		{"a right-to-left override", "ls \u202e; rm notes.md", `ls <U+202E>; rm notes.md`},
		{"a zero-width space", "cat no\u200btes.md", `cat no<U+200B>tes.md`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			a := newApp(t, bashTurn(c.cmd), 100, 30, appOptions{})
			a.prompt("Run it")
			a.modal()
			raw := a.raw(t)
			checkNothingRaw(t, raw)
			s := a.screen(t)
			if !strings.Contains(s, c.shown) {
				t.Errorf("the dialog does not show %q:\n%s", c.shown, s)
			}
			if !strings.Contains(s, "⚠ Invisible characters in the input, shown marked:") {
				t.Errorf("the dialog does not warn:\n%s", s)
			}
		})
	}
}

// trojanName is a file name that reads "report_gpj.exe" reversed: a
// right-to-left override and a zero-width space inside it.
const trojanName = "report\u202egpj.exe\u200b.txt"

// TestH16_ScreensShowBidiAndZeroWidthCharacters: golden screens of the
// approval dialog and the conversation with bidi and zero-width
// characters in a command, a file name and file content.
func TestH16_ScreensShowBidiAndZeroWidthCharacters(t *testing.T) {
	t.Parallel()
	content := "if access_level != \"user\u202e \u2066// Check if admin\u2069 \u2066\" {\n\tgrant()\n}\n"
	write, _ := json.Marshal(map[string]any{"file_path": trojanName, "content": content})
	cmd, _ := json.Marshal(map[string]any{"command": "ls \u202e -la; cat no\u200btes.md"})
	body := fmt.Sprintf(`{"turns":[
	  {"text":"Listing first.","tool_calls":[{"id":"b","name":"Bash","input":%s}]},
	  {"text":"Now the file.","tool_calls":[{"id":"w","name":"Write","input":%s}]},
	  {"text":"Done."}]}`, cmd, write)
	for _, w := range []int{60, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			t.Parallel()
			a := newApp(t, body, w, 30, appOptions{files: map[string]string{"notes.md": "# Notes\n"}})
			a.prompt("Look around")
			a.modal()
			checkNothingRaw(t, a.raw(t))
			a.snap(t, "the command")
			a.answer('y')
			a.until("the Write asks", func() bool {
				return a.m.modalOpen() && strings.Contains(a.screen(t), "Write wants")
			})
			checkNothingRaw(t, a.raw(t))
			a.snap(t, "the file")
			a.answer('y')
			a.idle()
			checkNothingRaw(t, a.raw(t))
			a.snap(t, "the conversation")
		})
	}
	t.Run("coloured", func(t *testing.T) {
		t.Parallel()
		a := newApp(t, body, 100, 30, appOptions{files: map[string]string{"notes.md": "# Notes\n"}})
		a.prompt("Look around")
		a.modal()
		golden.RequireEqual(t, a.raw(t))
	})
}
