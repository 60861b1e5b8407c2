package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hookScript returns a command running testdata/hook.sh, which saves its
// stdin to the returned dump file and prints reply byte for byte.
func hookScript(t *testing.T, reply string, exit string) (Command, string) {
	t.Helper()
	dir := t.TempDir()
	dump, out := filepath.Join(dir, "stdin.json"), filepath.Join(dir, "reply")
	if err := os.WriteFile(out, []byte(reply), 0o600); err != nil {
		t.Fatal(err)
	}
	sh, err := filepath.Abs("testdata/hook.sh")
	if err != nil {
		t.Fatal(err)
	}
	return Command{Command: shq(sh) + " " + shq(dump) + " " + shq(out) + " " + exit}, dump
}

// preVerdict runs one PreToolUse command hook printing reply.
func preVerdict(t *testing.T, reply string) PreVerdict {
	t.Helper()
	c, dump := hookScript(t, reply, "0")
	r := NewRegistry()
	mustAdd(t, r, PreToolUse, "Bash", c)
	v := r.PreToolUse(context.Background(), bashInput("rm -rf build"))
	if _, err := os.Stat(dump); err != nil {
		t.Fatalf("the hook did not run: %v", err)
	}
	return v
}

// A log line printed before the verdict used to turn a block into plain
// text, and the call ran. Now the output is read as the attempt at JSON it
// is: not one valid object, so the call is blocked and the reason quotes
// what the hook printed.
func TestH15_HookOutputLogLineBeforeVerdictBlocks(t *testing.T) {
	t.Parallel()
	for _, reply := range []string{
		"checking command...\n{\"decision\":\"block\",\"reason\":\"no rm\"}\n",
		"checking command...\n{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\"}}",
		"[guard] starting\n{\n  \"decision\": \"block\"\n}\n",
		"debug: ok\n  {\"decision\":\"approve\"}  \n",
	} {
		v := preVerdict(t, reply)
		if !v.Block || !errors.Is(v.Outcomes[0].Err, ErrInvalidOutput) {
			t.Errorf("output %q: block=%v err=%v, want a block for invalid output", reply, v.Block, v.Outcomes[0].Err)
			continue
		}
		if !strings.Contains(v.Reason, "checking command") && !strings.Contains(v.Reason, "[guard]") && !strings.Contains(v.Reason, "debug: ok") {
			t.Errorf("output %q: the reason must quote what the hook printed: %s", reply, v.Reason)
		}
	}
}

// A UTF-8 byte order mark in front of the verdict is stripped: the verdict
// is read as written, a block stays a block.
func TestH15_HookOutputBOMIsStrippedAndTheVerdictRead(t *testing.T) {
	t.Parallel()
	v := preVerdict(t, "\uFEFF{\"decision\":\"block\",\"reason\":\"protected file\"}\n")
	if !v.Block || v.Reason != "protected file" || v.Outcomes[0].Err != nil {
		t.Fatalf("verdict %+v", v)
	}
	v = preVerdict(t, "\uFEFF\n  {\"hookSpecificOutput\":{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"bom deny\"}}")
	if !v.Block || v.Reason != "bom deny" {
		t.Fatalf("verdict %+v", v)
	}
}

// JSON that is not an object is no verdict: it blocks, quoting what came.
func TestH15_HookOutputThatIsNotAnObjectBlocks(t *testing.T) {
	t.Parallel()
	for _, reply := range []string{`["deny"]`, "[\n  \"deny\"\n]", `[{"decision":"block"}]`, "{\"decision\":\"block\"} {\"x\":1}", `{"decision": "block"`, `{"decision": 2}`, `{"decision":"deny"}`} {
		v := preVerdict(t, reply)
		if !v.Block || !errors.Is(v.Outcomes[0].Err, ErrInvalidOutput) {
			t.Errorf("output %q: block=%v err=%v", reply, v.Block, v.Outcomes[0].Err)
			continue
		}
		if want := strings.SplitN(reply, "\n", 2)[0]; !strings.Contains(v.Reason, strings.ReplaceAll(want, `"`, `\"`)) && !strings.Contains(v.Reason, "decision") {
			t.Errorf("output %q: reason does not quote it: %s", reply, v.Reason)
		}
	}
}

// Plain text on exit 0 is not a verdict: PreToolUse goes on, and the
// events that take context for the model (UserPromptSubmit, SessionStart)
// get it, as Claude Code's reference says.
func TestH15_HookOutputPlainTextStaysContext(t *testing.T) {
	t.Parallel()
	for _, reply := range []string{"lint passed\n", "all good: 3 files [ok]\n", "\uFEFFchecked\n"} {
		if v := preVerdict(t, reply); v.Block || v.Outcomes[0].Err != nil {
			t.Errorf("plain output %q blocked: %+v", reply, v)
		}
		c, _ := hookScript(t, reply, "0")
		r := NewRegistry()
		mustAdd(t, r, UserPromptSubmit, "", c)
		block, _, extra := r.UserPrompt(context.Background(), Input{Prompt: "hi"})
		if block || extra != strings.TrimSpace(strings.TrimPrefix(reply, "\uFEFF")) {
			t.Errorf("plain output %q: block=%v context=%q", reply, block, extra)
		}
	}
}

// The hook gets the event it was written for: the script saved its stdin,
// and the fields Claude Code documents for PreToolUse are there.
func TestHookScriptGetsTheDocumentedPreToolUseFields(t *testing.T) {
	t.Parallel()
	c, dump := hookScript(t, "", "0")
	r := NewRegistry()
	mustAdd(t, r, PreToolUse, "", c)
	in := bashInput("ls")
	in.PermissionMode, in.Cwd = "acceptEdits", t.TempDir()
	r.PreToolUse(context.Background(), in)
	var m map[string]any
	raw, _ := os.ReadFile(dump)
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	if m["permission_mode"] != "acceptEdits" || m["tool_use_id"] != "toolu_1" || m["hook_event_name"] != "PreToolUse" {
		t.Errorf("input %s", raw)
	}
}
