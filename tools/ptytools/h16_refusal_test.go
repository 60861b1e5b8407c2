package ptytools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/internal/sandboxtest"
	"github.com/seed92b641c3/workbench/tasks/pty"
	"github.com/seed92b641c3/workbench/tools"
)

// A terminal session's refusals explain themselves as Bash's do: the
// results of shell_open, shell_send and shell_read carry the sandbox's note
// when the output they return shows a refusal it caused.
func TestH16_TerminalSessionRefusalsExplainThemselves(t *testing.T) {
	ws, outside, sb := sandboxtest.Sandbox(t)
	m := pty.NewManager(pty.Options{KillGrace: 300 * time.Millisecond, Wrap: sb.Start, Explain: sb.Explain})
	t.Cleanup(m.CloseAll)
	k := &kit{t: t, m: m, tools: map[string]tools.Tool{}, tc: &tools.Context{WorkDir: ws, Env: []string{"HISTFILE=/dev/null"}}}
	for _, tool := range All(m) {
		k.tools[tool.Name()] = tool
	}
	explained := func(what string, r map[string]any, path string) {
		t.Helper()
		note, _ := r["sandbox"].(string)
		if !strings.HasPrefix(note, "The sandbox refused this: ") || !strings.Contains(note, path+" is outside the paths") ||
			!strings.Contains(note, "sandbox.allowWrite") {
			t.Errorf("%s: the refusal of %s is not explained: %v", what, path, r)
		}
	}
	// A command whose refusal is in the output shell_open returns.
	opened := k.call("shell_open", js(map[string]any{"command": `python3 -c "open('` + outside + `/open','w')"; sleep 0.3`, "mode": "interactive"}))
	explained("shell_open", opened, outside+"/open")

	sh := k.call("shell_open", js(map[string]any{"command": "bash --norc --noprofile -i", "mode": "interactive"}))
	id := sh["session_id"].(string)
	sent := k.call("shell_send", js(map[string]any{"session_id": id, "text": "touch ../outside/send; echo x > inside\n"}))
	explained("shell_send", sent, outside+"/send")
	if _, err := os.Stat(filepath.Join(ws, "inside")); err != nil {
		t.Errorf("a write inside the workspace failed: %v", err)
	}
	k.call("shell_send", js(map[string]any{"session_id": id, "text": "cp /etc/hostname ../outside/read\n", "wait": false}))
	// A relative path: the screen wraps a long line, and a path cut in
	// two is not one the note can name.
	explained("shell_read screen", k.screenUntil(id, "cannot create"), outside+"/read")
	r := k.call("shell_read", js(map[string]any{"session_id": id, "since_cursor": 0}))
	explained("shell_read stream", r, outside+"/read")
	// Output without a refusal has no note.
	quiet := k.call("shell_send", js(map[string]any{"session_id": id, "text": "echo all fine\n"}))
	if _, ok := quiet["sandbox"]; ok {
		t.Errorf("output without a refusal got a note: %v", quiet)
	}
	for _, name := range []string{"open", "send", "read"} {
		if _, err := os.Stat(filepath.Join(outside, name)); err == nil {
			t.Errorf("a terminal session wrote %s outside the workspace", name)
		}
	}
}
