package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// "Yes for this session" on a command of several parts that each need
// approval grants every part's scope: the next calls that use those
// programs, alone or together, do not ask again.
func TestYesForThisSessionCoversEveryMarkedPart(t *testing.T) {
	t.Parallel()
	a := newApp(t, `{"turns":[
	  {"text":"Setting up.","tool_calls":[{"id":"c1","name":"Bash","input":{"command":"touch a && mkdir b && cp a b/a"}}]},
	  {"text":"Again.","tool_calls":[{"id":"c2","name":"Bash","input":{"command":"mkdir c"}}]},
	  {"tool_calls":[{"id":"c3","name":"Bash","input":{"command":"cp a c/a && touch d"}}]},
	  {"text":"Done."}]}`, 120, 40, appOptions{})
	a.prompt("set up")
	a.modal()
	s := a.screen(t)
	for _, rule := range []string{"Bash(touch:*)", "Bash(mkdir:*)", "Bash(cp:*)"} {
		if !strings.Contains(s, rule) {
			t.Errorf("the dialog's session scope does not name %s:\n%s", rule, s)
		}
	}
	a.answer('s')
	asked := 0
	a.until("the run ends", func() bool {
		if a.m.modalOpen() {
			asked++
			t.Logf("asked again:\n%s", a.screen(t))
			a.answer('n')
		}
		return !a.m.running && a.runsEnded == a.runsStarted
	})
	if asked > 0 {
		t.Errorf("%d more dialogs after Yes for this session", asked)
	}
	for _, f := range []string{"a", "b/a", "c/a", "d"} {
		if _, err := os.Stat(filepath.Join(a.dir, f)); err != nil {
			t.Errorf("%s was not made: %v", f, err)
		}
	}
}
