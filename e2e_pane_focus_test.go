package main

import (
	"strings"
	"testing"
)

// At 80 columns a focused pane takes the whole width and an unfocused one
// the side column (30 columns): the keyboard moving out and back resizes
// the terminal twice. Output the shell printed at full width is whole
// again afterwards (it was cut to 30 columns and stayed cut).
func TestE2E_PaneKeepsItsContentThroughAFocusRoundTrip(t *testing.T) {
	dir := t.TempDir()
	r := startTmux(t, dir, 80, 24, "--no-claude-settings")
	r.waitFor("the input", func(s string) bool { return strings.Contains(s, "Ask the agent") })
	r.keys("/shell", "Enter")
	r.waitFor("the keyboard in the shell", func(s string) bool { return strings.Contains(s, "keys → sh_") })
	line := strings.Repeat("0", 75) + "X"
	r.keys("-l", "printf '%075dX\\n' 0")
	r.keys("Enter")
	r.waitFor("the 76-column line", func(s string) bool { return strings.Contains(s, line) })
	r.keys("C-]")
	r.waitFor("the pane in the side column", func(s string) bool {
		return strings.Contains(s, "keys → input") && !strings.Contains(s, line)
	})
	r.keys("C-]")
	r.waitFor("the line whole in the focused pane", func(s string) bool {
		return strings.Contains(s, "keys → sh_") && strings.Contains(s, line)
	})
}
