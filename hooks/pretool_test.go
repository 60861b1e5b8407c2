package hooks

import (
	"context"
	"encoding/json"
	"testing"
)

func update(v string) Func {
	return func(context.Context, Input) Outcome {
		b, _ := json.Marshal(map[string]string{"command": v})
		return Outcome{UpdatedInput: b}
	}
}

func TestUpdatedInputLastOneWins(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	r.On(PreToolUse, "", "first", update("a"))
	mustAdd(t, r, PreToolUse, "Bash", printing(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"b"}}}`))
	r.On(PreToolUse, "", "silent", func(context.Context, Input) Outcome { return Outcome{} })
	v := r.PreToolUse(context.Background(), bashInput("rm"))
	if v.Block || string(v.UpdatedInput) != `{"command":"b"}` || v.UpdatedBy != v.Outcomes[1].Hook {
		t.Errorf("verdict = %+v (updated %s)", v, v.UpdatedInput)
	}
}

func TestBlockDropsRewritesAndStopsTheChain(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	r.On(PreToolUse, "", "rewriter", update("safe"))
	r.On(PreToolUse, "", "guard", func(context.Context, Input) Outcome {
		return Outcome{Block: true, Reason: "not today"}
	})
	later, ran := touching(t)
	mustAdd(t, r, PreToolUse, "", later)

	v := r.PreToolUse(context.Background(), bashInput("rm"))
	if !v.Block || v.Reason != "not today" || v.Hook != "guard" {
		t.Errorf("verdict = %+v", v)
	}
	if v.UpdatedInput != nil || v.UpdatedBy != "" {
		t.Errorf("a blocked call must carry no rewrite: %s by %q", v.UpdatedInput, v.UpdatedBy)
	}
	if exists(ran) || len(v.Outcomes) != 2 {
		t.Errorf("hooks after the block ran (%d outcomes)", len(v.Outcomes))
	}
}

func TestAskKeepsGoingAndALaterHookMayBlock(t *testing.T) {
	t.Parallel()
	ask := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"check with a human"}}`

	r := NewRegistry()
	mustAdd(t, r, PreToolUse, "", printing(t, ask))
	later, ran := touching(t)
	mustAdd(t, r, PreToolUse, "", later)
	v := r.PreToolUse(context.Background(), bashInput("ls"))
	if !v.Ask || v.Block || v.Reason != "check with a human" || !exists(ran) {
		t.Errorf("verdict = %+v, later hook ran: %v", v, exists(ran))
	}

	r = NewRegistry()
	mustAdd(t, r, PreToolUse, "", printing(t, ask))
	mustAdd(t, r, PreToolUse, "", printing(t, `{"decision":"block","reason":"never"}`))
	v = r.PreToolUse(context.Background(), bashInput("ls"))
	if !v.Block || v.Reason != "never" {
		t.Errorf("verdict = %+v", v)
	}
}

func TestAdditionalContextIsJoined(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	mustAdd(t, r, PreToolUse, "", printing(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"one"}}`))
	r.On(PreToolUse, "", "none", func(context.Context, Input) Outcome { return Outcome{} })
	r.On(PreToolUse, "", "two", func(context.Context, Input) Outcome { return Outcome{AdditionalContext: "two"} })
	if v := r.PreToolUse(context.Background(), bashInput("ls")); v.AdditionalContext != "one\ntwo" {
		t.Errorf("context = %q", v.AdditionalContext)
	}
}

func TestObserveSeesEveryHook(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	var seen []string
	r.Observe(func(in Input, o Outcome) { seen = append(seen, string(in.HookEventName)+":"+o.Hook) })
	r.On(PostToolUse, "", "a", func(context.Context, Input) Outcome { return Outcome{} })
	r.On(PostToolUseFailure, "", "b", func(context.Context, Input) Outcome { return Outcome{} })
	r.Post(context.Background(), bashInput("ls"), true)
	if len(seen) != 2 || seen[0] != "PostToolUse:a" || seen[1] != "PostToolUseFailure:b" {
		t.Errorf("observed %v", seen)
	}
}
