package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// The approval dialog of a padded command, in the whole app, keeps its
// pinned parts while the terminal is resized under it (issue 18), and the
// call runs once it is approved.
func TestApprovalDialogKeepsItsPinnedPartsThroughAResize(t *testing.T) {
	t.Parallel()
	cmd := "echo hello\n" + strings.Repeat("\n", 60) + "touch x"
	in, err := json.Marshal(map[string]any{"command": cmd})
	if err != nil {
		t.Fatal(err)
	}
	body := `{"turns":[{"text":"Padded.","tool_calls":[{"id":"p1","name":"Bash","input":` + string(in) + `}]},{"text":"Done."}]}`
	a := newApp(t, body, 80, 24, appOptions{})
	a.prompt("run it")
	a.modal()
	for _, size := range [][2]int{{80, 24}, {60, 20}, {200, 50}, {60, 20}} {
		a.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		screen := plain(a.dir, a.m.render())
		for _, want := range []string{"Bash wants to run echo, touch · 62 lines", "2 commands; 2 need approval", "▶ echo hello", "▶ touch x", "⋯ 60 blank lines ⋯"} {
			if !strings.Contains(screen, want) {
				t.Errorf("at %dx%d the screen lacks %q:\n%s", size[0], size[1], want, screen)
			}
		}
	}
	a.answer('y')
	a.until("the command ran", func() bool { return !a.m.modalOpen() && a.runsEnded == a.runsStarted })
	if _, err := os.Stat(filepath.Join(a.dir, "x")); err != nil {
		t.Errorf("the approved command did not run whole: %v", err)
	}
}
