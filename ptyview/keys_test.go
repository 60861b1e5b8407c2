package ptyview

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// keyTable is what xterm (TERM=xterm-256color) sends for each key, in
// normal and in application cursor mode.
var keyTable = []struct {
	key         string
	normal, app string
}{
	{"a", "a", ""},
	{"A", "A", ""},
	{"shift+a", "A", ""},
	{"é", "é", ""},
	{"日", "日", ""},
	{"space", " ", ""},
	{"enter", "\r", ""},
	{"kpenter", "\r", ""},
	{"tab", "\t", ""},
	{"shift+tab", "\x1b[Z", ""},
	{"backspace", "\x7f", ""},
	{"ctrl+backspace", "\x08", ""},
	{"esc", "\x1b", ""},
	{"ctrl+a", "\x01", ""},
	{"ctrl+c", "\x03", ""},
	{"ctrl+d", "\x04", ""},
	{"ctrl+z", "\x1a", ""},
	{"ctrl+shift+a", "\x01", ""},
	{"ctrl+space", "\x00", ""},
	{"ctrl+@", "\x00", ""},
	{"ctrl+\\", "\x1c", ""},
	{"ctrl+^", "\x1e", ""},
	{"ctrl+_", "\x1f", ""},
	{"ctrl+/", "\x1f", ""},
	{"alt+a", "\x1ba", ""},
	{"alt+shift+a", "\x1bA", ""},
	{"alt+.", "\x1b.", ""},
	{"alt+enter", "\x1b\r", ""},
	{"alt+backspace", "\x1b\x7f", ""},
	{"ctrl+alt+a", "\x1b\x01", ""},
	{"meta+b", "\x1bb", ""},
	{"up", "\x1b[A", "\x1bOA"},
	{"down", "\x1b[B", "\x1bOB"},
	{"right", "\x1b[C", "\x1bOC"},
	{"left", "\x1b[D", "\x1bOD"},
	{"kpup", "\x1b[A", "\x1bOA"},
	{"home", "\x1b[H", "\x1bOH"},
	{"end", "\x1b[F", "\x1bOF"},
	{"pgup", "\x1b[5~", ""},
	{"pgdown", "\x1b[6~", ""},
	{"insert", "\x1b[2~", ""},
	{"delete", "\x1b[3~", ""},
	{"f1", "\x1bOP", ""},
	{"f2", "\x1bOQ", ""},
	{"f3", "\x1bOR", ""},
	{"f4", "\x1bOS", ""},
	{"f5", "\x1b[15~", ""},
	{"f6", "\x1b[17~", ""},
	{"f7", "\x1b[18~", ""},
	{"f8", "\x1b[19~", ""},
	{"f9", "\x1b[20~", ""},
	{"f10", "\x1b[21~", ""},
	{"f11", "\x1b[23~", ""},
	{"f12", "\x1b[24~", ""},
	{"shift+up", "\x1b[1;2A", ""},
	{"alt+up", "\x1b[1;3A", ""},
	{"ctrl+up", "\x1b[1;5A", ""},
	{"ctrl+shift+up", "\x1b[1;6A", ""},
	{"ctrl+left", "\x1b[1;5D", ""},
	{"ctrl+right", "\x1b[1;5C", ""},
	{"shift+home", "\x1b[1;2H", ""},
	{"ctrl+end", "\x1b[1;5F", ""},
	{"ctrl+delete", "\x1b[3;5~", ""},
	{"shift+pgup", "\x1b[5;2~", ""},
	{"shift+f1", "\x1b[1;2P", ""},
	{"ctrl+f5", "\x1b[15;5~", ""},
	{"kp5", "5", ""},
	{"f13", "", ""},
	{"mute", "", ""},
}

func TestEncodeKeyMatchesXterm(t *testing.T) {
	t.Parallel()
	for _, tc := range keyTable {
		for _, app := range []bool{false, true} {
			want := tc.normal
			if app && tc.app != "" {
				want = tc.app
			}
			if got := string(EncodeKey(parseKey(tc.key), app)); got != want {
				t.Errorf("%s (application cursor %v): got %q, want %q", tc.key, app, got, want)
			}
		}
	}
}

func TestEncodeKeySendsMultiRuneInputAsIs(t *testing.T) {
	t.Parallel()
	k := tea.Key{Code: tea.KeyExtended, Text: "👍🏽"}
	if got := string(EncodeKey(k, false)); got != "👍🏽" {
		t.Fatalf("got %q", got)
	}
}

func TestLeaveKeyIsOnlyCtrlBracket(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]bool{"ctrl+]": true, "]": false, "alt+]": false, "ctrl+alt+]": false, "ctrl+[": false} {
		if got := IsLeaveKey(press(key)); got != want {
			t.Errorf("%s: got %v", key, got)
		}
	}
	if !strings.Contains(LeaveHint, LeaveKey) {
		t.Fatalf("the hint %q does not name the key", LeaveHint)
	}
}

// TestKeysReachTheProgram sends every key of the table to a program in a
// real pty and checks the bytes it read.
func TestKeysReachTheProgram(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"normal", "app"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			p := openHelper(t, mode)
			p.Focus()
			var want []byte
			for _, tc := range keyTable {
				b := tc.normal
				if mode == "app" && tc.app != "" {
					b = tc.app
				}
				consumed, action := p.HandleKey(press(tc.key))
				if !consumed || action.Unfocus {
					t.Fatalf("%s: consumed %v, action %+v", tc.key, consumed, action)
				}
				want = append(want, b...)
			}
			waitForBytes(t, p, hexOf(want))
		})
	}
}

func waitForBytes(t *testing.T, p *Pane, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for received(p) != want {
		if time.Now().After(deadline) {
			t.Fatalf("the program read\n%s\nwant\n%s", received(p), want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestLeaveKeyUnfocusesAndSendsNothing(t *testing.T) {
	t.Parallel()
	p := openHelper(t, "normal")
	p.Focus()
	p.HandleKey(press("x"))
	consumed, action := p.HandleKey(press("ctrl+]"))
	if !consumed || !action.Unfocus {
		t.Fatalf("ctrl+]: consumed %v, action %+v", consumed, action)
	}
	if p.Focused() {
		t.Fatal("the pane still has the keyboard")
	}
	// Unfocused, the pane lets keys go to the rest of the UI.
	if consumed, _ := p.HandleKey(press("y")); consumed {
		t.Fatal("an unfocused pane consumed a key")
	}
	if p.HandlePaste("pasted") {
		t.Fatal("an unfocused pane took a paste")
	}
	p.Focus()
	p.HandleKey(press("z"))
	waitForBytes(t, p, hexOf([]byte("xz")))
}

func TestTabAndEscGoToTheFocusedProgram(t *testing.T) {
	t.Parallel()
	p := openHelper(t, "normal")
	p.Focus()
	for _, k := range []string{"tab", "esc", "shift+tab"} {
		if consumed, _ := p.HandleKey(press(k)); !consumed {
			t.Fatalf("%s was not consumed", k)
		}
	}
	waitForBytes(t, p, hexOf([]byte("\t\x1b\x1b[Z")))
}

func TestPasteIsBracketedOnlyWhenTheProgramAskedForIt(t *testing.T) {
	t.Parallel()
	for mode, want := range map[string]string{
		"normal": "echo one\necho two",
		"app":    "\x1b[200~echo one\necho two\x1b[201~",
	} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			p := openHelper(t, mode)
			p.Focus()
			if !p.HandlePaste("echo one\necho two") {
				t.Fatal("the focused pane refused the paste")
			}
			waitForBytes(t, p, hexOf([]byte(want)))
		})
	}
}
