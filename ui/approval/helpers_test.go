package approval

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/permission"
)

// clock is a settable time source for the grace period.
type clock struct{ t time.Time }

func newClock() *clock { return &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

// pastGrace is a wait after which a dialog takes keys.
const pastGrace = 2 * time.Second

// press builds the key message for a key name as bubbletea prints it
// ("y", "enter", "ctrl+s").
func press(name string) tea.KeyPressMsg {
	special := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
		"backspace": tea.KeyBackspace, "space": tea.KeySpace,
	}
	if strings.HasPrefix(name, "ctrl+") {
		return tea.KeyPressMsg{Code: rune(name[len(name)-1]), Mod: tea.ModCtrl}
	}
	if name == "shift+tab" {
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	}
	if r, ok := special[name]; ok {
		if r == tea.KeySpace {
			return tea.KeyPressMsg{Code: r, Text: " "}
		}
		return tea.KeyPressMsg{Code: r}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// typeText sends each rune of s as a key press and returns the last Action.
func typeText(m Modal, s string) Action {
	var a Action
	for _, r := range s {
		a = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return a
}

// keys sends key names in order and returns the last Action.
func keys(m Modal, names ...string) Action {
	var a Action
	for _, n := range names {
		a = m.Update(press(n))
	}
	return a
}

// ready builds a dialog that has been on an 80x24 screen once and whose
// grace period is over. The approve keys wait for a first View, as they
// wait for everything asked about to have been on screen.
func ready(t *testing.T, req agent.ApprovalRequest, opts Options) *Dialog {
	t.Helper()
	c := newClock()
	opts.Now = c.now
	d := New(req, opts)
	d.View(80, 24)
	c.advance(pastGrace)
	return d
}

func bash(cmd string) agent.ApprovalRequest {
	in, _ := json.Marshal(map[string]any{"command": cmd})
	return agent.ApprovalRequest{CallID: "c1", Tool: "Bash", Input: in,
		Target:   permission.Target{Commands: []string{cmd}},
		Decision: permission.Decision{Behavior: permission.Ask, Rule: "mode:default", Message: "approve Bash?"}}
}

func input(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// project makes a project directory holding the given files.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// screen checks that a view fits width × height, every line measured in
// terminal cells, and returns it without colours for golden files and
// text checks.
func screen(t *testing.T, view string, width, height int) string {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > height {
		t.Errorf("view has %d lines, more than the height %d", len(lines), height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("line %d is %d cells wide, more than %d: %q", i+1, w, width, ansi.Strip(l))
		}
	}
	return ansi.Strip(view)
}

// requireGolden compares a screen with testdata/<Test>/<case>.golden
// (regenerated with -update).
func requireGolden(t *testing.T, view string, width, height int) {
	t.Helper()
	golden.RequireEqual(t, screen(t, view, width, height))
}
