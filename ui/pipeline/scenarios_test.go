package pipeline

import (
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/agent"
)

// The scenarios below are the states the tests look at. Each builds a
// panel from the events the pipeline would emit for it.

func singleCall(t testing.TB) *Panel {
	p := New()
	p.ToolUse("c1", "Bash", input(t, map[string]any{"command": "git status", "description": "Show the tree"}))
	feed(p, "c1", "Bash", t0, cat(front("Bash(git status:*)"), back(ms(1200)))...)
	return p
}

func askApproved(t testing.TB) *Panel {
	p := New()
	p.ToolUse("c1", "Bash", input(t, map[string]any{"command": "git status"}))
	feed(p, "c1", "Bash", t0, cat([]step{
		s(agent.StageLookup, agent.OutcomeOK, 0),
		s(agent.StageSchema, agent.OutcomeOK, ms(1)),
		s(agent.StagePermission, agent.OutcomeAsk, ms(1), detail("Bash asks in default mode", "mode:default")),
		s(agent.StagePermission, agent.OutcomeApproved, ms(2300),
			detail("approved by person; allowed for the session: Bash(git status:*)", "Bash(git status:*)")),
		s(agent.StagePreHook, agent.OutcomeSkipped, 0, detail("no hooks", "")),
	}, back(ms(120)))...)
	return p
}

func denied(t testing.TB) *Panel {
	p := New()
	p.ToolUse("c1", "Bash", input(t, map[string]any{"command": "rm -rf build"}))
	feed(p, "c1", "Bash", t0,
		s(agent.StageLookup, agent.OutcomeOK, 0),
		s(agent.StageSchema, agent.OutcomeOK, ms(1)),
		s(agent.StagePermission, agent.OutcomeDeny, ms(1), detail("matches a deny rule", "Bash(rm:*)")),
		s(agent.StageResult, agent.OutcomeError, 0),
	)
	return p
}

// parallel runs three reads at once, then one Bash call on its own.
func parallel(t testing.TB) *Panel {
	p := New()
	files := []string{"go.mod", "main.go", "README.md"}
	for i, f := range files {
		p.ToolUse(callID(i+1), "Read", input(t, map[string]any{"file_path": f}))
	}
	at := t0
	for i := range files {
		at = feed(p, callID(i+1), "Read", at, front("Read")...)
	}
	for i := range files {
		at = feed(p, callID(i+1), "Read", at, back(ms(10*(i+1)))...)
	}
	p.ToolUse("c4", "Bash", input(t, map[string]any{"command": "go test ./..."}))
	feed(p, "c4", "Bash", at.Add(time.Second), cat(front("Bash(go test:*)"), back(ms(3400)))...)
	return p
}

func callID(i int) string { return "c" + string(rune('0'+i)) }

// running stops in the middle of a call: it started at t0+2ms and the
// panel's clock is at started+1.2s.
func running(t testing.TB) *Panel {
	p := New()
	p.ToolUse("c1", "Bash", input(t, map[string]any{"command": "sleep 5"}))
	at := feed(p, "c1", "Bash", t0, append(front("Bash(sleep:*)"), s(agent.StageCall, agent.OutcomeStart, 0))...)
	p.Tick(at.Add(ms(1200)))
	return p
}

func spilled(t testing.TB) *Panel {
	p := New()
	p.ToolUse("c1", "Bash", input(t, map[string]any{"command": "cat big.log"}))
	feed(p, "c1", "Bash", t0, cat(front("Bash(cat:*)"), []step{
		s(agent.StageCall, agent.OutcomeStart, 0),
		s(agent.StageCall, agent.OutcomeOK, ms(800)),
		s(agent.StageCapture, agent.OutcomeSpilled, ms(40), func(e *agent.StageEvent) {
			e.Bytes = 2_100_000
			e.SpillPath = "/state/sessions/s1/spill/c1.txt"
			e.SHA256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
			e.Detail = "2100000 bytes, 40000 lines spilled"
		}),
		s(agent.StagePostHook, agent.OutcomeSkipped, 0),
		s(agent.StageResult, agent.OutcomeOK, 0),
	})...)
	return p
}

// nested is ExecuteExtraTool running Sleep as c1/Sleep, then another call.
func nested(t testing.TB) *Panel {
	p := New()
	p.ToolUse("c1", "ExecuteExtraTool", input(t, map[string]any{"name": "Sleep", "input": map[string]any{"seconds": 1}}))
	at := feed(p, "c1", "ExecuteExtraTool", t0, append(front("ExecuteExtraTool"), s(agent.StageCall, agent.OutcomeStart, 0))...)
	callStart := at
	at = feed(p, "c1/Sleep", "Sleep", at, cat(front("Sleep"), back(ms(1000)))...)
	// The wrapper's call stage lasts as long as the nested call, and its
	// result as long as the whole wrapper.
	since := func(from time.Time) func(*agent.StageEvent) {
		return func(e *agent.StageEvent) { e.DurationUS = e.Time.Sub(from).Microseconds() }
	}
	at = feed(p, "c1", "ExecuteExtraTool", at,
		s(agent.StageCall, agent.OutcomeOK, ms(1), since(callStart)),
		s(agent.StageCapture, agent.OutcomeSkipped, 0, detail("captured by the target call", "")),
		s(agent.StagePostHook, agent.OutcomeSkipped, 0),
		s(agent.StageResult, agent.OutcomeOK, 0, since(t0)),
	)
	p.ToolUse("c2", "LS", input(t, map[string]any{"path": "."}))
	feed(p, "c2", "LS", at, cat(front("LS"), back(ms(3)))...)
	return p
}

// rewritten is a call whose input a PreToolUse hook rewrote, re-checked.
func rewritten(t testing.TB) *Panel {
	p := New()
	p.ToolUse("c1", "Bash", input(t, map[string]any{"command": "gofmt -l ."}))
	feed(p, "c1", "Bash", t0, cat([]step{
		s(agent.StageLookup, agent.OutcomeOK, 0),
		s(agent.StageSchema, agent.OutcomeOK, ms(1)),
		s(agent.StagePermission, agent.OutcomeAllow, ms(1), rule("Bash(gofmt:*)")),
		s(agent.StagePreHook, agent.OutcomeRewrite, ms(150), detail("hook fmt rewrote the input", "hook:fmt")),
		s(agent.StageRecheck, agent.OutcomeRewrite, ms(1), func(e *agent.StageEvent) {
			e.Detail = "input rewritten by hook fmt; checking schema and permissions again"
			e.Input = []byte(`{"command":"gofmt -l -s ."}`)
		}),
		s(agent.StageRecheck, agent.OutcomeAllow, ms(1), rule("Bash(gofmt:*)")),
	}, back(ms(90)))...)
	return p
}
