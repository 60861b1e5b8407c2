package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"

	"github.com/seed92b641c3/workbench/session"
	"github.com/seed92b641c3/workbench/settings"
)

// A repository's own settings files are written by whoever wrote the
// repository. Until the person trusts it, a hook there does not run and an
// allow rule there does not allow; `workbench trust` changes that for good,
// --trust-project for one run.
func TestTrust_AClonedProjectCannotRunHooksOrAllowItself(t *testing.T) {
	c := newCLI(t)
	c.untrusting = true
	file := settings.TrustFile(settings.DefaultPaths(c.project))
	if _, err := settings.SetTrust(file, c.project, false); err != nil { // newCLI trusts; this test starts from a fresh clone
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "hook-ran")
	c.write(".claude/settings.json", `{"permissions": {"allow": ["Bash(*)"]},
		"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "touch `+marker+`"}]}]}}`)
	call := func(extra ...string) (int, string, string) {
		return c.run("", append(append([]string{"tool", "--cwd", c.project}, extra...), "Bash", `{"command":"echo ran"}`)...)
	}
	code, out, errs := call()
	if code != exitError || strings.Contains(out, "ran\n") {
		t.Errorf("untrusted, the project's allow rule allowed the call: exit %d %q", code, out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("untrusted, the project's PreToolUse hook ran")
	}
	if !strings.Contains(errs, ".claude/settings.json: not applied until you trust this project") || !strings.Contains(errs, "Bash(*)") {
		t.Errorf("stderr does not say what was withheld and why:\n%s", errs)
	}

	if code, out, _ := call("--trust-project"); code != exitOK || !strings.Contains(out, "ran") {
		t.Errorf("with --trust-project: exit %d %q", code, out)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("with --trust-project the hook did not run")
	}
	os.Remove(marker)
	if settings.IsTrusted(file, c.project) {
		t.Error("--trust-project recorded trust; it is for one run")
	}

	code, out, _ = c.run("", "trust", "--cwd", c.project)
	if code != exitOK || !strings.Contains(out, "Trusted: "+c.project) || !strings.Contains(out, "Bash(*)") {
		t.Fatalf("workbench trust: exit %d %q", code, out)
	}
	if code, out, errs := call(); code != exitOK || !strings.Contains(out, "ran") || strings.Contains(errs, "not applied") {
		t.Errorf("trusted: exit %d %q %q", code, out, errs)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("trusted, the hook did not run")
	}
	// A pull that changes the hook's command: the trust was for the old one.
	os.Remove(marker)
	pulled := filepath.Join(t.TempDir(), "pulled-hook-ran")
	c.write(".claude/settings.json", `{"permissions": {"allow": ["Bash(*)"]},
		"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "touch `+pulled+`"}]}]}}`)
	code, out, errs = call()
	if code != exitError || strings.Contains(out, "ran\n") || !strings.Contains(errs, "changed since you trusted it") || !strings.Contains(errs, pulled) {
		t.Errorf("after the settings changed: exit %d %q\n%s", code, out, errs)
	}
	if _, err := os.Stat(pulled); err == nil {
		t.Error("the changed hook ran on the old trust")
	}
	if code, _, _ := c.run("", "trust", "--cwd", c.project); code != exitOK {
		t.Fatal("trusting again failed")
	}
	if code, out, _ := call(); code != exitOK || !strings.Contains(out, "ran") {
		t.Errorf("trusted again: exit %d %q", code, out)
	}
	if code, out, _ := c.run("", "trust", "--cwd", c.project, "--revoke"); code != exitOK || !strings.Contains(out, "No longer trusted") {
		t.Errorf("trust --revoke: exit %d %q", code, out)
	}
	if code, _, _ := call(); code != exitError {
		t.Errorf("revoked, the allow rule still allowed: exit %d", code)
	}
}

// trustProject records the person's trust in project under the config home
// a test gives the program (XDG_CONFIG_HOME), as `workbench trust` would.
func trustProject(t *testing.T, configHome, project string) {
	t.Helper()
	if _, err := settings.SetTrust(filepath.Join(configHome, "workbench", "trusted-projects.json"), project, true); err != nil {
		t.Fatal(err)
	}
}

// The question on the terminal after a change says the files changed and
// shows what they ask for now; an answer trusts only what was shown.
func TestTrust_TheQuestionAfterAChangeSaysSoAndTrustsWhatItShowed(t *testing.T) {
	c := newCLI(t)
	c.write(".claude/settings.json", `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo one"}]}]}}`)
	c.untrusting = true
	c.write(".claude/settings.json", `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo two"}]}]}}`)
	ask := func(answer string, meanwhile func()) (string, bool) {
		t.Helper()
		cfg, err := session.Load(session.Options{Dir: c.project})
		if err != nil {
			t.Fatal(err)
		}
		master, tty, err := pty.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer master.Close()
		defer tty.Close()
		if meanwhile != nil {
			meanwhile()
		}
		master.Write([]byte(answer + "\r"))
		var out strings.Builder
		ok := askTrust(cfg, tty, &out)
		return out.String(), ok
	}
	out, ok := ask("y", func() {
		c.write(".claude/settings.json", `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo three"}]}]}}`)
	})
	if ok || !strings.Contains(out, "changed since you trusted it") || !strings.Contains(out, "echo two") || !strings.Contains(out, "changed while the question was open") {
		t.Errorf("a file changed under the open question was trusted (%v):\n%s", ok, out)
	}
	out, ok = ask("y", nil)
	if !ok || !strings.Contains(out, "echo three") {
		t.Errorf("the answer y did not trust what was shown (%v):\n%s", ok, out)
	}
	if !settings.IsTrusted(settings.TrustFile(settings.DefaultPaths(c.project)), c.project) {
		t.Error("the trust is not recorded")
	}
}
