package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The one-time question about a trusted project's .mcp.json servers, in
// the real binary: it shows at start with nothing checked, the answer
// starts the checked server and turns the other off, it is kept in
// .claude/settings.local.json as Claude Code keeps it, and the next start
// asks nothing and starts the same server.
func TestE2E_MCPQuestionIsAskedOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a terminal")
	}
	c := newCLI(t)
	c.write(".mcp.json", `{"mcpServers":{
		"db":{"command":"sh","args":["-c","echo db >> started"]},
		"docs":{"command":"sh","args":["-c","echo docs >> started"]}}}`)
	s1 := c.script("s1.json", `{"turns":[{"text":"unused"}]}`)
	started := func() string {
		data, _ := os.ReadFile(filepath.Join(c.project, "started"))
		return strings.Join(strings.Fields(string(data)), ",")
	}
	r := startTmuxWithState(t, c.project, c.state, 120, 36, "--trust-project", "--script", s1)
	r.waitFor("the question", func(s string) bool {
		return strings.Contains(s, "MCP servers of this project") && strings.Contains(s, "[ ] db") && strings.Contains(s, "[ ] docs")
	})
	if got := started(); got != "" {
		t.Fatalf("%s started before the answer", got)
	}
	// Keys in the first moments after the question opens are ignored
	// (typing meant for the input must not start programs): check db
	// until the screen shows it checked.
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(r.screen(), "[x] db"); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("space never checked db:\n%s", r.screen())
		}
		r.keys("Space")
	}
	r.keys("Enter")
	r.waitFor("the answer's notice", func(s string) bool { return strings.Contains(s, "Turned off: docs") })
	if got := started(); got != "db" {
		t.Fatalf("started %q, want db", got)
	}
	local, err := os.ReadFile(filepath.Join(c.project, ".claude", "settings.local.json"))
	if err != nil || !strings.Contains(string(local), `"enabledMcpjsonServers": [
    "db"
  ]`) || !strings.Contains(string(local), `"disabledMcpjsonServers": [
    "docs"
  ]`) {
		t.Fatalf("the answer file (%v):\n%s", err, local)
	}
	r.keys("C-c")
	r.keys("C-c")
	// The program ends (its pane closes with it, or shows the last words).
	r.waitFor("the end", func(s string) bool { return strings.TrimSpace(s) == "" || strings.Contains(s, "saved. Resume it with") })

	r2 := startTmuxWithState(t, c.project, c.state, 120, 36, "--trust-project", "--script", s1)
	s := r2.waitFor("the second start", func(s string) bool { return strings.Contains(s, "New session") })
	if strings.Contains(s, "MCP servers of this project") {
		t.Fatalf("asked again:\n%s", s)
	}
	for deadline := time.Now().Add(30 * time.Second); started() != "db,db"; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("started %q at the second start, want db twice", started())
		}
	}
}

// TestE2E_KeysTypedBeforeTheMCPQuestionDoNotAnswerIt: keys that would
// answer the question ("a" checks every server, Enter starts the checked)
// are typed before Workbench runs, so before the question is on screen.
// They answer nothing: the question waits with nothing checked and no
// server starts. Once the person answers it themselves, those keys reach
// the input as what they were: a prompt sent, and text typed after it.
func TestE2E_KeysTypedBeforeTheMCPQuestionDoNotAnswerIt(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	c := newCLI(t)
	c.write(".mcp.json", `{"mcpServers":{
		"db":{"command":"sh","args":["-c","echo db >> started"]},
		"docs":{"command":"sh","args":["-c","echo docs >> started"]}}}`)
	script := c.script("s.json", `{"turns":[{"text":"Hello back."}]}`)
	r := &tmuxRun{t: t, socket: fmt.Sprintf("wb-e2e-mcptype-%d", time.Now().UnixNano())}
	// The keys are sent during the sleep: they reach the terminal before
	// Workbench runs, whatever the machine's load.
	cmd := fmt.Sprintf("sleep 1; cd %q && WORKBENCH_TEST_MAIN=1 XDG_STATE_HOME=%q XDG_CONFIG_HOME=%q %q --trust-project --script %q",
		c.project, c.state, t.TempDir(), os.Args[0], script)
	if out, err := exec.Command("tmux", "-L", r.socket, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "36", cmd).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("tmux", "-L", r.socket, "kill-server").Run() })
	r.keys("a", "Enter", "hello")
	r.waitFor("the question", func(s string) bool { return strings.Contains(s, "MCP servers of this project") })
	started := func() string {
		data, _ := os.ReadFile(filepath.Join(c.project, "started"))
		return strings.Join(strings.Fields(string(data)), ",")
	}
	// The person answers: the cursor moves once the grace period is over,
	// then n turns every server off.
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(r.screen(), "› [ ] docs"); time.Sleep(200 * time.Millisecond) {
		s := r.screen()
		if strings.Contains(s, "[x]") || !strings.Contains(s, "MCP servers of this project") || started() != "" {
			t.Fatalf("the keys typed before the question answered it (started %q):\n%s", started(), s)
		}
		if time.Now().After(deadline) {
			t.Fatalf("down never moved the cursor:\n%s", s)
		}
		r.keys("Down")
	}
	r.keys("n")
	s := r.waitFor("the typed prompt's answer", func(s string) bool { return strings.Contains(s, "Hello back.") })
	if got := started(); got != "" {
		t.Fatalf("started %q, want none", got)
	}
	lines := screenLines(s)
	if !strings.Contains(s, "› a") || strings.TrimSpace(lines[len(lines)-3]) != "› hello" {
		t.Errorf("the keys typed before the start did not reach the input after the question:\n%s", s)
	}
}
