package approval

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The file "Always" writes to is wrapped after a "/" only, never inside a
// directory's name at a hyphen, at every width the dialog is drawn in; a
// name wider than the line is cut into pieces that keep every character.
func TestWrapPathBreaksOnlyAfterASlash(t *testing.T) {
	t.Parallel()
	const s = "(a also saves it in /tmp/p2demo/cfg-dark/workbench/projects/proj-f642065e816f/settings.json)"
	for _, w := range []int{30, 45, 56, 70, 85} {
		lines := wrapPath(s, w)
		for i, l := range lines {
			if len([]rune(l)) > w {
				t.Errorf("width %d: line %q is too wide", w, l)
			}
			if i < len(lines)-1 && !strings.HasSuffix(l, "/") && !strings.HasSuffix(l, " in") && !strings.HasSuffix(l, "it") && !strings.HasSuffix(l, "saves") && !strings.HasSuffix(l, "also") {
				t.Errorf("width %d: line %q breaks inside a name:\n%s", w, l, strings.Join(lines, "\n"))
			}
		}
		if got := strings.Join(strings.Fields(strings.Join(lines, " ")), " "); strings.ReplaceAll(got, "/ ", "/") != s {
			t.Errorf("width %d: the text changed: %q", w, got)
		}
	}
	if got := wrapPath("in /"+strings.Repeat("x", 25)+"/y", 10); strings.Join(got, "") != "in /"+strings.Repeat("x", 25)+"/y" {
		t.Errorf("a long name lost characters: %q", got)
	}
}

// In the dialog, at 60, 80 and 200 columns, the line that names the file
// Always writes to breaks only after a "/".
func TestTheAlwaysFileIsWrappedAtASlash(t *testing.T) {
	t.Parallel()
	always := "/tmp/p2demo/cfg-dark/workbench/projects/proj-f642065e816f/settings.json"
	for _, w := range []int{60, 80, 200} {
		d := ready(t, bash("touch a"), Options{WorkDir: t.TempDir(), AlwaysFile: always})
		view := ansi.Strip(d.View(min(w-4, 100), 24))
		if strings.Contains(view, "proj-  ") || strings.Contains(view, "proj- ") || strings.Contains(view, "cfg- ") {
			t.Errorf("%d columns: the Always file is broken inside a name:\n%s", w, view)
		}
		if !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(view, "│", "")), ""), strings.ReplaceAll(always, " ", "")) {
			t.Errorf("%d columns: the Always file is not shown whole:\n%s", w, view)
		}
	}
}
