package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// The status line shows how full the context window is; /context splits it
// by part as an estimate; /compact with instructions summarises the
// conversation and says so.
func TestContextInTheStatusLineAndCompactCommands(t *testing.T) {
	t.Parallel()
	a := newApp(t, `{"turns":[{"text":"first answer","prompt_tokens":150000},{"text":"second answer","prompt_tokens":150000},{"text":"SUMMARY of it all"}]}`, 140, 40, appOptions{contextWindow: 200000})
	a.prompt("first")
	a.idle()
	a.prompt("second")
	a.idle()
	a.shows("75% context")
	a.typeText("/context")
	a.key(tea.KeyEnter, 0)
	a.shows("Tool results")
	if s := a.screen(t); !strings.Contains(s, "estimate") || !strings.Contains(s, "Last request (measured): 150k tokens (75.0%)") {
		t.Errorf("/context does not show the measured share and say it estimates:\n%s", s)
	}
	a.typeText("/compact keep the names")
	a.key(tea.KeyEnter, 0)
	a.shows("Compacted (manual)")
	a.until("the compaction ends", func() bool { return !a.m.running })
	if h := a.m.cfg.Agent.History(); len(h) == 0 || !strings.Contains(h[0].Blocks[0].Text, "SUMMARY of it all") {
		t.Errorf("the history does not start with the summary: %+v", h)
	}
}
