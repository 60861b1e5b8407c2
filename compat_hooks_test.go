package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dumped reads what testdata/claude's dump-stdin.sh wrote for an event.
func (u *claudeUser) dumped(event string) map[string]any {
	u.t.Helper()
	data, err := os.ReadFile(filepath.Join(u.project, "hook-"+event+".json"))
	if err != nil {
		u.t.Fatalf("the %s hook of .claude/settings.json did not run: %v", event, err)
	}
	var in map[string]any
	if err := json.Unmarshal(data, &in); err != nil {
		u.t.Fatalf("%s hook input %s: %v", event, data, err)
	}
	return in
}

// The hooks of a Claude Code user's .claude/settings.json, written from
// Claude Code's hooks reference, get the input it documents in a headless
// run started below the project root: the common fields in every event,
// each event's own, and what SessionStart and UserPromptSubmit add reaches
// the model with the prompt. Every event's hooks find the scripts through
// $CLAUDE_PROJECT_DIR, the project root (the session's own events had the
// working directory there, so their scripts were not found).
func TestCompat4_ClaudeProjectHooksGetTheDocumentedInput(t *testing.T) {
	u := newClaudeUser(t)
	srv := newModelServer(t, sseTool("toolu_1", "Bash", `{"command":"echo from-the-hooks-test","description":"say it"}`), sseText("Done."))
	code, out, errb := u.run("", "--cwd", u.sub, "-p", "hello")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	events := map[string]map[string]any{
		"session-start":      {"hook_event_name": "SessionStart", "source": "startup"},
		"user-prompt-submit": {"hook_event_name": "UserPromptSubmit", "prompt": "hello"},
		"pre-tool-use":       {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "toolu_1"},
		"post-tool-use":      {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": "toolu_1"},
		"stop":               {"hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": "Done."},
		"session-end":        {"hook_event_name": "SessionEnd", "reason": "other"},
	}
	var session string
	for ev, want := range events {
		in := u.dumped(ev)
		for k, v := range want {
			if fmt.Sprint(in[k]) != fmt.Sprint(v) {
				t.Errorf("%s: %s = %v, want %v", ev, k, in[k], v)
			}
		}
		// The fields every event carries.
		if in["cwd"] != u.sub || in["permission_mode"] != "default" {
			t.Errorf("%s: cwd %v, permission_mode %v", ev, in["cwd"], in["permission_mode"])
		}
		sid, _ := in["session_id"].(string)
		if session == "" {
			session = sid
		}
		if sid == "" || sid != session {
			t.Errorf("%s: session_id %q, others %q", ev, sid, session)
		}
		if p, _ := in["transcript_path"].(string); !strings.Contains(p, sid) || !strings.HasSuffix(p, ".jsonl") {
			t.Errorf("%s: transcript_path %q", ev, p)
		}
	}
	// tool_input is what the model sent, with Workbench's defaults filled
	// in (the README's table says so).
	if in, _ := u.dumped("pre-tool-use")["tool_input"].(map[string]any); in["command"] != "echo from-the-hooks-test" || in["description"] != "say it" {
		t.Errorf("PreToolUse tool_input %v", in)
	}
	resp, _ := u.dumped("post-tool-use")["tool_response"].(map[string]any)
	if !strings.Contains(fmt.Sprint(resp["stdout"]), "from-the-hooks-test") || resp["stderr"] != "" || resp["interrupted"] != false {
		t.Errorf("Bash's tool_response is not in its own shape: %v", resp)
	}
	first := fmt.Sprint(srv.requests()[0]["messages"])
	for _, m := range []string{"(marker: session-start-context)", "(marker: prompt-context)", "hello"} {
		if !strings.Contains(first, m) {
			t.Errorf("the first request lacks %s: %s", m, first)
		}
	}
}
