package session

import (
	"strings"
	"sync"
	"testing"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/sandbox"
)

// The sandbox's start-up check runs in the background, so its notice may
// come after Open: then as a notice event (the TUI's) or through
// LateNotes (stderr for -p), once, before any command runs.
func TestH16_TheSandboxNoticeFollowsTheBackgroundCheck(t *testing.T) {
	t.Setenv(sandbox.SlowProbeEnv, "1")
	for _, late := range []bool{false, true} {
		dir := questionProject(t)
		c, err := Load(Options{Dir: dir, TrustProject: true})
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var shown []string
		w := Wiring{Approver: agent.Headless{}, Publish: func(ev agent.Event) {
			if ev.Kind == agent.EventNotice {
				mu.Lock()
				shown = append(shown, ev.Text)
				mu.Unlock()
			}
		}}
		if late {
			w.LateNotes = func(n []string) {
				mu.Lock()
				shown = append(shown, n...)
				mu.Unlock()
			}
		}
		s, err := Open(c, Model{Script: writeScript(t, dir)}, w)
		if err != nil {
			t.Fatal(err)
		}
		<-c.Sandbox.Checked()
		s.Close("exit")
		mu.Lock()
		all := append(append([]string(nil), s.Notes...), shown...)
		mu.Unlock()
		n := 0
		for _, note := range all {
			if strings.Contains(note, "sandbox check at start") && strings.Contains(note, "did not answer") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("late=%v: the notice was shown %d times: notes %q, later %q", late, n, s.Notes, shown)
		}
	}
}
