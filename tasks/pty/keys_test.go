package pty

import (
	"strings"
	"testing"
)

func TestKeyBytes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		appCursor bool
		want      string
	}{
		{"enter", false, "\r"},
		{"Return", false, "\r"},
		{"tab", false, "\t"},
		{"shift+tab", false, "\x1b[Z"},
		{"esc", false, "\x1b"},
		{"backspace", false, "\x7f"},
		{"space", false, " "},
		{"up", false, "\x1b[A"},
		{"up", true, "\x1bOA"},
		{"left", false, "\x1b[D"},
		{"home", false, "\x1b[H"},
		{"end", true, "\x1bOF"},
		{"pageup", false, "\x1b[5~"},
		{"pagedown", false, "\x1b[6~"},
		{"delete", false, "\x1b[3~"},
		{"insert", false, "\x1b[2~"},
		{"f1", false, "\x1bOP"},
		{"f5", false, "\x1b[15~"},
		{"f12", false, "\x1b[24~"},
		{"ctrl+a", false, "\x01"},
		{"ctrl+c", false, "\x03"},
		{"CTRL+Z", false, "\x1a"},
		{"ctrl+[", false, "\x1b"},
		{"ctrl+\\", false, "\x1c"},
		{"ctrl+]", false, "\x1d"},
		{"ctrl+^", false, "\x1e"},
		{"ctrl+_", false, "\x1f"},
		{"ctrl+@", false, "\x00"},
		{"ctrl+space", false, "\x00"},
		{"alt+b", false, "\x1bb"},
		{"alt+B", false, "\x1bB"},
		{"alt+.", false, "\x1b."},
		{"alt++", false, "\x1b+"},
		{"alt+enter", false, "\x1b\r"},
		{"ctrl+alt+x", false, "\x1b\x18"},
		{"ctrl+left", false, "\x1b[1;5D"},
		{"shift+up", false, "\x1b[1;2A"},
		{"alt+pagedown", false, "\x1b[6;3~"},
		{"ctrl+shift+f5", false, "\x1b[15;6~"},
	}
	for _, c := range cases {
		got, err := KeyBytesMode(c.name, c.appCursor)
		if err != nil || string(got) != c.want {
			t.Errorf("KeyBytesMode(%q, %v) = %q, %v; want %q", c.name, c.appCursor, got, err, c.want)
		}
	}
}

func TestUnknownKeysListTheValidOnes(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"", "enterr", "ctrl+1", "shift+a", "ctrl+ctrl+a", "alt+", "hyper+x", "alt+ab"} {
		_, err := KeyBytes(name)
		if err == nil {
			t.Errorf("KeyBytes(%q) succeeded", name)
			continue
		}
		if !strings.Contains(err.Error(), "valid keys: enter") {
			t.Errorf("KeyBytes(%q) error %q does not list the valid keys", name, err)
		}
	}
}

func TestPasteBytes(t *testing.T) {
	t.Parallel()
	if got := string(PasteBytes("a\nb", false)); got != "a\nb" {
		t.Errorf("unbracketed paste = %q", got)
	}
	if got := string(PasteBytes("a\x1b[201~\nb", true)); got != "\x1b[200~a\nb\x1b[201~" {
		t.Errorf("bracketed paste = %q; the end marker inside must go", got)
	}
}

func FuzzKeyBytes(f *testing.F) {
	for _, s := range []string{"enter", "ctrl+c", "alt+ctrl+left", "f13", "alt+€", "ctrl+", "+", "shift+shift+a"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, name string, app bool) {
		b, err := KeyBytesMode(name, app)
		if err != nil {
			if !strings.Contains(err.Error(), "valid keys") {
				t.Fatalf("error without the key list: %v", err)
			}
			return
		}
		if len(b) == 0 {
			t.Fatalf("KeyBytesMode(%q) gave no bytes", name)
		}
	})
}
