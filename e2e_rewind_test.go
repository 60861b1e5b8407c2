package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestE2E_TmuxRewind drives the real program in a terminal through two
// prompts whose Bash calls change, delete and create files, then /rewind:
// the dialog lists both prompts with their files and the person's own
// file changed since the last checkpoint, asks before restoring over it,
// restores code and conversation, reports every file and puts the prompt
// back in the input.
func TestE2E_TmuxRewind(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("rewind needs git")
	}
	if testing.Short() {
		t.Skip("drives a terminal for several seconds")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	if real, err := filepath.EvalSymlinks(project); err == nil {
		project = real
	}
	state, config, home := t.TempDir(), t.TempDir(), t.TempDir()
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(project, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(project, name))
		if err != nil {
			return "<missing>"
		}
		return string(b)
	}
	write(".workbench/settings.json", `{"permissions":{"allow":["Bash"]}}`)
	trustProject(t, config, project)
	write("notes.md", "notes\n")
	scriptPath := filepath.Join(t.TempDir(), "session.json")
	script := `{"turns":[
	  {"text":"Writing the plan.","tool_calls":[{"id":"w","name":"Bash","input":{"command":"printf 'plan v1\\n' > plan.md"}}]},
	  {"text":"The plan is written."},
	  {"text":"Rewriting it.","tool_calls":[{"id":"r","name":"Bash","input":{"command":"printf 'plan v2\\n' > plan.md && rm notes.md && printf 'todo\\n' > todo.md"}}]},
	  {"text":"Rewritten and tidied."}]}`
	if err := os.WriteFile(scriptPath, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	stderrPath, statusPath := filepath.Join(out, "stderr"), filepath.Join(out, "status")
	term := &tmuxTerm{t: t, socket: fmt.Sprintf("wbrw-%d-%d", os.Getpid(), time.Now().UnixNano())}
	t.Cleanup(func() { term.cmd("kill-server") })
	command := fmt.Sprintf("%s --cwd %s --script %s 2>%s; echo $? >%s",
		shellQuote(self), shellQuote(project), shellQuote(scriptPath), shellQuote(stderrPath), shellQuote(statusPath))
	term.must("-f", "/dev/null", "new-session", "-d", "-s", "wb", "-x", "100", "-y", "36",
		"-e", "WORKBENCH_TEST_MAIN=1", "-e", "XDG_STATE_HOME="+state, "-e", "XDG_CONFIG_HOME="+config,
		"-e", "HOME="+home, "-e", "ANTHROPIC_API_KEY=", "-e", "OPENAI_API_KEY=",
		command)
	socketPath := term.pane("#{socket_path}")
	pid := 0
	t.Cleanup(func() {
		if pid > 0 && alive(pid) {
			syscall.Kill(pid, syscall.SIGTERM)
		}
		term.cmd("kill-server")
		os.Remove(socketPath)
	})
	stderr := func() string { b, _ := os.ReadFile(stderrPath); return string(b) }
	term.waitFor("the input line", func(s string) bool { return strings.Contains(s, "Ask the agent") }, nil)
	if wb := processesWith(func(argv []string) bool {
		return len(argv) > 0 && argv[0] == self && strings.Contains(strings.Join(argv, " "), scriptPath)
	}); len(wb) == 1 {
		pid = wb[0].pid
	}

	term.keys("-l", "Write the plan")
	term.keys("Enter")
	term.waitFor("the first run's end", func(s string) bool { return strings.Contains(s, "The plan is written.") }, nil)
	term.keys("-l", "Rewrite the plan and drop the notes")
	term.keys("Enter")
	term.waitFor("the second run's end", func(s string) bool { return strings.Contains(s, "Rewritten and tidied.") }, nil)
	if read("plan.md") != "plan v2\n" || read("notes.md") != "<missing>" || read("todo.md") != "todo\n" {
		t.Fatalf("the prompts' Bash calls did not run: plan.md %q, stderr:\n%s", read("plan.md"), stderr())
	}
	write("mine.txt", "mine\n") // the person's own change, after the last checkpoint

	term.keys("-l", "/rewind")
	term.keys("Enter")
	list := term.waitFor("the rewind dialog", func(s string) bool { return strings.Contains(s, "Go back to before a prompt") }, nil)
	for _, want := range []string{"2  ", "Rewrite the plan and drop the notes", "D notes.md", "M plan.md", "A todo.md", "Write the plan", "A plan.md", "A mine.txt"} {
		if !strings.Contains(list, want) {
			t.Errorf("the rewind list lacks %q:\n%s", want, list)
		}
	}
	term.keys("Enter")
	term.waitFor("the choice of what to restore", func(s string) bool { return strings.Contains(s, "Code and conversation") }, nil)
	term.keys("Enter")
	term.waitFor("the question about the changed file", func(s string) bool {
		return strings.Contains(s, "Restore over them?") && strings.Contains(s, "A mine.txt")
	}, nil)
	if read("mine.txt") != "mine\n" || read("plan.md") != "plan v2\n" {
		t.Fatal("files changed before the person answered")
	}
	term.keys("y")
	done := term.waitFor("the rewind's report", func(s string) bool { return strings.Contains(s, "Rewound the conversation") }, nil)
	for _, want := range []string{"restored   plan.md", "recreated  notes.md", "removed    todo.md", "removed    mine.txt", "› Rewrite the plan and drop the notes"} {
		if !strings.Contains(done, want) {
			t.Errorf("after the rewind the screen lacks %q:\n%s", want, done)
		}
	}
	if strings.Contains(done, "Rewritten and tidied.") {
		t.Errorf("the conversation still shows the second prompt's answer:\n%s", done)
	}
	if read("plan.md") != "plan v1\n" || read("notes.md") != "notes\n" || read("todo.md") != "<missing>" || read("mine.txt") != "<missing>" {
		t.Errorf("the files are not as before prompt 2: plan.md %q notes.md %q todo.md %q mine.txt %q", read("plan.md"), read("notes.md"), read("todo.md"), read("mine.txt"))
	}

	term.keys("C-c")
	term.keys("C-c")
	deadline := time.Now().Add(e2eDeadline)
	for {
		if st, err := os.ReadFile(statusPath); err == nil && len(st) > 0 {
			if s := strings.TrimSpace(string(st)); s != "0" {
				t.Errorf("workbench exited with status %s; stderr:\n%s", s, stderr())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("workbench did not exit after Ctrl-C twice; stderr:\n%s", stderr())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
