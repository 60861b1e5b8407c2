package hooks

import (
	"context"
	"strings"
	"testing"
)

func TestBeginJoinsContextAndStopsAtContinueFalse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := NewRegistry()
	mustAdd(t, r, SessionStart, "", printing(t, "branch main"))
	mustAdd(t, r, SessionStart, "", exiting(t, 1, "broken"))
	mustAdd(t, r, SessionStart, "", printing(t, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"ticket 42"}}`))
	v := r.Begin(ctx, Input{HookEventName: SessionStart, Source: "startup"})
	if v.Prevent || v.Context != "branch main\nticket 42" {
		t.Errorf("Begin = %+v", v)
	}

	r = NewRegistry()
	mustAdd(t, r, SubagentStart, "", printing(t, `{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"lost"}}`))
	mustAdd(t, r, SubagentStart, "", printing(t, `{"continue":false,"stopReason":"no subagents today"}`))
	later, ran := touching(t)
	mustAdd(t, r, SubagentStart, "", later)
	v = r.Begin(ctx, Input{HookEventName: SubagentStart})
	if !v.Prevent || v.StopReason != "no subagents today" || v.Context != "" || exists(ran) {
		t.Errorf("Begin = %+v, later hook ran: %v", v, exists(ran))
	}
}

func TestUserPromptContinueFalseShowsItsStopReason(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	mustAdd(t, r, UserPromptSubmit, "", printing(t, `{"decision":"block","reason":"for the model","continue":false,"stopReason":"for the person"}`))
	block, reason, _ := r.UserPrompt(context.Background(), Input{Prompt: "hi"})
	if !block || reason != "for the person" {
		t.Errorf("UserPrompt = %v %q", block, reason)
	}
}

func TestOutcomeKeepsTheHooksStdout(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	mustAdd(t, r, PostToolUse, "", printing(t, "  formatted 2 files\n"))
	mustAdd(t, r, PostToolUse, "", printing(t, `{"suppressOutput":true,"systemMessage":"slow linter"}`))
	mustAdd(t, r, PostToolUse, "", printing(t, strings.Repeat("x", StdoutRecorded+100)))
	outs := r.Run(context.Background(), Input{HookEventName: PostToolUse, ToolName: "Read"})
	if len(outs) != 3 || outs[0].Stdout != "formatted 2 files" {
		t.Fatalf("outcomes %+v", outs)
	}
	if !outs[1].SuppressOutput || outs[1].SystemMessage != "slow linter" {
		t.Errorf("output fields %+v", outs[1])
	}
	if n := len(outs[2].Stdout); n > StdoutRecorded+len("…") {
		t.Errorf("kept %d bytes of stdout", n)
	}
}
