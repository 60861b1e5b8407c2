package pipeline

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

// TestRealPipelineEvents drives the real agent.Pipeline and shows its
// events, so the panel is checked against what the pipeline emits rather
// than against this package's idea of it.
func TestRealPipelineEvents(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sh := tools.Build(tools.Spec{
		Name: "Sh", Description: "run a command",
		Schema: `{"type":"object","properties":{"command":{"type":"string","minLength":1}},"required":["command"],"additionalProperties":false}`,
		Target: func(in json.RawMessage, _ *tools.Context) permission.Target {
			var v struct{ Command string }
			json.Unmarshal(in, &v)
			return permission.Target{Commands: []string{v.Command}}
		},
		Run: func(_ context.Context, in json.RawMessage, _ *tools.Context) (tools.Result, error) {
			return tools.Text(strings.Repeat("x", 5000)), nil
		},
	})
	var mu sync.Mutex
	var events []agent.StageEvent
	pl := &agent.Pipeline{
		Tools: tools.NewRegistry(sh), Policy: permission.NewPolicy([]string{dir}),
		WorkDir: dir, SessionID: "test", SpillDir: filepath.Join(dir, ".spill"), MaxOutput: 100,
		Observe: func(ev agent.StageEvent) {
			mu.Lock()
			events = append(events, ev)
			mu.Unlock()
		},
		Approver: agent.ApproverFunc(func(_ context.Context, req agent.ApprovalRequest) agent.ApprovalReply {
			return agent.ApprovalReply{Approved: true, Grant: req.Decision.Suggestion, By: "person"}
		}),
	}
	in := json.RawMessage(`{"command":"touch a"}`)
	res := pl.Run(context.Background(), agent.Call{ID: "c1", Name: "Sh", Input: in})

	p := New()
	p.ToolUse("c1", "Sh", in)
	for _, ev := range events {
		p.Observe(ev)
	}
	p.SetResult("c1", res.Text, res.IsError)
	p.SetSize(70, 8)
	out := plain(p.View())
	for _, want := range []string{"✓ Sh touch a", "permission ask (tool)", "pre_hook", "permission approved (Bash(touch:*))", "capture spilled 4.9 KiB", "result ✓"} {
		if !strings.Contains(out, want) {
			t.Errorf("view lacks %q:\n%s", want, out)
		}
	}
	if p.Running() {
		t.Error("a finished real call still counts as running")
	}
	p.SelectPrev()
	detail := plain(p.Detail(200, 0))
	for _, want := range []string{res.Spill.Path, res.Spill.SHA256, "approved by person", `"command": "touch a"`} {
		if !strings.Contains(detail, want) {
			t.Errorf("detail lacks %q:\n%s", want, detail)
		}
	}
}
