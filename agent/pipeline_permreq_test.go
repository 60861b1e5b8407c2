package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

// PermissionRequest hooks run when a call would ask a person, and may
// answer for them: allow runs the call without a dialog, deny refuses it
// with the hook's message, and an allow's updatedInput is re-checked (H2).
// A call the rules allow never reaches them.
func TestPermissionRequestHooksAnswerForThePerson(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, reply, cmd string
		asked            int32
		ran, stages      string
	}{
		{"allow", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`,
			"touch a", 0, "touch a", "permission:ask pre_hook:skipped permission:approved call:start"},
		{"deny", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"ask ops first"}}}`,
			"touch a", 0, "", "permission:ask pre_hook:skipped permission:rejected result:error"},
		{"no answer", ``, "touch a", 1, "touch a", "permission:ask pre_hook:skipped permission:approved call:start"},
		{"allow with a denied rewrite", `{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedInput":{"command":"rm -r src"}}}}`,
			"touch a", 0, "", "recheck:deny"},
		{"allow with a rewrite that asks", `{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedInput":{"command":"touch b"}}}}`,
			"touch a", 1, "touch b", "recheck:ask permission:approved call:start"},
	}
	for _, c := range cases {
		f := newFixture(t)
		f.p.Policy.AddRules(permission.Deny, "test", "Bash(rm:*)")
		reg := hooks.NewRegistry()
		dump := scriptHook(t, reg, hooks.PermissionRequest, "Sh", c.reply)
		f.p.Hooks = reg
		var asked atomic.Int32
		f.p.Approver = countingApprover(&asked, nil)
		res := f.run("Sh", `{"command":"`+c.cmd+`"}`)
		if asked.Load() != c.asked || f.sh.commands() != c.ran || !strings.Contains(f.rec.stages(), c.stages) {
			t.Errorf("%s: asked %d ran %q stages %s (%q)", c.name, asked.Load(), f.sh.commands(), f.rec.stages(), res.Text)
		}
		if c.name == "deny" && !strings.Contains(res.Text, "ask ops first") {
			t.Errorf("deny: the model must get the hook's message: %q", res.Text)
		}
		if in := dumped(t, dump); in == nil || in["hook_event_name"] != "PermissionRequest" || in["tool_name"] != "Sh" {
			t.Errorf("%s: the hook got %v", c.name, in)
		}
	}

	f := newFixture(t)
	f.p.Policy.AddRules(permission.Allow, "test", "Bash(ls:*)")
	reg := hooks.NewRegistry()
	dump := scriptHook(t, reg, hooks.PermissionRequest, "", `{"hookSpecificOutput":{"decision":{"behavior":"deny"}}}`)
	f.p.Hooks = reg
	if res := f.run("Sh", `{"command":"ls"}`); res.IsError || dumped(t, dump) != nil {
		t.Errorf("an allowed call reached the PermissionRequest hook: %q", res.Text)
	}
}

// Notification hooks run when an approval dialog waits for the person,
// with the message and notification_type Claude Code documents. A
// headless run keeps nobody waiting and notifies nobody.
func TestNotificationHooksRunWhenAnApprovalWaits(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	reg := hooks.NewRegistry()
	dump := scriptHook(t, reg, hooks.Notification, "permission_prompt", "")
	f.p.Hooks = reg
	var asked atomic.Int32
	f.p.Approver = countingApprover(&asked, nil)
	f.run("Sh", `{"command":"touch a"}`)
	in := dumped(t, dump)
	if in == nil || in["hook_event_name"] != "Notification" || in["notification_type"] != "permission_prompt" ||
		in["message"] != "Workbench needs your permission to use Sh" || in["permission_mode"] != "default" {
		t.Fatalf("the Notification hook got %v", in)
	}

	f = newFixture(t)
	reg = hooks.NewRegistry()
	dump = scriptHook(t, reg, hooks.Notification, "", "")
	f.p.Hooks = reg
	f.run("Sh", `{"command":"touch a"}`)
	if dumped(t, dump) != nil {
		t.Error("a headless ask notified someone")
	}
}

// A Notification hook's "continue": false ends the run, as that field does
// in every event of Claude Code's reference: the dialog it was told about
// is taken down (the approver's context ends), the call does not run, and
// the run's stop record holds the hook's stopReason.
func TestNotificationContinueFalseWithdrawsTheDialogAndEndsTheRun(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	reg := hooks.NewRegistry()
	scriptHook(t, reg, hooks.Notification, "permission_prompt", `{"continue":false,"stopReason":"nobody is at the desk"}`)
	f.p.Hooks = reg
	withdrawn := make(chan struct{})
	// The person never answers: only the hook's verdict can end the wait.
	f.p.Approver = ApproverFunc(func(ctx context.Context, _ ApprovalRequest) ApprovalReply {
		<-ctx.Done()
		close(withdrawn)
		return ApprovalReply{By: "person", Feedback: "cancelled"}
	})
	ctx, stop := withHookStop(context.Background())
	res := f.p.Run(ctx, Call{ID: "c1", Name: "Sh", Input: json.RawMessage(`{"command":"touch a"}`)})
	select {
	case <-withdrawn:
	default:
		t.Fatal("the dialog was not withdrawn")
	}
	if !res.IsError || !strings.Contains(res.Text, "nobody is at the desk") || f.sh.commands() != "" {
		t.Fatalf("result %q, ran %q", res.Text, f.sh.commands())
	}
	if why, ok := stop.stopped(); !ok || why != "nobody is at the desk" {
		t.Fatalf("the run was not ended: %q %v", why, ok)
	}
	if !strings.Contains(f.rec.stages(), "permission:ask pre_hook:skipped permission:rejected") {
		t.Errorf("stages %s", f.rec.stages())
	}
}

// PostToolUseFailure hooks hear is_interrupt: true for a call the person
// interrupted, and false for one that failed by itself.
func TestPostToolUseFailureSaysWhetherThePersonInterrupted(t *testing.T) {
	t.Parallel()
	wait := tools.Build(tools.Spec{
		Name: "Wait", Description: "wait", Schema: `{"type":"object","properties":{"fail":{"type":"boolean"}}}`,
		Run: func(ctx context.Context, in json.RawMessage, _ *tools.Context) (tools.Result, error) {
			if strings.Contains(string(in), "true") {
				return tools.Error("it failed by itself"), nil
			}
			<-ctx.Done()
			return tools.Error("interrupted"), nil
		},
	})
	for _, interrupted := range []bool{true, false} {
		f := newFixture(t, wait)
		f.p.Policy.AddRules(permission.Allow, "test", "Wait")
		reg := hooks.NewRegistry()
		dump := scriptHook(t, reg, hooks.PostToolUseFailure, "", "")
		f.p.Hooks = reg
		ctx, cancel := context.WithCancel(context.Background())
		input := `{"fail":true}`
		if interrupted {
			input = `{}`
			f.p.Observe = func(ev StageEvent) {
				if ev.Stage == StageCall && ev.Outcome == OutcomeStart {
					cancel()
				}
			}
		}
		f.p.Run(ctx, Call{ID: "c1", Name: "Wait", Input: json.RawMessage(input)})
		cancel()
		if in := dumped(t, dump); in == nil || in["is_interrupt"] != interrupted {
			t.Errorf("interrupted %v: the hook got %v", interrupted, in)
		}
	}
}
