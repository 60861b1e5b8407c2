package main

import (
	"github.com/seed92b641c3/workbench/internal/scratch"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/sandbox"
)

// sandboxProject points c at a project outside the temp directories (which
// the sandbox leaves writable) and returns a directory beside it.
func sandboxProject(t *testing.T, c *cli) (outside string) {
	t.Helper()
	// Outside every temp directory, even when the checkout is in one.
	base, _ := filepath.EvalSymlinks(scratch.Dir(t))
	c.project, outside = filepath.Join(base, "project"), filepath.Join(base, "outside")
	os.Mkdir(c.project, 0o755)
	os.Mkdir(outside, 0o755)
	// A marker makes it the project root; without one the root is the
	// nearest ancestor with .git, this repository, which holds outside.
	os.Mkdir(filepath.Join(c.project, ".workbench"), 0o755)
	return outside
}

func TestH16_AgentCommandsRunInTheSandbox(t *testing.T) {
	c := newCLI(t)
	outside := sandboxProject(t, c)
	target := filepath.Join(outside, "planted")
	input := `{"command":"python3 -c \"open('` + target + `','w')\" && echo done"}`
	code, stdout, stderr := c.run("", "tool", "--cwd", c.project, "--trace", "--permission-mode", "bypassPermissions", "Bash", input)
	if code != exitError {
		t.Errorf("exit %d, want %d; stdout %s", code, exitError, stdout)
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatal("an agent command wrote outside the workspace")
	}
	if !strings.Contains(stdout, "The sandbox refused this: "+target) || !strings.Contains(stdout, "sandbox.allowWrite") {
		t.Errorf("the refusal is not explained:\n%s", stdout)
	}
	var start map[string]any
	for _, ev := range traceLines(t, stderr) {
		if ev["stage"] == "call" && ev["outcome"] == "start" {
			start = ev
		}
	}
	if start["sandbox"] != "sandbox workspace-write, network none" {
		t.Errorf("the call's start event: %v", start)
	}
	// --sandbox off lets the same write through.
	code, stdout, _ = c.run("", "tool", "--cwd", c.project, "--sandbox", "off", "--permission-mode", "bypassPermissions", "Bash", input)
	if _, err := os.Stat(target); code != exitOK || err != nil {
		t.Errorf("--sandbox off: exit %d, %v\n%s", code, err, stdout)
	}
	if code, _, stderr := c.run("", "tool", "--cwd", c.project, "--sandbox", "loose", "Bash", input); code != exitUsage || !strings.Contains(stderr, "--sandbox") {
		t.Errorf("a bad --sandbox: exit %d, %s", code, stderr)
	}
}

func TestH16_UnavailableSandboxNoticeAndRequired(t *testing.T) {
	c := newCLI(t)
	outside := sandboxProject(t, c)
	t.Setenv(sandbox.ForceUnavailableEnv, "forced for the test")
	target := filepath.Join(outside, "bare")
	input := `{"command":"python3 -c \"open('` + target + `','w')\""}`
	code, _, stderr := c.run("", "tool", "--cwd", c.project, "--permission-mode", "bypassPermissions", "Bash", input)
	if !strings.Contains(stderr, "sandbox unavailable: forced for the test") || !strings.Contains(stderr, "without it") {
		t.Errorf("no notice on stderr: %s", stderr)
	}
	if _, err := os.Stat(target); code != exitOK || err != nil {
		t.Errorf("without sandbox.required the command runs unconfined: exit %d, %v", code, err)
	}
	os.Remove(target)
	c.write(".workbench/settings.json", `{"sandbox": {"required": true}}`)
	code, stdout, stderr := c.run("", "tool", "--cwd", c.project, "--permission-mode", "bypassPermissions", "Bash", input)
	if code == exitOK || !strings.Contains(stderr, "commands will not run") || !strings.Contains(stdout, "sandbox.required") {
		t.Errorf("required: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("a command ran although the sandbox is required and unavailable")
	}
}

// The start-up check that does not answer in time (a loaded machine) leaves
// the sandbox in force: the command still runs confined, and the notice
// says the check is made again.
func TestH16_ASlowStartUpCheckStillConfinesCommands(t *testing.T) {
	c := newCLI(t)
	outside := sandboxProject(t, c)
	t.Setenv(sandbox.SlowProbeEnv, "1")
	target := filepath.Join(outside, "bare")
	input := `{"command":"python3 -c \"open('` + target + `','w')\""}`
	code, stdout, stderr := c.run("", "tool", "--cwd", c.project, "--permission-mode", "bypassPermissions", "Bash", input)
	if !strings.Contains(stderr, "sandbox check at start") || !strings.Contains(stderr, "still run in the sandbox") {
		t.Errorf("no notice on stderr: %s", stderr)
	}
	if _, err := os.Stat(target); err == nil || code == exitOK {
		t.Fatalf("a command ran outside the sandbox after a slow check: exit %d\n%s", code, stdout)
	}
	if !strings.Contains(stdout, "The sandbox refused this: "+target) {
		t.Errorf("the refusal is not explained:\n%s", stdout)
	}
}

// A settings directory or repository the project does not have cannot be
// made by an agent command, and the refusal explains itself.
func TestH16_AbsentSettingsCannotBeMadeByACommand(t *testing.T) {
	c := newCLI(t)
	sandboxProject(t, c) // it has .workbench, but neither .claude nor .git
	c.write(".workbench/settings.json", `{"sandbox": {"sealWorkspaceRoot": true}}`)
	// Spellings the analysis cannot see, so the sandbox is what refuses.
	for _, cmd := range []string{
		`python3 -c \"import os; os.mkdir('.cla'+'ude'); open('.cla'+'ude/settings.json','w').write('{}')\"`,
		`python3 -c \"import subprocess; subprocess.run(['git','init','-q'],check=True)\"`,
		`python3 -c \"open('.work'+'bench/settings.local.json','w').write('{}')\"`,
	} {
		code, stdout, _ := c.run("", "tool", "--cwd", c.project, "--permission-mode", "bypassPermissions", "Bash", `{"command":"`+cmd+`"}`)
		if code == exitOK || !strings.Contains(stdout, "The sandbox refused this: "+c.project) {
			t.Errorf("%s: exit %d, the refusal is not explained:\n%s", cmd, code, stdout)
		}
	}
	for _, p := range []string{".claude", ".git", ".workbench/settings.local.json"} {
		if _, err := os.Lstat(filepath.Join(c.project, p)); err == nil {
			t.Errorf("%s was made", p)
		}
	}
}
