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

// tmuxRun drives the real workbench (this test binary in its main role) in
// a tmux server of its own.
type tmuxRun struct {
	t      *testing.T
	socket string
}

func startTmux(t *testing.T, dir string, w, h int, args ...string) *tmuxRun {
	t.Helper()
	return startTmuxWithState(t, dir, t.TempDir(), w, h, args...)
}

// startTmuxWithState is startTmux with the state directory given, to meet
// sessions an earlier run left there.
func startTmuxWithState(t *testing.T, dir, state string, w, h int, args ...string) *tmuxRun {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	r := &tmuxRun{t: t, socket: fmt.Sprintf("wb-e2e-%d", time.Now().UnixNano())}
	config := t.TempDir()
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := fmt.Sprintf("echo $$ > %q && cd %q && WORKBENCH_TEST_MAIN=1 XDG_STATE_HOME=%q XDG_CONFIG_HOME=%q exec %q %s",
		pidFile, dir, state, config, os.Args[0], strings.Join(args, " "))
	out, err := exec.Command("tmux", "-L", r.socket, "new-session", "-d", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), cmd).CombinedOutput()
	if err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() {
		exec.Command("tmux", "-L", r.socket, "kill-server").Run()
		// The temporary directories go next: wait until the program and
		// what it started (its git writing the rewind store, say) are gone.
		if data, err := os.ReadFile(pidFile); err == nil {
			waitSessionGone(strings.TrimSpace(string(data)), 15*time.Second)
		}
	})
	return r
}

// waitSessionGone waits until no process is left in the terminal session
// whose leader was sid, or the bound passes.
func waitSessionGone(sid string, bound time.Duration) {
	for deadline := time.Now().Add(bound); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if !sessionAlive(sid) {
			return
		}
	}
}

// sessionAlive reports whether a process in session sid still runs (a
// zombie does not count).
func sessionAlive(sid string) bool {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp session ...
		i := strings.LastIndexByte(string(stat), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) > 4 && f[4] == sid && f[0] != "Z" {
			return true
		}
	}
	return false
}

func (r *tmuxRun) keys(k ...string) {
	args := append([]string{"-L", r.socket, "send-keys", "-t", "0"}, k...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		r.t.Fatalf("send-keys %v: %v %s", k, err, out)
	}
}

func (r *tmuxRun) screen() string {
	out, _ := exec.Command("tmux", "-L", r.socket, "capture-pane", "-p", "-t", "0").Output()
	return string(out)
}

// waitFor polls the screen until ok says yes; the deadline is generous
// because the machine may be loaded, and nothing is timed.
func (r *tmuxRun) waitFor(what string, ok func(string) bool) string {
	r.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s := r.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("waiting for %s; the screen is:\n%s", what, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestE2E_AgentShellPaneTakesTheKeyboard(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.json")
	os.WriteFile(script, []byte(`{"turns":[
	  {"text":"Opening a shell.","tool_calls":[{"id":"o","name":"shell_open","input":{"command":"PS1='pane$ ' bash --norc --noprofile -i","mode":"hands-free"}}]},
	  {"text":"The shell is open."}]}`), 0o644)
	// PS1 is not an inert prefix (bash expands it, commands included), so
	// the rule names the tool rather than the command.
	r := startTmux(t, dir, 140, 40, "--script", script, "--allow", "shell_open")
	r.waitFor("the input", func(s string) bool { return strings.Contains(s, "Ask the agent") })
	r.keys("open a shell", "Enter")
	r.waitFor("the agent's pane", func(s string) bool {
		return strings.Contains(s, "sh_1") && strings.Contains(s, "pane$") && strings.Contains(s, "The shell is open.")
	})
	r.keys("C-]")
	r.waitFor("the keyboard in the pane", func(s string) bool { return strings.Contains(s, "keys → sh_1") })
	r.keys("echo hi-from-e2e", "Enter")
	// The pane's column starts right after the separator: the program's
	// output line is there, and the conversation never saw the keys.
	s := r.waitFor("the output in the pane", func(s string) bool { return strings.Contains(s, "│hi-from-e2e") })
	if strings.Contains(s, "› echo hi-from-e2e") {
		t.Errorf("the typed text reached the input instead of the pane:\n%s", s)
	}
	r.keys("C-]")
	r.waitFor("the keyboard back in the input", func(s string) bool { return strings.Contains(s, "keys → input") })
	r.keys("C-c")
	r.keys("C-c")
	r.waitFor("the workbench to quit", func(s string) bool { return strings.Contains(s, "saved") || !strings.Contains(s, "Ask the agent") })
}
