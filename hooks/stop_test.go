package hooks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStopPreventWinsAtOnce(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	mustAdd(t, r, Stop, "", printing(t, `{"decision":"block","reason":"tests are red"}`))
	mustAdd(t, r, Stop, "", printing(t, `{"continue":false,"stopReason":"budget spent"}`))
	later, ran := touching(t)
	mustAdd(t, r, Stop, "", later)

	v := r.Stop(context.Background(), Input{SessionID: "s"})
	if !v.Prevent || v.Message != "budget spent" || exists(ran) {
		t.Errorf("verdict = %+v, later hook ran: %v", v, exists(ran))
	}
}

func TestStopBlockAsksTheModelToContinue(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	seen := filepath.Join(dir, "stdin.json")
	r := NewRegistry()
	mustAdd(t, r, Stop, "", Command{Command: "cat > " + shq(seen) + `; echo '{"decision":"block","reason":"tests are red"}'`})
	mustAdd(t, r, Stop, "", exiting(t, 2, "lint failed"))
	mustAdd(t, r, Stop, "", printing(t, `{"decision":"block","reason":"r","hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"run the migration"}}`))
	mustAdd(t, r, Stop, "", exiting(t, 1, "broken hook"))
	mustAdd(t, r, Stop, "", printing(t, `{"decision":"approve"}`))

	v := r.Stop(context.Background(), Input{SessionID: "s", StopHookActive: true})
	want := []string{"tests are red", "lint failed", "run the migration"}
	if v.Prevent || strings.Join(v.Continue, "|") != strings.Join(want, "|") {
		t.Errorf("verdict = %+v, want Continue %q", v, want)
	}
	if len(v.Outcomes) != 5 || v.Outcomes[3].Err == nil {
		t.Errorf("a failing Stop hook must be reported, not followed: %+v", v.Outcomes)
	}
	raw, _ := os.ReadFile(seen)
	if !strings.Contains(string(raw), `"hook_event_name":"Stop"`) || !strings.Contains(string(raw), `"stop_hook_active":true`) {
		t.Errorf("stop hook stdin = %s", raw)
	}
}

func TestUserPrompt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	r := NewRegistry()
	mustAdd(t, r, UserPromptSubmit, "", printing(t, "today is Tuesday"))
	mustAdd(t, r, UserPromptSubmit, "", exiting(t, 1, "broken"))
	mustAdd(t, r, UserPromptSubmit, "", printing(t, `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"branch main"}}`))
	block, reason, extra := r.UserPrompt(ctx, Input{Prompt: "hi"})
	if block || reason != "" || extra != "today is Tuesday\nbranch main" {
		t.Errorf("UserPrompt = %v %q %q", block, reason, extra)
	}

	r = NewRegistry()
	mustAdd(t, r, UserPromptSubmit, "", printing(t, "some context"))
	mustAdd(t, r, UserPromptSubmit, "", exiting(t, 2, "prompt contains a secret"))
	later, ran := touching(t)
	mustAdd(t, r, UserPromptSubmit, "", later)
	block, reason, extra = r.UserPrompt(ctx, Input{Prompt: "AKIA..."})
	if !block || reason != "prompt contains a secret" || extra != "" || exists(ran) {
		t.Errorf("UserPrompt = %v %q %q, later hook ran: %v", block, reason, extra, exists(ran))
	}
}
