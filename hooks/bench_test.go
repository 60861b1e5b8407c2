package hooks

import (
	"context"
	"testing"
)

// BenchmarkPreToolUseTwoInProcess is the hooks' share of the pipeline
// benchmark: two in-process PreToolUse hooks that approve at once.
func BenchmarkPreToolUseTwoInProcess(b *testing.B) {
	r := NewRegistry()
	for _, n := range []string{"a", "b"} {
		r.On(PreToolUse, "", n, func(context.Context, Input) Outcome { return Outcome{} })
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := Input{SessionID: "s", ToolName: "Noop", ToolInput: []byte(`{"command":"git status"}`)}
	b.ReportAllocs()
	for b.Loop() {
		if v := r.PreToolUse(ctx, in); v.Block {
			b.Fatal(v.Reason)
		}
	}
}
