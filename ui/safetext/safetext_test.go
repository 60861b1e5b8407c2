package safetext

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestEscapeShowsWhatWouldHideOrReorderText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"plain text is unchanged", "git status && ls -la", "git status && ls -la"},
		{"newlines and tabs are left to the layout", "a\n\tb", "a\n\tb"},
		{"wide and combining characters are text", "世界 café 👍", "世界 café 👍"},
		{"an escape sequence is shown, not obeyed", "ok \x1b[2K\rrm", `ok \x1b[2K\rrm`},
		{"DEL and C1 controls", "a\x7fb\u009bc", `a\x7fb\x9bc`},
		{"right-to-left override", "x\u202ey", "x<U+202E>y"},
		{"every embedding and override", "\u202a\u202b\u202c\u202d\u202e", "<U+202A><U+202B><U+202C><U+202D><U+202E>"},
		{"every isolate", "\u2066\u2067\u2068\u2069", "<U+2066><U+2067><U+2068><U+2069>"},
		{"direction marks", "\u200e\u200f\u061c", "<U+200E><U+200F><U+061C>"},
		{"zero-width characters", "a\u200bb\u200cc\u200dd\u2060e\ufefff", "a<U+200B>b<U+200C>c<U+200D>d<U+2060>e<U+FEFF>f"},
		{"other format characters", "soft\u00adhyphen tag\U000E0041", "soft<U+00AD>hyphen tag<U+E0041>"},
		{"blank fillers a parser reads as letters", "if\u3164x", "if<U+3164>x"},
		{"line separator", "a\u2028b", "a<U+2028>b"},
		{"text that reads like an escape stays text", "<U+202E>", "<U+202E>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Escape(tt.in); got != tt.want {
				t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got := ansi.Strip(Mark(tt.in)); got != tt.want {
				t.Errorf("Mark(%q) without styles = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestMarkSetsEscapesApartAndKeepsTheSurroundingStyle(t *testing.T) {
	t.Parallel()
	got := Mark("rm \u202e\u200bx <U+202E>")
	want := "rm " + markOn + "<U+202E><U+200B>" + markOff + "x <U+202E>"
	if got != want {
		t.Fatalf("Mark = %q, want %q (one reversed run, literal text left alone)", got, want)
	}
	if strings.Contains(got, "\x1b[m") || strings.Contains(got, "\x1b[0m") {
		t.Errorf("Mark resets every style: %q", got)
	}
	if w := ansi.StringWidth(got); w != len("rm <U+202E><U+200B>x <U+202E>") {
		t.Errorf("width = %d", w)
	}
	if Mark("plain") != "plain" {
		t.Error("plain text gained styles")
	}
}

func TestFoundNamesEachHiddenCharacterOnce(t *testing.T) {
	t.Parallel()
	got := Found("a\u202eb\u200bc\u202e\x1bd")
	want := []string{"<U+202E>", "<U+200B>", `\x1b`}
	if !slices.Equal(got, want) {
		t.Errorf("Found = %q, want %q", got, want)
	}
	if f := Found("echo <U+202E> 世界"); f != nil {
		t.Errorf("Found on clean text = %q", f)
	}
}
