package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// While the person's own !command runs (no turn of the agent's), the hint
// line says that Esc stops the command and Enter sends, which is what they
// do; it said "esc interrupt the turn • enter queue a message". Esc then
// stops the command.
func TestHintWhileTheOwnCommandRuns(t *testing.T) {
	t.Parallel()
	a := newApp(t, `{"turns":[{"text":"hi"}]}`, 80, 24, appOptions{})
	a.typeText("!sleep 30")
	a.key(tea.KeyEnter, 0)
	a.shows("Bash(sleep 30)")
	lines := strings.Split(a.screen(t), "\n")
	hint := lines[len(lines)-2]
	if !strings.Contains(hint, "esc stop the command") || !strings.Contains(hint, "enter send") || strings.Contains(hint, "queue") {
		t.Errorf("the hint line while the command runs: %q", hint)
	}
	a.key(tea.KeyEscape, 0)
	a.until("the command stops", func() bool { return !a.m.busy() })
}
