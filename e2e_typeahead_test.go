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

// TestE2E_EnterTypedBeforeTheStartSends: a prompt typed and sent while
// Workbench is still starting (here, before it even runs: the terminal
// is in line mode, which turns Enter into a line feed) is sent once the
// session is ready, as one message, and what was typed after that Enter
// waits in the input, in order; nothing of it is echoed onto the screen.
func TestE2E_EnterTypedBeforeTheStartSends(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "s.json")
	if err := os.WriteFile(script, []byte(`{"turns":[{"text":"Hello back."}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &tmuxRun{t: t, socket: fmt.Sprintf("wb-e2e-typeahead-%d", time.Now().UnixNano())}
	// The keys are sent during the sleep, so they reach the terminal
	// before Workbench runs, whatever the machine's load.
	cmd := fmt.Sprintf("sleep 1; cd %q && WORKBENCH_TEST_MAIN=1 XDG_STATE_HOME=%q XDG_CONFIG_HOME=%q HOME=%q %q --script %q",
		dir, t.TempDir(), t.TempDir(), t.TempDir(), os.Args[0], script)
	if out, err := exec.Command("tmux", "-L", r.socket, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", cmd).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("tmux", "-L", r.socket, "kill-server").Run() })
	r.keys("say hello", "Enter", "and more")
	s := r.waitFor("the answer", func(s string) bool { return strings.Contains(s, "Hello back.") })
	lines := screenLines(s)
	input := lines[len(lines)-3]
	if strings.Count(s, "say hello") != 1 || !strings.Contains(s, "› say hello") {
		t.Errorf("the prompt is not one message of its own:\n%s", s)
	}
	if strings.TrimSpace(input) != "› and more" {
		t.Errorf("the input holds %q, want what was typed after the Enter:\n%s", input, s)
	}
	r.keys("Enter")
	r.waitFor("the second prompt sent", func(s string) bool {
		return strings.Contains(s, "› and more") && strings.Contains(screenLines(s)[len(screenLines(s))-3], "Ask the agent")
	})
}
