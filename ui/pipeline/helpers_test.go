package pipeline

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/agent"
)

// t0 is the fixed time every test scenario starts at.
var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// step is one stage event of a scripted call: it ends dur after the
// previous one, and mod fills in the rest.
type step struct {
	stage   agent.Stage
	outcome string
	dur     time.Duration
	mod     func(*agent.StageEvent)
}

func s(stage agent.Stage, outcome string, dur time.Duration, mod ...func(*agent.StageEvent)) step {
	st := step{stage: stage, outcome: outcome, dur: dur}
	if len(mod) > 0 {
		st.mod = mod[0]
	}
	return st
}

func rule(r string) func(*agent.StageEvent) { return func(e *agent.StageEvent) { e.Rule = r } }

func detail(d, r string) func(*agent.StageEvent) {
	return func(e *agent.StageEvent) { e.Detail, e.Rule = d, r }
}

// feed sends a call's steps starting at time at and returns when the last
// one ended. A result step gets the whole call's duration.
func feed(p *Panel, id, tool string, at time.Time, steps ...step) time.Time {
	now := at
	for _, st := range steps {
		now = now.Add(st.dur)
		d := st.dur
		if st.stage == agent.StageResult {
			d = now.Sub(at)
		}
		ev := agent.StageEvent{
			CallID: id, Tool: tool, Stage: st.stage, Outcome: st.outcome,
			DurationUS: d.Microseconds(), Time: now,
		}
		if st.mod != nil {
			st.mod(&ev)
		}
		p.Observe(ev)
	}
	return now
}

// front is the usual start of a call the rules allow.
func front(allowRule string) []step {
	return []step{
		s(agent.StageLookup, agent.OutcomeOK, ms(0)),
		s(agent.StageSchema, agent.OutcomeOK, ms(1)),
		s(agent.StagePermission, agent.OutcomeAllow, ms(1), rule(allowRule)),
		s(agent.StagePreHook, agent.OutcomeSkipped, ms(0)),
	}
}

// back is the usual end of a call after it ran for d.
func back(d time.Duration) []step {
	return []step{
		s(agent.StageCall, agent.OutcomeStart, 0),
		s(agent.StageCall, agent.OutcomeOK, d),
		s(agent.StageCapture, agent.OutcomeOK, ms(0)),
		s(agent.StagePostHook, agent.OutcomeSkipped, ms(0)),
		s(agent.StageResult, agent.OutcomeOK, 0),
	}
}

func cat(parts ...[]step) []step {
	var out []step
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func input(t testing.TB, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// plain is the view without styles, as a person reads it.
func plain(s string) string { return ansi.Strip(s) }

// checkSize fails unless out is exactly h lines of at most w cells.
func checkSize(t *testing.T, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if h == 0 {
		if out != "" {
			t.Fatalf("height 0: want empty view, got %q", out)
		}
		return
	}
	if len(lines) != h {
		t.Fatalf("want exactly %d lines, got %d:\n%s", h, len(lines), plain(out))
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got > w {
			t.Fatalf("line %d is %d cells wide, more than %d: %q", i, got, w, plain(l))
		}
	}
}

// lineWith returns the index of the first plain line containing sub, or -1.
func lineWith(out, sub string) int {
	for i, l := range strings.Split(plain(out), "\n") {
		if strings.Contains(l, sub) {
			return i
		}
	}
	return -1
}
