package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/permission"
)

// scriptHook registers testdata/hook.sh (from the hooks package) as a
// command hook for ev: it saves the event it gets to the returned dump
// file and prints reply.
func scriptHook(t *testing.T, reg *hooks.Registry, ev hooks.Event, matcher, reply string) string {
	t.Helper()
	dir := t.TempDir()
	dump, out := filepath.Join(dir, "stdin.json"), filepath.Join(dir, "reply")
	if err := os.WriteFile(out, []byte(reply), 0o600); err != nil {
		t.Fatal(err)
	}
	sh, err := filepath.Abs("../hooks/testdata/hook.sh")
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.AddCommand(ev, matcher, hooks.Command{Command: sh + " " + dump + " " + out}); err != nil {
		t.Fatal(err)
	}
	return dump
}

// dumped reads what a script hook received, or nil when it did not run.
func dumped(t *testing.T, dump string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(dump)
	if err != nil {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: %v: %s", dump, err, raw)
	}
	return m
}

// countingApprover approves and counts the dialogs a person would see.
func countingApprover(n *atomic.Int32, seen func()) Approver {
	return ApproverFunc(func(context.Context, ApprovalRequest) ApprovalReply {
		n.Add(1)
		if seen != nil {
			seen()
		}
		return ApprovalReply{Approved: true, By: "person"}
	})
}

const (
	hookAllow   = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"guard knows touch"}}`
	hookApprove = `{"decision":"approve","reason":"old style"}`
	hookAsk     = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"look at this"}}`
	hookDeny    = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not on fridays"}}`
)

// A PreToolUse hook's allow (and the older "approve") answers the ask the
// mode would have shown: no dialog, and the stages say the hook decided.
func TestPreToolUseAllowAnswersAnAsk(t *testing.T) {
	t.Parallel()
	for _, reply := range []string{hookAllow, hookApprove} {
		f := newFixture(t)
		reg := hooks.NewRegistry()
		dump := scriptHook(t, reg, hooks.PreToolUse, "Sh", reply)
		f.p.Hooks = reg
		var asked atomic.Int32
		f.p.Approver = countingApprover(&asked, nil)
		res := f.run("Sh", `{"command":"touch a"}`)
		if res.IsError || f.sh.commands() != "touch a" || asked.Load() != 0 {
			t.Fatalf("%s: res %q ran %q asked %d", reply, res.Text, f.sh.commands(), asked.Load())
		}
		if got := f.rec.stages(); !strings.HasPrefix(got, "lookup:ok schema:ok permission:ask pre_hook:allow permission:approved call:start") {
			t.Errorf("%s: stages %s", reply, got)
		}
		var ev StageEvent
		for _, e := range f.rec.evs {
			if e.Outcome == OutcomeApproved {
				ev = e
			}
		}
		if !strings.HasPrefix(ev.Rule, "hook:") || !strings.Contains(ev.Detail, "PreToolUse hook") {
			t.Errorf("%s: the approval must name the hook: %+v", reply, ev)
		}
		if dumped(t, dump)["permission_mode"] != "default" {
			t.Errorf("the hook input lacks permission_mode: %v", dumped(t, dump))
		}
	}
}

// Deny rules and hard deny are decided before any hook runs: a hook's
// allow never reaches them, and the hook is not even asked.
func TestPreToolUseAllowNeverOverrulesADeny(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"rm -r src", "rm -rf /", "rm -rf ~"} {
		f := newFixture(t)
		f.p.Policy.AddRules(permission.Deny, "test", "Bash(rm:*)")
		reg := hooks.NewRegistry()
		dump := scriptHook(t, reg, hooks.PreToolUse, "", hookAllow)
		f.p.Hooks = reg
		f.p.Mode = func() permission.Mode { return permission.ModeBypass }
		res := f.run("Sh", `{"command":"`+cmd+`"}`)
		if !res.IsError || f.sh.commands() != "" {
			t.Fatalf("%s ran: %q", cmd, res.Text)
		}
		if dumped(t, dump) != nil {
			t.Errorf("%s: the hook ran after a deny", cmd)
		}
	}
}

// An ask a person wrote (an ask rule), a protected file and a target known
// only at run time still show the dialog after a hook's allow.
func TestPreToolUseAllowDoesNotAnswerAsksThatMustReachAPerson(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, cmd, rule string }{
		{"ask rule", "touch a", "Bash(touch:*)"},
		{"protected file", "echo x > .workbench/settings.local.json", ""},
		{"run-time target", `f=$(mktemp); echo x > "$f"`, ""},
	}
	for _, c := range cases {
		f := newFixture(t)
		if c.rule != "" {
			f.p.Policy.AddRules(permission.Ask, "test", c.rule)
		}
		f.p.Policy.AddProtected(filepath.Join(f.p.WorkDir, ".workbench", "settings.local.json"))
		reg := hooks.NewRegistry()
		scriptHook(t, reg, hooks.PreToolUse, "", hookAllow)
		f.p.Hooks = reg
		var asked atomic.Int32
		f.p.Approver = countingApprover(&asked, nil)
		f.run("Sh", `{"command":`+mustQuote(c.cmd)+`}`)
		if asked.Load() != 1 {
			t.Errorf("%s: asked %d times, want the dialog once; stages %s", c.name, asked.Load(), f.rec.stages())
		}
	}
}

func mustQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// A hook's ask forces the dialog even where the rules allow the call; its
// deny blocks with the reason.
func TestPreToolUseAskForcesTheDialogAndDenyBlocks(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.p.Policy.AddRules(permission.Allow, "test", "Bash(ls:*)")
	reg := hooks.NewRegistry()
	scriptHook(t, reg, hooks.PreToolUse, "", hookAsk)
	f.p.Hooks = reg
	var asked atomic.Int32
	f.p.Approver = countingApprover(&asked, nil)
	if res := f.run("Sh", `{"command":"ls"}`); res.IsError || asked.Load() != 1 {
		t.Fatalf("res %q asked %d", res.Text, asked.Load())
	}

	f = newFixture(t)
	f.p.Policy.AddRules(permission.Allow, "test", "Bash(ls:*)")
	reg = hooks.NewRegistry()
	scriptHook(t, reg, hooks.PreToolUse, "", hookDeny)
	f.p.Hooks = reg
	res := f.run("Sh", `{"command":"ls"}`)
	if !res.IsError || !strings.Contains(res.Text, "not on fridays") || f.sh.commands() != "" {
		t.Fatalf("res %q ran %q", res.Text, f.sh.commands())
	}
}

// The approval dialog comes after the PreToolUse hooks, so the person
// approves what will run, and the stages show that order.
func TestApprovalComesAfterThePreToolUseHooks(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	reg := hooks.NewRegistry()
	dump := scriptHook(t, reg, hooks.PreToolUse, "", "")
	f.p.Hooks = reg
	var asked atomic.Int32
	ranFirst := false
	f.p.Approver = countingApprover(&asked, func() { ranFirst = dumped(t, dump) != nil })
	f.run("Sh", `{"command":"touch a"}`)
	if !ranFirst || asked.Load() != 1 {
		t.Fatalf("the hook had run before the dialog: %v; asked %d", ranFirst, asked.Load())
	}
	if got := f.rec.stages(); !strings.HasPrefix(got, "lookup:ok schema:ok permission:ask pre_hook:ok permission:approved call:start") {
		t.Errorf("stages %s", got)
	}
}

// A hook that allows and rewrites the input gets the rewrite re-checked
// (H2): a rewrite to a denied command is denied.
func TestH02_HookAllowWithRewriteIsRechecked(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.p.Policy.AddRules(permission.Deny, "test", "Bash(rm:*)")
	reg := hooks.NewRegistry()
	scriptHook(t, reg, hooks.PreToolUse, "", `{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"rm -r src"}}}`)
	f.p.Hooks = reg
	res := f.run("Sh", `{"command":"touch a"}`)
	if !res.IsError || f.sh.commands() != "" || !strings.Contains(f.rec.stages(), "recheck:deny") {
		t.Fatalf("res %q ran %q stages %s", res.Text, f.sh.commands(), f.rec.stages())
	}
}
