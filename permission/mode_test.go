package permission

import (
	"encoding/json"
	"testing"
)

func TestModes(t *testing.T) {
	t.Parallel()
	mutating := Request{Tool: "Bash", Target: Target{Commands: []string{"make"}}}
	readOnly := Request{Tool: "Grep", ReadOnly: true}
	with := func(r Request, m Mode) Request { r.Mode = m; return r }
	tests := []struct {
		name  string
		rules rules
		req   Request
		want  Behavior
		rule  string
	}{
		{"plan mode denies a mutating tool", rules{}, with(mutating, ModePlan), Deny, "mode:plan"},
		{"plan mode denies even an allowed mutating tool", rules{allow: []string{"Bash"}}, with(mutating, ModePlan), Deny, "mode:plan"},
		{"plan mode allows a read-only tool", rules{}, with(readOnly, ModePlan), Allow, "mode:plan"},
		{"bypass mode allows what no rule stops", rules{}, with(mutating, ModeBypass), Allow, "mode:bypassPermissions"},
		{"default mode asks", rules{}, with(mutating, ModeDefault), Ask, "mode:default"},
		{"an empty mode is default", rules{}, mutating, Ask, "mode:default"},
		{"default mode allows a read-only tool", rules{}, readOnly, Allow, "read-only"},
		{"acceptEdits does not allow a shell command", rules{}, with(mutating, ModeAcceptEdits), Ask, "mode:acceptEdits"},
		{"dontAsk turns an ask into a deny", rules{}, with(mutating, ModeDontAsk), Deny, "mode:dontAsk"},
		{"auto turns an ask into a deny", rules{}, with(mutating, ModeAuto), Deny, "mode:auto"},
		{"dontAsk still allows what rules allow", rules{allow: []string{"Bash(make)"}}, with(mutating, ModeDontAsk), Allow, "Bash(make)"},
		{"dontAsk turns an ask rule into a deny", rules{ask: []string{"Bash(make)"}, allow: []string{"Bash"}}, with(mutating, ModeDontAsk), Deny, "mode:dontAsk"},
		{"a tool's own deny is absolute", rules{allow: []string{"*"}},
			Request{Tool: "Edit", Mode: ModeBypass, Own: Denied("file was not read first")}, Deny, "tool"},
		{"a tool's own ask is shown", rules{}, Request{Tool: "web_search", Own: AskUser("search the web for x?")}, Ask, "tool"},
		{"a read-only tool beats its own ask", rules{}, Request{Tool: "web_search", ReadOnly: true, Own: AskUser("search?")}, Allow, "read-only"},
		{"an unknown tool with no target asks", rules{}, Request{Tool: "Frob"}, Ask, "mode:default"},
		{"an unknown mode is the default", rules{}, with(mutating, Mode("bypass")), Ask, "mode:default"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newPolicy(t, []string{t.TempDir()}, tc.rules)
			check(t, p.Evaluate(tc.req), tc.want, tc.rule)
		})
	}
}

func TestPlanModeExplainsItself(t *testing.T) {
	t.Parallel()
	p := newPolicy(t, []string{t.TempDir()}, rules{})
	d := p.Evaluate(Request{Tool: "Write", Mode: ModePlan})
	mustContain(t, d.Message, "plan mode allows read-only tools only")
}

func TestDontAskNamesWhatAsked(t *testing.T) {
	t.Parallel()
	p := newPolicy(t, []string{t.TempDir()}, rules{ask: []string{"Bash(git push:*)"}})
	d := p.Evaluate(Request{Tool: "Bash", Mode: ModeDontAsk, Target: Target{Commands: []string{"git push"}}})
	check(t, d, Deny, "mode:dontAsk")
	mustContain(t, d.Message, "Bash(git push:*)", "dontAsk", "never asks")

	d = p.Evaluate(Request{Tool: "Bash", Mode: ModeAuto, Target: Target{Commands: []string{"touch a"}}})
	check(t, d, Deny, "mode:auto")
	mustContain(t, d.Message, "no rule allows Bash `touch a`", "auto mode never asks", "Bash(touch:*)")

	if d.Suggestion != "Bash(touch:*)" {
		t.Fatalf("Suggestion = %q, want Bash(touch:*)", d.Suggestion)
	}

	d = p.Evaluate(Request{Tool: "Edit", Mode: ModeDontAsk, Target: Target{Paths: []string{"/elsewhere/x"}, Access: AccessWrite}})
	check(t, d, Deny, "mode:dontAsk")
	mustContain(t, d.Message, "workspace asked", "outside the workspace", "Edit(//elsewhere/x)")
}

func TestDefaultAskCarriesASuggestion(t *testing.T) {
	t.Parallel()
	p := newPolicy(t, []string{t.TempDir()}, rules{})
	d := p.Evaluate(Request{Tool: "Bash", Target: Target{Commands: []string{"git status -s"}}})
	check(t, d, Ask, "mode:default")
	if d.Message != "approve Bash?" || d.Suggestion != "Bash(git status:*)" {
		t.Fatalf("got message %q suggestion %q", d.Message, d.Suggestion)
	}
	if err := p.Grant(d.Suggestion); err != nil {
		t.Fatal(err)
	}
	d = p.Evaluate(Request{Tool: "Bash", Target: Target{Commands: []string{"git status"}}})
	check(t, d, Allow, "Bash(git status:*)")
}

func TestOwnAllowKeepsUpdatedInput(t *testing.T) {
	t.Parallel()
	p := newPolicy(t, []string{t.TempDir()}, rules{})
	own := Decision{Behavior: Allow, UpdatedInput: json.RawMessage(`{"x":1}`), Message: "fine"}
	d := p.Evaluate(Request{Tool: "Custom", Own: own})
	if d.Behavior != Allow || string(d.UpdatedInput) != `{"x":1}` || d.Rule != "tool" {
		t.Fatalf("got %+v, want the tool's own allow with its input", d)
	}
}

func TestOwnAllowDoesNotBeatRules(t *testing.T) {
	t.Parallel()
	p := newPolicy(t, []string{t.TempDir()}, rules{ask: []string{"Custom"}})
	check(t, p.Evaluate(Request{Tool: "Custom", Own: Allowed()}), Ask, "Custom")
}
