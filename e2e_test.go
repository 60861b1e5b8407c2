package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/settings"
)

// tmuxTerm is a workbench process in a detached tmux session on a socket of
// its own, so the test sees the screen exactly as a terminal draws it and
// never touches the person's tmux server.
type tmuxTerm struct {
	t      *testing.T
	socket string
}

// e2eDeadline bounds every wait: generous, since a loaded CI machine running
// the race detector can take seconds to draw a screen.
const e2eDeadline = 30 * time.Second

func (m *tmuxTerm) cmd(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", m.socket}, args...)...).CombinedOutput()
	return string(out), err
}

func (m *tmuxTerm) must(args ...string) string {
	m.t.Helper()
	out, err := m.cmd(args...)
	if err != nil {
		m.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// screen is the pane as text, one line per row.
func (m *tmuxTerm) screen() string {
	m.t.Helper()
	return m.must("capture-pane", "-p", "-t", "wb")
}

// waitFor polls the screen until ok accepts it; fail, when it accepts a
// screen, ends the test at once (a dialog that must not open).
func (m *tmuxTerm) waitFor(what string, ok func(string) bool, fail func(string) string) string {
	m.t.Helper()
	deadline := time.Now().Add(e2eDeadline)
	for {
		s := m.screen()
		if fail != nil {
			if why := fail(s); why != "" {
				m.t.Fatalf("%s; the screen:\n%s", why, s)
			}
		}
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			m.t.Fatalf("timed out waiting for %s; the screen:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (m *tmuxTerm) keys(keys ...string) {
	m.t.Helper()
	m.must(append([]string{"send-keys", "-t", "wb"}, keys...)...)
}

func (m *tmuxTerm) pane(format string) string {
	m.t.Helper()
	return strings.TrimSpace(m.must("display-message", "-p", "-t", "wb", format))
}

// resize makes the window w × h and waits until the app has drawn the
// screen for it: the input's top border spans the new width, and two
// captures a moment apart agree, so the check does not look at a frame
// tmux is still painting.
func (m *tmuxTerm) resize(w, h int) string {
	m.t.Helper()
	m.must("resize-window", "-t", "wb", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h))
	prev := ""
	return m.waitFor(fmt.Sprintf("the screen laid out for %dx%d", w, h), func(s string) bool {
		lines := screenLines(s)
		ready := len(lines) == h && strings.Count(lines[h-4], "─") == w && s == prev
		prev = s
		return ready
	}, nil)
}

// screenLines splits a capture into its rows.
func screenLines(s string) []string {
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// proc is a running process and its arguments.
type proc struct {
	pid  int
	argv []string
}

// argvOf reads a process's arguments, or nil when it is gone.
func argvOf(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(string(bytes.TrimRight(b, "\x00")), "\x00")
}

// processesWith lists the live processes whose arguments match.
func processesWith(match func(argv []string) bool) []proc {
	var found []proc
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil || !alive(pid) {
			continue
		}
		if argv := argvOf(pid); argv != nil && match(argv) {
			found = append(found, proc{pid, argv})
		}
	}
	return found
}

// holding lists the processes with a file descriptor open on path.
func holding(path string) []proc {
	var found []proc
	fds, _ := filepath.Glob("/proc/[0-9]*/fd/*")
	for _, fd := range fds {
		if target, err := os.Readlink(fd); err == nil && target == path {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(fd))))
			found = append(found, proc{pid, argvOf(pid)})
		}
	}
	return found
}

// alive reports whether pid is a process that has not been reaped.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses: Z is a zombie.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// TestE2E_TmuxApproveForSession drives the real program in a terminal: a
// prompt, an approval answered "Yes for this session", the next matching
// call running without a dialog, a background process, a resize to a
// narrow and back to a wide window, Ctrl-C twice, and then nothing left
// running.
func TestE2E_TmuxApproveForSession(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	if testing.Short() {
		t.Skip("drives a terminal for several seconds")
	}
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("needs /proc to check that no process is left")
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
	// The background sleep carries a marker no other process has, so the
	// check for leftovers cannot be fooled by a stranger's sleep.
	marker := fmt.Sprintf("%d.%06d", 9000+os.Getpid()%1000, time.Now().Nanosecond()/1000)
	if err := os.MkdirAll(filepath.Join(project, ".workbench"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".workbench", "settings.json"),
		[]byte(`{"permissions":{"allow":["Bash(sleep:*)"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	scriptPath := filepath.Join(t.TempDir(), "session.json")
	script := `{"turns":[
	  {"text":"Creating a.","tool_calls":[{"id":"ta","name":"Bash","input":{"command":"touch a"}}],"delay_ms":0},
	  {"text":"Creating b.","tool_calls":[{"id":"tb","name":"Bash","input":{"command":"touch b"}}],"delay_ms":0},
	  {"text":"Starting a background job.","tool_calls":[{"id":"bg","name":"Bash","input":{"command":"sleep ` + marker + `","run_in_background":true}}]},
	  {"text":"All done: a and b exist, and the job runs in the background until the session ends."}]}`
	if err := os.WriteFile(scriptPath, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	stderrPath, statusPath := filepath.Join(out, "stderr"), filepath.Join(out, "status")

	term := &tmuxTerm{t: t, socket: fmt.Sprintf("wbe2e-%d-%d", os.Getpid(), time.Now().UnixNano())}
	t.Cleanup(func() { term.cmd("kill-server") })
	// The shell around workbench writes its exit status to a file: the
	// pane's own record of it is not reliable when the terminal closes
	// before tmux reaps the process.
	command := fmt.Sprintf("%s --cwd %s --script %s 2>%s; echo $? >%s",
		shellQuote(self), shellQuote(project), shellQuote(scriptPath), shellQuote(stderrPath), shellQuote(statusPath))
	term.must("-f", "/dev/null", "new-session", "-d", "-s", "wb", "-x", "120", "-y", "40",
		"-e", "WORKBENCH_TEST_MAIN=1", "-e", "XDG_STATE_HOME="+state, "-e", "XDG_CONFIG_HOME="+config,
		"-e", "HOME="+home, "-e", "ANTHROPIC_API_KEY=", "-e", "OPENAI_API_KEY=",
		command)
	tty, socketPath := term.pane("#{pane_tty}"), term.pane("#{socket_path}")
	t.Cleanup(func() {
		term.cmd("kill-server")
		os.Remove(socketPath)
	})
	stderr := func() string { b, _ := os.ReadFile(stderrPath); return string(b) }
	// The project's own allow rule waits for the person's trust: asked once
	// on the terminal before the TUI starts, and recorded.
	question := term.waitFor("the trust question", func(s string) bool { return strings.Contains(s, "[y/N]") }, nil)
	if !strings.Contains(question, "permissions.allow: Bash(sleep:*)") || !strings.Contains(question, "Trust "+project) {
		t.Fatalf("the trust question does not say what the project's files ask for:\n%s", question)
	}
	term.keys("y", "Enter")
	term.waitFor("the input line", func(s string) bool { return strings.Contains(s, "Ask the agent") }, nil)
	if !settings.IsTrusted(filepath.Join(config, "workbench", "trusted-projects.json"), project) {
		t.Error("the answer y did not record the trust")
	}
	// workbench is the process started from this binary with the script.
	wb := processesWith(func(argv []string) bool {
		return len(argv) > 0 && argv[0] == self && slices.Contains(argv, scriptPath)
	})
	if len(wb) != 1 {
		t.Fatalf("want one workbench process, found %v", wb)
	}
	pid := wb[0].pid
	background := func(argv []string) bool { return strings.Join(argv, " ") == "sleep "+marker }
	t.Cleanup(func() {
		// A test that stopped half-way leaves workbench running. SIGTERM
		// lets it end its session and its background job, as a closed
		// terminal would; what a SIGKILL leaves behind is stopped here.
		if alive(pid) {
			syscall.Kill(pid, syscall.SIGTERM)
			for end := time.Now().Add(5 * time.Second); alive(pid) && time.Now().Before(end); {
				time.Sleep(50 * time.Millisecond)
			}
			if alive(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		for _, p := range processesWith(background) {
			syscall.Kill(p.pid, syscall.SIGKILL)
		}
	})

	term.keys("-l", "create the files")
	term.keys("Enter")

	dialog := term.waitFor("the approval dialog", func(s string) bool { return strings.Contains(s, "wants to run") }, nil)
	if !strings.Contains(dialog, "touch a") || !strings.Contains(dialog, "Bash(touch:*)") {
		t.Fatalf("the dialog does not show the command and its session scope Bash(touch:*):\n%s", dialog)
	}
	time.Sleep(500 * time.Millisecond) // keys within 400 ms of the dialog opening are ignored
	term.keys("s")

	term.waitFor("the first call's result", func(s string) bool {
		return strings.Contains(s, "✓ Bash(touch a)") && !strings.Contains(s, "wants to run")
	}, nil)
	noDialog := func(s string) string {
		if strings.Contains(s, "wants to run") {
			return "a dialog opened after Yes for this session"
		}
		return ""
	}
	done := term.waitFor("the end of the run", func(s string) bool { return strings.Contains(s, "All done") }, noDialog)
	for _, want := range []string{"✓ Bash(touch a)", "✓ Bash(touch b)"} {
		if !strings.Contains(done, want) {
			t.Errorf("the conversation lacks %q:\n%s", want, done)
		}
	}
	for _, f := range []string{"a", "b"} {
		if _, err := os.Stat(filepath.Join(project, f)); err != nil {
			t.Errorf("touch %s did not run: %v", f, err)
		}
	}
	// The job's result comes back when its process has started, which in
	// the sandbox is the launcher: the sleep it becomes follows shortly.
	for end := time.Now().Add(e2eDeadline); len(processesWith(background)) == 0 && time.Now().Before(end); {
		time.Sleep(50 * time.Millisecond)
	}
	if len(processesWith(background)) == 0 {
		t.Fatalf("the background sleep is not running, so the leftover check would prove nothing; the screen:\n%s\nstderr:\n%s", done, stderr())
	}

	narrow := term.resize(70, 24)
	if strings.Contains(narrow, "Bash touch") || strings.Contains(narrow, "│✓") {
		t.Errorf("the pipeline panel shows at 70 columns:\n%s", narrow)
	}
	lines := screenLines(narrow)
	for i, l := range lines {
		if n := len([]rune(l)); n > 70 {
			t.Errorf("line %d is %d wide at 70 columns: %q", i+1, n, l)
		}
	}
	if !strings.HasPrefix(lines[len(lines)-1], "⏵ ") {
		t.Errorf("the status line is not the last line at 70x24:\n%s", narrow)
	}

	wide := term.resize(140, 40)
	if !strings.Contains(wide, "Bash touch a") {
		t.Errorf("the pipeline panel does not show at 140 columns:\n%s", wide)
	}
	// The separator stands right of the conversation, in every row above
	// the input: 140 columns less the panel's 36 % (50) and the separator.
	const sepCol = 140 - 50 - 1
	for i, l := range screenLines(wide)[:36] {
		if r := []rune(l); len(r) <= sepCol || r[sepCol] != '│' {
			t.Errorf("row %d has no panel separator at column %d: %q", i+1, sepCol, l)
			break
		}
	}

	term.keys("C-c")
	term.waitFor("the first Ctrl-C's hint", func(s string) bool { return strings.Contains(s, "again to quit") }, nil)
	term.keys("C-c")
	deadline := time.Now().Add(e2eDeadline)
	var status []byte
	for {
		var err error
		if status, err = os.ReadFile(statusPath); err == nil && len(status) > 0 {
			break
		}
		if time.Now().After(deadline) {
			// SIGQUIT makes the Go runtime print every goroutine's
			// stack to stderr: where it hangs.
			if p, err := os.FindProcess(pid); err == nil && alive(pid) {
				p.Signal(syscall.SIGQUIT)
				time.Sleep(time.Second)
			}
			t.Fatalf("workbench did not exit after Ctrl-C twice (alive: %v); processes holding its terminal:\n%v\nstderr:\n%s",
				alive(pid), holding(tty), stderr())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if st := strings.TrimSpace(string(status)); st != "0" {
		t.Errorf("workbench exited with status %s; stderr:\n%s", st, stderr())
	}
	if e := stderr(); strings.Contains(e, "DATA RACE") || !strings.Contains(e, "saved. Resume it with") {
		t.Errorf("stderr after quitting:\n%s", e)
	}

	// Nothing is left: not workbench, not the background job it started.
	deadline = time.Now().Add(5 * time.Second)
	for {
		left := processesWith(background)
		if alive(pid) {
			left = append(left, proc{pid, []string{"workbench"}})
		}
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left after quitting: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}

	transcripts, _ := filepath.Glob(filepath.Join(state, "workbench", "sessions", "*", "transcript.jsonl"))
	if len(transcripts) != 1 {
		t.Fatalf("want one session transcript under XDG_STATE_HOME, found %v", transcripts)
	}
	tr, err := os.ReadFile(transcripts[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"Bash(touch:*)"`, "touch b", "create the files"} {
		if !strings.Contains(string(tr), want) {
			t.Errorf("the transcript lacks %s", want)
		}
	}
}

// shellQuote quotes s for sh, which runs the pane's command.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
