package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

// BenchmarkPipelineNoop measures the pipeline's own cost: a no-op tool
// through every stage with 50 rules and 2 in-process hooks (goal: 10 µs).
// Every stage event is built and handed to an observer, as the transcript
// and the UI receive them; what the observer does with them is measured by
// BenchmarkLoop1000Calls.
func BenchmarkPipelineNoop(b *testing.B) { benchPipeline(b, (*hooks.Registry).On) }

// BenchmarkPipelineNoopIsolatedHooks is the same with both hooks registered
// with OnIsolated: the price of a goroutine hand-off per hook.
func BenchmarkPipelineNoopIsolatedHooks(b *testing.B) { benchPipeline(b, (*hooks.Registry).OnIsolated) }

func benchPipeline(b *testing.B, register func(r *hooks.Registry, ev hooks.Event, matcher, name string, f hooks.Func)) {
	noop := tools.Build(tools.Spec{Name: "Noop", Permission: tools.AllowSelf,
		Schema: `{"type":"object","properties":{"command":{"type":"string"}},"additionalProperties":false}`,
		Target: func(in json.RawMessage, _ *tools.Context) permission.Target {
			return permission.Target{Commands: []string{"git status"}}
		},
		Run: func(context.Context, json.RawMessage, *tools.Context) (tools.Result, error) {
			return tools.Text("ok"), nil
		}})
	dir := b.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		b.Fatal(err) // a project git status runs in (its repository is looked up)
	}
	pol := permission.NewPolicy([]string{dir})
	for i := range 25 {
		pol.AddRules(permission.Deny, "bench", fmt.Sprintf("Bash(forbidden%d:*)", i))
		pol.AddRules(permission.Allow, "bench", fmt.Sprintf("Bash(tool%d:*)", i))
	}
	pol.AddRules(permission.Allow, "bench", "Bash(git status:*)")
	reg := hooks.NewRegistry()
	for _, n := range []string{"a", "b"} {
		register(reg, hooks.PreToolUse, "", n, func(context.Context, hooks.Input) hooks.Outcome { return hooks.Outcome{} })
	}
	var events int
	p := &Pipeline{Tools: tools.NewRegistry(noop), Policy: pol, Hooks: reg, WorkDir: dir,
		Observe: func(StageEvent) { events++ }}
	call := Call{ID: "c", Name: "Noop", Input: json.RawMessage(`{"command":"git status"}`)}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if res := p.Run(ctx, call); res.IsError {
			b.Fatal(res.Text)
		}
	}
	b.ReportMetric(float64(events)/float64(b.N), "events/call")
}

func newBenchPolicy(dir string) *permission.Policy {
	pol := permission.NewPolicy([]string{dir})
	for i := range 25 {
		pol.AddRules(permission.Deny, "bench", fmt.Sprintf("Bash(forbidden%d:*)", i))
		pol.AddRules(permission.Allow, "bench", fmt.Sprintf("Bash(tool%d:*)", i))
	}
	return pol
}
