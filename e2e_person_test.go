package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The person's own `!` commands in the real binary: no dialog, Esc stops
// one (its process is gone), each is in the transcript as soon as it ends,
// and --continue shows them again. They run outside the sandbox unless
// sandbox.person is true.
func TestE2E_PersonCommandsAreThePersons(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a terminal")
	}
	c := newCLI(t)
	outside := sandboxProject(t, c)
	marker := fmt.Sprintf("%d.%06d", 7000+os.Getpid()%1000, time.Now().Nanosecond()/1000)
	sleeping := func() []proc {
		return processesWith(func(argv []string) bool { return strings.Join(argv, " ") == "sleep "+marker })
	}
	noDialog := func(s string) {
		t.Helper()
		if strings.Contains(s, "Yes for this session") || strings.Contains(s, "wants to run") {
			t.Fatalf("a dialog opened for the person's own command:\n%s", s)
		}
	}
	s1 := c.script("s1.json", `{"turns":[{"text":"unused"}]}`)
	r := startTmuxWithState(t, c.project, c.state, 100, 30, "--script", s1)
	r.waitFor("the new session", func(s string) bool { return strings.Contains(s, "New session") })

	r.keys("!sleep "+marker, "Enter")
	deadline := time.Now().Add(30 * time.Second)
	for len(sleeping()) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the sleep never started; the screen:\n%s", r.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	noDialog(r.screen())
	r.keys("Escape")
	r.waitFor("the stopped command's result", func(s string) bool { return strings.Contains(s, "Interrupted") })
	for deadline := time.Now().Add(30 * time.Second); len(sleeping()) > 0; {
		if time.Now().After(deadline) {
			t.Fatalf("Esc did not stop the command: %v", sleeping())
		}
		time.Sleep(50 * time.Millisecond)
	}

	planted := filepath.Join(outside, "planted")
	r.keys("!touch "+planted+" && echo planted-$((40+2))", "Enter")
	noDialog(r.waitFor("the command's output", func(s string) bool { return strings.Contains(s, "planted-42") }))
	if _, err := os.Stat(planted); err != nil {
		t.Errorf("the person's command ran in the sandbox (sandbox.person is false): %v\n%s", err, r.screen())
	}
	// In the transcript before the session ends.
	tr := c.transcripts()
	if len(tr) != 1 {
		t.Fatalf("transcripts %v", tr)
	}
	deadline = time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(tr[0])
		if strings.Contains(string(b), `"person_command"`) && strings.Contains(string(b), "planted-42") {
			if !strings.Contains(string(b), "decided by the person") {
				t.Errorf("the audit trail does not say the person decided:\n%s", b)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command is not in the transcript while the session runs:\n%s", b)
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.keys("C-c")
	r.keys("C-c")
	for deadline := time.Now().Add(30 * time.Second); ; {
		b, _ := os.ReadFile(tr[0])
		if strings.Contains(string(b), `"type":"end"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session did not end on Ctrl-C twice; the screen:\n%s", r.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}

	// --continue shows them again; with sandbox.person the sandbox holds.
	c.write(".workbench/settings.json", `{"sandbox": {"person": true}}`)
	// Wide enough that the command line, whose path may be long where the
	// scratch directory is, is not wrapped.
	r = startTmuxWithState(t, c.project, c.state, 200, 30, "--continue", "--script", s1)
	screen := r.waitFor("the resumed session", func(s string) bool { return strings.Contains(s, "Resumed session") })
	if !strings.Contains(screen, "!touch "+planted) || !strings.Contains(screen, "planted-42") || !strings.Contains(screen, "!sleep "+marker) {
		t.Errorf("--continue must show the person's commands:\n%s", screen)
	}
	confined := filepath.Join(outside, "confined")
	r.keys("!touch "+confined+"; echo confined-$((40+2))", "Enter")
	noDialog(r.waitFor("the confined command's end", func(s string) bool { return strings.Contains(s, "confined-42") }))
	if _, err := os.Stat(confined); err == nil {
		t.Errorf("with sandbox.person the person's command must run in the sandbox")
	}
}
