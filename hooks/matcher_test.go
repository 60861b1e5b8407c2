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

func TestMatcherIsIgnoredForEventsWithoutOne(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	r.On(Stop, "Bash(", "h", func(context.Context, Input) Outcome { return Outcome{} })
	if n := len(r.Run(context.Background(), Input{HookEventName: Stop})); n != 1 {
		t.Errorf("Stop ran %d hooks", n)
	}
}

// The events Claude Code's reference gives a matcher test it against their
// own subject: SessionStart's source, SessionEnd's reason, Notification's
// type, PreCompact's trigger and the subagent events' agent type.
func TestMatcherTestsEachEventsSubject(t *testing.T) {
	t.Parallel()
	cases := []struct {
		ev      Event
		matcher string
		in      Input
		fires   bool
	}{
		{SessionStart, "startup", Input{Source: "startup"}, true},
		{SessionStart, "startup", Input{Source: "resume"}, false},
		{SessionStart, "resume|compact", Input{Source: "compact"}, true},
		{SessionEnd, "clear", Input{Reason: "clear"}, true},
		{SessionEnd, "clear", Input{Reason: "other"}, false},
		{Notification, "permission_prompt", Input{NotificationType: "permission_prompt"}, true},
		{Notification, "permission_prompt", Input{NotificationType: "idle_prompt"}, false},
		{PreCompact, "auto", Input{Trigger: "manual"}, false},
		{PreCompact, "auto|manual", Input{Trigger: "manual"}, true},
		{PermissionRequest, "Bash", Input{ToolName: "Bash"}, true},
		{PermissionRequest, "Bash", Input{ToolName: "Write"}, false},
		{SubagentStart, "explore", Input{AgentType: "explore"}, true},
		{SubagentStart, "explore", Input{AgentType: "general-purpose"}, false},
		{SubagentStop, "general-.*", Input{AgentType: "general-purpose"}, true},
		{SubagentStop, "explore", Input{AgentType: "general-purpose"}, false},
	}
	for _, c := range cases {
		r := NewRegistry()
		r.On(c.ev, c.matcher, "h", func(context.Context, Input) Outcome { return Outcome{} })
		c.in.HookEventName = c.ev
		if n := len(r.Run(context.Background(), c.in)); (n == 1) != c.fires {
			t.Errorf("%s matcher %q on %+v: fired=%v, want %v", c.ev, c.matcher, c.in, n == 1, c.fires)
		}
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
