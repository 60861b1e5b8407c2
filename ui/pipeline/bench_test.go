package pipeline

import (
	"fmt"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/agent"
)

// benchPanel holds n finished calls (every third one asked and approved,
// some in parallel pairs) and one call still running, as a long session
// would.
func benchPanel(b *testing.B, n int) (*Panel, time.Time) {
	p := New()
	at := t0
	for i := range n {
		id := fmt.Sprintf("call%05d", i)
		p.ToolUse(id, "Bash", input(b, map[string]any{"command": fmt.Sprintf("go test ./pkg%d/...", i)}))
		steps := cat(front("Bash(go test:*)"), back(ms(40)))
		if i%3 == 0 {
			steps = cat([]step{
				s(agent.StageLookup, agent.OutcomeOK, 0),
				s(agent.StageSchema, agent.OutcomeOK, ms(1)),
				s(agent.StagePermission, agent.OutcomeAsk, ms(1), rule("mode:default")),
				s(agent.StagePermission, agent.OutcomeApproved, ms(900), rule("Bash(go test:*)")),
				s(agent.StagePreHook, agent.OutcomeSkipped, 0),
			}, back(ms(40)))
		}
		at = feed(p, id, "Bash", at, steps...)
	}
	at = feed(p, "live", "Bash", at, append(front("Bash"), s(agent.StageCall, agent.OutcomeStart, 0))...)
	p.SetSize(100, 40)
	return p, at
}

// benchView measures one frame while a call runs: a tick, then View.
func benchView(b *testing.B, n int) {
	p, at := benchPanel(b, n)
	p.View()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p.Tick(at.Add(time.Duration(i) * spinnerStep))
		p.View()
	}
}

func BenchmarkPanelView10(b *testing.B)   { benchView(b, 10) }
func BenchmarkPanelView1000(b *testing.B) { benchView(b, 1000) }

// BenchmarkPanelObserve measures taking in one whole call (nine stage
// events), the other cost the root pays as events arrive.
func BenchmarkPanelObserve(b *testing.B) {
	p := New()
	at := t0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		at = feed(p, fmt.Sprintf("c%d", i), "Read", at, cat(front("Read"), back(ms(1)))...)
	}
}
