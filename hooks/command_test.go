package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCommandHookReceivesEventOnStdin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	got := filepath.Join(dir, "stdin.json")
	r := NewRegistry()
	mustAdd(t, r, PreToolUse, "", Command{Command: "cat > " + shq(got)})

	in := Input{
		SessionID: "sess-42", TranscriptPath: "/tmp/t.jsonl", Cwd: dir,
		ToolName: "Write", ToolInput: json.RawMessage(`{"file_path":"a.txt","content":"hi"}`),
		ToolUseID: "toolu_9",
	}
	if v := r.PreToolUse(context.Background(), in); v.Block {
		t.Fatalf("blocked: %s", v.Reason)
	}
	raw, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("stdin is not JSON: %v\n%s", err, raw)
	}
	want := map[string]any{
		"session_id": "sess-42", "transcript_path": "/tmp/t.jsonl", "cwd": dir,
		"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_use_id": "toolu_9",
		"tool_input": map[string]any{"file_path": "a.txt", "content": "hi"},
	}
	for k, w := range want {
		if gb, _ := json.Marshal(m[k]); string(gb) != mustJSON(w) {
			t.Errorf("%s = %s, want %s", k, gb, mustJSON(w))
		}
	}
	for _, k := range []string{"prompt", "tool_response", "is_error", "stop_hook_active", "is_interrupt", "source", "reason", "agent_type"} {
		if _, ok := m[k]; ok {
			t.Errorf("%s should be left out of a PreToolUse input: %s", k, raw)
		}
	}
}

// PostToolUseFailure's is_interrupt is in its input whether true or
// false, as Claude Code's reference shows it, and in no other event's.
func TestPostToolUseFailureAlwaysCarriesIsInterrupt(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   Input
		want string
	}{
		{Input{HookEventName: PostToolUseFailure}, `"is_interrupt":false`},
		{Input{HookEventName: PostToolUseFailure, IsInterrupt: true}, `"is_interrupt":true`},
		{Input{HookEventName: PostToolUse, IsInterrupt: true}, ""},
	} {
		raw, err := json.Marshal(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if has := strings.Contains(string(raw), "is_interrupt"); has != (c.want != "") || !strings.Contains(string(raw), c.want) {
			t.Errorf("%s: %s", c.in.HookEventName, raw)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestCommandHookRunsInProjectDirWithItsVariables(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	out := filepath.Join(t.TempDir(), "env")
	r := NewRegistry()
	mustAdd(t, r, SessionStart, "", Command{Command: `printf '%s\n%s\n%s\n' "$(pwd -P)" "$WORKBENCH_PROJECT_DIR" "$CLAUDE_PROJECT_DIR" > ` + shq(out)})

	for _, o := range r.Run(context.Background(), Input{HookEventName: SessionStart, Cwd: project, Source: "startup"}) {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(project)
	want := real + "\n" + project + "\n" + project + "\n"
	if string(raw) != want {
		t.Errorf("pwd and project variables:\n%q\nwant\n%q", raw, want)
	}
}

func TestCommandDirOverridesCwd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := NewRegistry()
	mustAdd(t, r, SessionEnd, "", Command{Command: "touch here", Dir: dir})
	r.Run(context.Background(), Input{HookEventName: SessionEnd, Cwd: t.TempDir()})
	if !exists(filepath.Join(dir, "here")) {
		t.Error("the hook did not run in Command.Dir")
	}
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("exit 2 blocks a tool call with stderr as the reason", func(t *testing.T) {
		t.Parallel()
		r := NewRegistry()
		mustAdd(t, r, PreToolUse, "", exiting(t, 2, "  rm -rf is not allowed here  "))
		v := r.PreToolUse(ctx, bashInput("rm -rf /"))
		if !v.Block || v.Reason != "rm -rf is not allowed here" {
			t.Errorf("verdict = %+v", v)
		}
	})
	t.Run("exit 1 after a tool call is an error, not a block", func(t *testing.T) {
		t.Parallel()
		r := NewRegistry()
		mustAdd(t, r, PostToolUse, "", exiting(t, 1, "formatter crashed"))
		out := r.Post(ctx, bashInput("ls"), false)
		if len(out) != 1 || out[0].Block {
			t.Fatalf("outcomes = %+v", out)
		}
		var exit *ExitError
		if !errors.As(out[0].Err, &exit) || exit.Code != 1 || exit.Stderr != "formatter crashed" {
			t.Errorf("err = %v, want an ExitError with code 1 and the stderr", out[0].Err)
		}
	})
	t.Run("exit 1 before a tool call fails closed", func(t *testing.T) {
		t.Parallel()
		r := NewRegistry()
		c := exiting(t, 1, "policy server unreachable")
		mustAdd(t, r, PreToolUse, "", c)
		v := r.PreToolUse(ctx, bashInput("ls"))
		if !v.Block || v.Hook != c.Command {
			t.Fatalf("verdict = %+v, want a block by the failing hook", v)
		}
		for _, want := range []string{c.Command, "failed", "exit status 1", "policy server unreachable"} {
			if !strings.Contains(v.Reason, want) {
				t.Errorf("reason %q does not mention %q", v.Reason, want)
			}
		}
	})
	t.Run("exit 0 with no output lets the call through", func(t *testing.T) {
		t.Parallel()
		r := NewRegistry()
		mustAdd(t, r, PreToolUse, "", Command{Command: "true"})
		if v := r.PreToolUse(ctx, bashInput("ls")); v.Block || v.Ask {
			t.Errorf("verdict = %+v", v)
		}
	})
}

func TestJSONVerdicts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, out  string
		block, ask bool
		prevent    bool
		reason     string
	}{
		{name: "decision block blocks with its reason", out: `{"decision":"block","reason":"no writes to prod"}`, block: true, reason: "no writes to prod"},
		{name: "decision approve continues", out: `{"decision":"approve"}`},
		{name: "permissionDecision deny blocks", out: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"outside the repo"}}`, block: true, reason: "outside the repo"},
		{name: "permissionDecision ask asks", out: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"touches CI"}}`, ask: true, reason: "touches CI"},
		{name: "permissionDecision allow neither blocks nor asks", out: `{"hookSpecificOutput":{"permissionDecision":"allow"}}`},
		{name: "continue false stops the run and the call", out: `{"continue":false,"stopReason":"budget spent"}`, block: true, prevent: true, reason: "budget spent"},
		{name: "plain text is ignored for tool events", out: "checked 3 files"},
		{name: "surrounding whitespace is fine", out: "\n  {\"decision\":\"approve\"}\n"},
		{name: "an unknown decision fails closed", out: `{"decision":"maybe"}`, block: true, reason: "invalid JSON"},
		{name: "an unknown permissionDecision fails closed", out: `{"hookSpecificOutput":{"permissionDecision":"yes"}}`, block: true, reason: "invalid JSON"},
		{name: "output for another event fails closed", out: `{"hookSpecificOutput":{"hookEventName":"PostToolUse"}}`, block: true, reason: "invalid JSON"},
		{name: "a non-object updatedInput fails closed", out: `{"hookSpecificOutput":{"updatedInput":"rm"}}`, block: true, reason: "updatedInput"},
		{name: "a wrong type fails closed", out: `{"continue":"no"}`, block: true, reason: "invalid JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := NewRegistry()
			mustAdd(t, r, PreToolUse, "", printing(t, c.out))
			v := r.PreToolUse(context.Background(), bashInput("ls"))
			if v.Block != c.block || v.Ask != c.ask || v.Prevent != c.prevent {
				t.Fatalf("verdict = %+v", v)
			}
			if !strings.Contains(v.Reason, c.reason) {
				t.Errorf("reason = %q, want it to contain %q", v.Reason, c.reason)
			}
		})
	}
}

func TestPlainStdoutIsContextForPromptAndStart(t *testing.T) {
	t.Parallel()
	for _, ev := range []Event{UserPromptSubmit, SessionStart} {
		r := NewRegistry()
		mustAdd(t, r, ev, "", printing(t, "branch: main\n"))
		if got := r.Context(context.Background(), Input{HookEventName: ev}); got != "branch: main" {
			t.Errorf("%s context = %q", ev, got)
		}
	}
}

func TestHugeOutputIsCappedWithoutBlocking(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	r := NewRegistry()
	mustAdd(t, r, SessionStart, "", Command{Command: "head -c 4000000 /dev/zero | tr '\\0' x; head -c 4000000 /dev/zero >&2"})
	got := r.Context(ctx, Input{HookEventName: SessionStart})
	if len(got) != outputCap {
		t.Errorf("kept %d bytes of plain output, want the cap %d", len(got), outputCap)
	}

	r = NewRegistry()
	mustAdd(t, r, PreToolUse, "", Command{Command: `printf '{"reason":"'; head -c 4000000 /dev/zero | tr '\0' x; printf '"}'`})
	v := r.PreToolUse(ctx, bashInput("ls"))
	if !v.Block || !errors.Is(v.Outcomes[0].Err, ErrInvalidOutput) {
		t.Errorf("a JSON verdict past the cap must fail closed: %+v", v.Outcomes[0])
	}
}

func TestHookThatIgnoresHugeStdinDoesNotHang(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	mustAdd(t, r, PreToolUse, "", Command{Command: "exit 0"})
	in := bashInput(strings.Repeat("y", 4<<20))
	start := time.Now()
	if v := r.PreToolUse(context.Background(), in); v.Block {
		t.Fatalf("blocked: %s", v.Reason)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %s", d)
	}
}

func TestCancelledContextEndsTheHook(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	mustAdd(t, r, PreToolUse, "", Command{Command: "sleep 30"})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	v := r.PreToolUse(ctx, bashInput("ls"))
	if time.Since(start) > 20*time.Second {
		t.Fatal("cancel did not end the hook")
	}
	if !v.Block || !errors.Is(v.Outcomes[0].Err, context.Canceled) {
		t.Errorf("verdict = %+v, outcome err = %v", v, v.Outcomes[0].Err)
	}

	// Later hooks are not started once the context is done.
	out := r.Run(ctx, bashInput("ls"))
	if len(out) != 0 {
		t.Fatalf("Run without an event name ran %d hooks", len(out))
	}
	in := bashInput("ls")
	in.HookEventName = PreToolUse
	out = r.Run(ctx, in)
	if len(out) != 1 || !errors.Is(out[0].Err, context.Canceled) || out[0].Duration > time.Second {
		t.Errorf("outcomes after cancel = %+v", out)
	}
}

func TestMissingDirIsAnError(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	mustAdd(t, r, PostToolUse, "", Command{Command: "true", Dir: filepath.Join(t.TempDir(), "gone")})
	out := r.Post(context.Background(), bashInput("ls"), false)
	if len(out) != 1 || out[0].Err == nil {
		t.Errorf("outcomes = %+v", out)
	}
}
