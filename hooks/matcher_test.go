package hooks

import (
	"context"
	"strings"
	"testing"
)

func TestMatchers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		matcher, tool string
		fires         bool
	}{
		{"Bash|Write", "Write", true},
		{"Bash|Write", "Bash", true},
		{"Bash|Write", "WriteFile", false},
		{"Bash|Write", "MultiBash", false},
		{"Edit", "Edit", true},
		{"Edit", "MultiEdit", false},
		{"mcp__.*", "mcp__github__create_issue", true},
		{"mcp__.*", "Bash", false},
		{"mcp__.*", "x_mcp__y", false},
		{"mcp__github__.*", "mcp__slack__post", false},
		{"", "Anything", true},
		{"*", "Anything", true},
	}
	for _, c := range cases {
		r := NewRegistry()
		r.On(PreToolUse, c.matcher, "h", func(context.Context, Input) Outcome { return Outcome{} })
		n := len(r.Run(context.Background(), Input{HookEventName: PreToolUse, ToolName: c.tool}))
		if (n == 1) != c.fires {
			t.Errorf("matcher %q on %q: fired=%v, want %v", c.matcher, c.tool, n == 1, c.fires)
		}
	}
}

func TestMatcherIsIgnoredForNonToolEvents(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	r.On(SessionStart, "Bash(", "h", func(context.Context, Input) Outcome { return Outcome{} })
	if n := len(r.Run(context.Background(), Input{HookEventName: SessionStart})); n != 1 {
		t.Errorf("SessionStart ran %d hooks", n)
	}
}

func TestBadRegistrationsAreRefused(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	for _, c := range []struct {
		name, want string
		ev         Event
		matcher    string
		cmd        Command
	}{
		{"bad regex", "bad matcher", PreToolUse, "Bash(", Command{Command: "true"}},
		{"unknown event", "unknown event", "PreTooluse", "", Command{Command: "true"}},
		{"empty command", "empty command", PostToolUse, "", Command{Command: "  "}},
		{"negative timeout", "negative timeout", PostToolUse, "", Command{Command: "true", Timeout: -1}},
	} {
		err := r.AddCommand(c.ev, c.matcher, c.cmd)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to mention %q", c.name, err, c.want)
		}
	}
	if r.Has(PreToolUse) || r.Has(PostToolUse) {
		t.Error("a refused hook was registered")
	}

	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), "bad matcher") {
			t.Errorf("On with a bad matcher: panic = %v", p)
		}
	}()
	r.On(PreToolUse, "(", "h", func(context.Context, Input) Outcome { return Outcome{} })
}
