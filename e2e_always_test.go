package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/settings"
)

// TestE2E_AlwaysInAnUntrustedProjectHoldsNextSession: in a project the
// person has not trusted, "Always" says where it saves the rule and saves
// it in the person's own settings for the project (and says so after), not in the project's
// files (whose allow rules wait for trust): the next session runs the
// command without asking, and asks no trust question either.
func TestE2E_AlwaysInAnUntrustedProjectHoldsNextSession(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	project, _ := filepath.EvalSymlinks(t.TempDir())
	// The person's settings are in ~/.config, as without XDG_CONFIG_HOME.
	state, home := t.TempDir(), t.TempDir()
	script := func(name, file string) string {
		p := filepath.Join(t.TempDir(), name)
		os.WriteFile(p, []byte(`{"turns":[
		  {"text":"Touching.","tool_calls":[{"id":"t","name":"Bash","input":{"command":"touch `+file+`"}}]},
		  {"text":"Touched `+file+`."}]}`), 0o644)
		return p
	}
	session := func(n int, scriptPath string) *tmuxRun {
		r := &tmuxRun{t: t, socket: fmt.Sprintf("wb-e2e-always-%d-%d", n, time.Now().UnixNano())}
		cmd := fmt.Sprintf("cd %q && WORKBENCH_TEST_MAIN=1 XDG_STATE_HOME=%q XDG_CONFIG_HOME= HOME=%q ANTHROPIC_API_KEY= OPENAI_API_KEY= %q --script %q --sandbox off",
			project, state, home, os.Args[0], scriptPath)
		if out, err := exec.Command("tmux", "-L", r.socket, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", cmd).CombinedOutput(); err != nil {
			t.Fatalf("tmux: %v %s", err, out)
		}
		t.Cleanup(func() { exec.Command("tmux", "-L", r.socket, "kill-server").Run() })
		r.waitFor("the input", func(s string) bool { return strings.Contains(s, "Ask the agent") })
		return r
	}
	personal := settings.PersonalFile(filepath.Join(home, ".config", "workbench", "settings.json"), project)
	shown := "~/" + strings.TrimPrefix(personal, home+"/")

	r := session(1, script("one.json", "first"))
	r.keys("touch a file", "Enter")
	s := r.waitFor("the dialog", func(s string) bool { return strings.Contains(s, "Bash wants to run touch") })
	// The path may wrap inside the dialog's border: compare without it.
	flat := strings.NewReplacer("│", "", " ", "", "\n", "").Replace(s)
	if !strings.Contains(flat, "(aalsosavesitin"+shown+")") {
		t.Fatalf("the dialog does not say Always saves in %s:\n%s", shown, s)
	}
	time.Sleep(500 * time.Millisecond) // the dialog's grace period
	r.keys("a")
	r.waitFor("the answer and where the rule went", func(s string) bool {
		return strings.Contains(s, "Touched first.") && strings.Contains(s, "Saved Bash(touch:*) to "+shown)
	})
	r.keys("C-c")
	r.keys("C-c")
	if _, err := os.Stat(filepath.Join(project, "first")); err != nil {
		t.Fatal("the approved command did not run")
	}
	if b, err := os.ReadFile(personal); err != nil || !strings.Contains(string(b), "Bash(touch:*)") {
		t.Fatalf("the person's file for the project holds %q (%v), want the rule", b, err)
	}
	if _, err := os.Stat(filepath.Join(project, ".workbench", "settings.local.json")); err == nil {
		t.Error("Always wrote into the untrusted project's own files")
	}

	r = session(2, script("two.json", "second"))
	r.keys("touch another", "Enter")
	s = r.waitFor("the answer", func(s string) bool {
		return strings.Contains(s, "Touched second.") || strings.Contains(s, "wants to run")
	})
	if strings.Contains(s, "wants to run") || !strings.Contains(s, "✓ Bash(touch second)") {
		t.Fatalf("the next session asked again:\n%s", s)
	}
}
