package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SubagentStop hooks run when a subagent would end its work, with the
// fields Claude Code's reference gives them (agent_id, agent_type,
// agent_transcript_path, last_assistant_message, stop_hook_active), and
// their matcher tests the agent type. A "decision": "block" sends the
// subagent back to work once with the reason; the hooks then hear
// stop_hook_active true.
func TestCompat1_SubagentStopRunsWithItsFieldsAndMatcher(t *testing.T) {
	c := newCLI(t)
	dumps := filepath.Join(c.project, "dumps")
	script := c.write("hooks/substop.sh", `#!/bin/sh
n=$(ls "`+dumps+`" | wc -l | tr -d ' ')
cat > "`+dumps+`/stop-$n.json"
if [ "$n" = 0 ]; then echo '{"decision":"block","reason":"check the tests too"}'; fi
`)
	if err := os.MkdirAll(dumps, 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(c.project, "general-ran")
	c.write(".claude/settings.json", fmt.Sprintf(`{"hooks":{"SubagentStop":[
		{"matcher":"explore","hooks":[{"type":"command","command":"sh %s"}]},
		{"matcher":"general-purpose","hooks":[{"type":"command","command":"touch %s"}]}]}}`, script, other))
	srv := newModelServer(t,
		sseTool("toolu_1", "Agent", `{"description":"look","prompt":"look around","subagent_type":"explore"}`),
		sseText("looked: fine"),
		sseText("tests fine too"),
		sseText("all done"))
	code, out, errb := c.run("", "--cwd", c.project, "--output-format", "json", "-p", "go")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	reqs := srv.requests()
	if len(reqs) != 4 {
		t.Fatalf("%d model requests, want 4\n%s", len(reqs), errb)
	}
	if !strings.Contains(fmt.Sprint(reqs[2]["messages"]), "check the tests too") {
		t.Errorf("the subagent was not sent the hook's reason: %v", reqs[2]["messages"])
	}
	if _, err := os.Stat(other); err == nil {
		t.Error("a SubagentStop hook for general-purpose ran for explore")
	}
	read := func(n int) map[string]any {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dumps, fmt.Sprintf("stop-%d.json", n)))
		if err != nil {
			t.Fatalf("SubagentStop run %d: %v", n, err)
		}
		var in map[string]any
		if err := json.Unmarshal(data, &in); err != nil {
			t.Fatal(err)
		}
		return in
	}
	first, second := read(0), read(1)
	want := map[string]any{"hook_event_name": "SubagentStop", "agent_type": "explore", "agent_id": "toolu_1",
		"stop_hook_active": false, "last_assistant_message": "looked: fine", "permission_mode": "default"}
	for k, v := range want {
		if first[k] != v {
			t.Errorf("%s = %v, want %v (input %v)", k, first[k], v, first)
		}
	}
	if sid, _ := first["session_id"].(string); sid == "" || strings.Contains(sid, "/") {
		t.Errorf("session_id %q is not the person's session", sid)
	}
	if p, _ := first["agent_transcript_path"].(string); p == "" || p != first["transcript_path"] {
		t.Errorf("agent_transcript_path %v", first["agent_transcript_path"])
	}
	if second["stop_hook_active"] != true || second["last_assistant_message"] != "tests fine too" {
		t.Errorf("the second SubagentStop got %v", second)
	}
}
