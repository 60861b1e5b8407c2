package shell

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

func TestBashReportsExitStatus(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		command string
		text    string
		isError bool
		code    int
		signal  string
	}{
		{"a silent success says there was no output", "true", "(no output)", false, 0, ""},
		{"a success returns its output unchanged", "echo hello", "hello\n", false, 0, ""},
		{"a failure is an error with its exit code", "echo oops; exit 3", "oops\n\n\n[exit code 3]", true, 3, ""},
		{"a silent failure still gives the exit code", "exit 1", "[exit code 1]", true, 1, ""},
		{"a shell killed by a signal names the signal", "kill -SEGV $$", "[terminated by signal 11 (segmentation fault)]", true, -1, "segmentation fault"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := run(t, t.Context(), &tools.Context{}, cmd(c.command, 0))
			if res.Text != c.text || res.IsError != c.isError {
				t.Errorf("got %q (error %v), want %q (error %v)", res.Text, res.IsError, c.text, c.isError)
			}
			m := meta(t, res)
			if m.ExitCode != c.code || m.Signal != c.signal || m.TimedOut {
				t.Errorf("meta %+v, want exit code %d, signal %q", m, c.code, c.signal)
			}
		})
	}
}

func TestBashInterleavesStdoutAndStderrInOrder(t *testing.T) {
	t.Parallel()
	res := run(t, t.Context(), &tools.Context{},
		cmd(`for i in 1 2 3; do echo out$i; echo err$i >&2; done; ls /no/such/path`, 0))
	want := "out1\nerr1\nout2\nerr2\nout3\nerr3\n"
	if !strings.HasPrefix(res.Text, want) || !strings.Contains(res.Text, "/no/such/path") {
		t.Errorf("got %q, want it to start with %q and hold ls's error", res.Text, want)
	}
}

func TestBashStdinIsEmptyAndThereIsNoTerminal(t *testing.T) {
	t.Parallel()
	start := time.Now()
	res := run(t, t.Context(), &tools.Context{},
		cmd(`cat; readlink /proc/self/fd/0; (: </dev/tty) 2>/dev/null && echo tty || echo no tty`, 5000))
	if res.Text != "/dev/null\nno tty\n" || res.IsError {
		t.Errorf("got %q, want cat to return at once, stdin /dev/null and no tty", res.Text)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v: something waited for input", d)
	}
}

func TestBashLeadsItsOwnSessionAndGroup(t *testing.T) {
	t.Parallel()
	// A session leader has no controlling terminal, whether or not the
	// test runs in one; its group id is its pid.
	res := run(t, t.Context(), &tools.Context{},
		cmd(`read -r pid _ _ _ pgrp sid _ < /proc/self/stat; echo "$pid $pgrp $sid $$"`, 0))
	f := strings.Fields(res.Text)
	if len(f) != 4 || f[1] != f[3] || f[2] != f[3] {
		t.Errorf("pid pgrp sid shell = %q, want the shell to lead its group and session", res.Text)
	}
}

func TestBashEnvironmentIsNonInteractive(t *testing.T) {
	t.Parallel()
	tc := &tools.Context{Env: []string{"WB_EXTRA=from settings", "PAGER=less"}}
	res := run(t, t.Context(), tc, cmd(
		`echo "$GIT_TERMINAL_PROMPT|$GIT_PAGER|$GIT_EDITOR|$DEBIAN_FRONTEND|$PIP_NO_INPUT|$TERM|$WB_EXTRA|$PAGER|$PATH"`, 0))
	want := "0|cat|true|noninteractive|1|dumb|from settings|less|" + os.Getenv("PATH") + "\n"
	if res.Text != want {
		t.Errorf("got %q, want %q (defaults set, settings win, PATH inherited)", res.Text, want)
	}
}

func TestBashRunsInTheWorkingDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	res := run(t, t.Context(), &tools.Context{WorkDir: dir}, cmd("pwd -P; touch made-here", 0))
	want, _ := filepath.EvalSymlinks(dir)
	if strings.TrimSpace(res.Text) != want {
		t.Errorf("pwd = %q, want %q", res.Text, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "made-here")); err != nil {
		t.Errorf("relative path did not resolve in the working directory: %v", err)
	}
}

func TestBashMissingWorkingDirectoryIsAnError(t *testing.T) {
	t.Parallel()
	in, _ := Bash().Schema().Prepare(json.RawMessage(cmd("true", 0)))
	_, err := Bash().Call(t.Context(), in, &tools.Context{WorkDir: filepath.Join(t.TempDir(), "gone")})
	if err == nil || !strings.Contains(err.Error(), "gone") {
		t.Errorf("err = %v, want it to name the missing directory", err)
	}
}

func TestH14_TimeoutKillsProcessGroup(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		command string
		within  time.Duration
	}{
		{"background and foreground sleeps die on SIGTERM",
			`echo $$ > pids; sleep 100 & echo $! >> pids; sleep 100`, 2 * time.Second},
		{"processes that ignore SIGTERM get SIGKILL after the grace",
			`trap '' TERM; echo $$ > pids; sleep 100 & echo $! >> pids; sleep 100 & echo $! >> pids; wait`, DefaultGrace + 2*time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			start := time.Now()
			res := run(t, t.Context(), &tools.Context{WorkDir: dir}, cmd(c.command, 500))
			took := time.Since(start)
			if took > c.within {
				t.Errorf("returned after %v, want within %v", took, c.within)
			}
			if !res.IsError || !strings.Contains(res.Text, "timed out after 500ms") {
				t.Errorf("got %q (error %v), want a timeout error", res.Text, res.IsError)
			}
			if m := meta(t, res); !m.TimedOut || m.Interrupted {
				t.Errorf("meta %+v, want timed_out", m)
			}
			for _, pid := range readPids(t, filepath.Join(dir, "pids"), 2) {
				if running(pid) {
					t.Errorf("pid %d survived the timeout", pid)
				}
			}
		})
	}
}

func TestH14_CancelKillsProcessGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		defer cancel()
		pids := filepath.Join(dir, "pids")
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
			if b, _ := os.ReadFile(pids); len(strings.Fields(string(b))) >= 2 {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	res := run(t, ctx, &tools.Context{WorkDir: dir},
		cmd(`echo started; sleep 100 & echo $! > pids; echo $$ >> pids; sleep 100`, 60000))
	if !res.IsError || !strings.HasPrefix(res.Text, "started\n") || !strings.Contains(res.Text, "interrupted") {
		t.Errorf("got %q (error %v), want the output so far and an interrupted error", res.Text, res.IsError)
	}
	if m := meta(t, res); !m.Interrupted || m.TimedOut {
		t.Errorf("meta %+v, want interrupted", m)
	}
	for _, pid := range readPids(t, filepath.Join(dir, "pids"), 2) {
		if running(pid) {
			t.Errorf("pid %d survived the cancel", pid)
		}
	}
}

func TestBashCancelledBeforeStartRunsNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res := run(t, ctx, &tools.Context{WorkDir: dir}, cmd("touch ran", 0))
	if !res.IsError || !strings.Contains(res.Text, "interrupted") {
		t.Errorf("got %q, want an interrupted error", res.Text)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("the command ran although the call was already cancelled")
	}
}

func TestH14_BackgroundLeftoversStopWhenTheCommandEnds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	start := time.Now()
	// One leftover holds the output pipe, the other does not.
	res := run(t, t.Context(), &tools.Context{WorkDir: dir},
		cmd(`sleep 100 & echo $! > pids; sleep 100 >/dev/null 2>&1 & echo $! >> pids; echo done`, 0))
	if res.Text != "done\n" || res.IsError {
		t.Errorf("got %q (error %v), want done", res.Text, res.IsError)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v: waited for a background process", d)
	}
	for _, pid := range readPids(t, filepath.Join(dir, "pids"), 2) {
		if running(pid) {
			t.Errorf("background pid %d outlived its command", pid)
		}
	}
}

func TestBashReturnsWhenAnEscapedProcessHoldsTheOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	start := time.Now()
	// setsid leaves the process group, so the group kill cannot reach it;
	// it still holds the pipe's write end.
	res := run(t, t.Context(), &tools.Context{WorkDir: dir},
		cmd(`setsid sleep 30 & echo $! > pids; echo done`, 0))
	took := time.Since(start)
	for _, pid := range readPids(t, filepath.Join(dir, "pids"), 1) {
		if p, err := os.FindProcess(pid); err == nil {
			p.Kill()
		}
	}
	if res.Text != "done\n" {
		t.Errorf("got %q, want done", res.Text)
	}
	if took > drainWait+2*time.Second {
		t.Errorf("took %v: waited for a process outside the group", took)
	}
}

func TestBashProgressReportsTheLatestLine(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []string
	// Each burst waits until the report of the one before has come (the
	// callback makes the file it waits for), then for more than the
	// reports' spacing (progressEvery), so no two bursts are read as one
	// and none falls within the spacing, however loaded the machine is.
	dir := t.TempDir()
	tc := &tools.Context{Progress: func(s string) {
		mu.Lock()
		got = append(got, s)
		n := len(got)
		mu.Unlock()
		os.WriteFile(filepath.Join(dir, strconv.Itoa(n)), nil, 0o644)
	}}
	wait := func(n int) string {
		return fmt.Sprintf(`for i in $(seq 3000); do [ -e %s/%d ] && break; sleep 0.01; done; sleep %.2f`,
			dir, n, (progressEvery + 50*time.Millisecond).Seconds())
	}
	// env printf: one write each, so each burst is one chunk for the reader.
	run(t, t.Context(), tc, cmd(`echo first; `+wait(1)+`; env printf 'a\nsecond\n\n'; `+wait(2)+`; env printf 'x\rbar 50%%\rbar 100%%'`, 0))
	mu.Lock()
	defer mu.Unlock()
	want := []string{"first", "second", "bar 100%"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("progress %q, want %q", got, want)
	}
}

func TestBashSchema(t *testing.T) {
	t.Parallel()
	schema := Bash().Schema()
	for _, c := range []struct {
		name, input, wantErr string
	}{
		{"a timeout over ten minutes is rejected", `{"command":"ls","timeout_ms":600001}`, "timeout_ms"},
		{"a zero timeout is rejected", `{"command":"ls","timeout_ms":0}`, "timeout_ms"},
		{"a fractional timeout is rejected", `{"command":"ls","timeout_ms":1.5}`, "timeout_ms"},
		{"an empty command is rejected", `{"command":""}`, "command"},
		{"a missing command is rejected", `{}`, "command"},
		{"an unknown field is rejected", `{"command":"ls","run_in_background":true}`, "run_in_background"},
	} {
		if _, err := schema.Prepare(json.RawMessage(c.input)); err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%s: err = %v, want one naming %s", c.name, err, c.wantErr)
		}
	}
	in, err := schema.Prepare(json.RawMessage(`{"command":"ls","description":"List files"}`))
	if err != nil || !strings.Contains(string(in), `"timeout_ms":120000`) {
		t.Errorf("Prepare = %s, %v; want the default timeout filled in", in, err)
	}
}

func TestBashPermissionAsksAndNamesTheCommand(t *testing.T) {
	t.Parallel()
	tool := Bash()
	in := json.RawMessage(`{"command":"rm -rf build && make"}`)
	d := tool.CheckPermission(t.Context(), in, &tools.Context{})
	if d.Behavior != permission.Ask || d.Message != "run shell command: rm -rf build && make" {
		t.Errorf("decision %+v, want ask naming the command", d)
	}
	if got := tool.Target(in, &tools.Context{}); len(got.Commands) != 1 || got.Commands[0] != "rm -rf build && make" {
		t.Errorf("target %+v, want the command line", got)
	}
	if tool.ReadOnly(in) || tool.ConcurrencySafe(in) {
		t.Error("Bash must default to mutating and exclusive")
	}
	if tool.Name() != "Bash" || !strings.Contains(tool.Prompt(), "timeout_ms") {
		t.Error("name or embedded prompt missing")
	}
}

func TestLastLine(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 150) // 300 bytes
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"\n\n", ""},
		{"one\ntwo\n", "two"},
		{"partial", "partial"},
		{"  indented  \r\n", "indented"},
		{"10%\r20%\r", "20%"},
		{long, strings.Repeat("é", 100)},
	} {
		if got := lastLine([]byte(c.in)); got != c.want {
			t.Errorf("lastLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Claude Code's Bash names its timeout "timeout" (milliseconds) and takes a
// description; both are valid input here, so a hook's Claude-shaped
// updatedInput passes the schema, and Workbench's timeout_ms still works.
func TestBashTakesClaudeCodesTimeoutName(t *testing.T) {
	t.Parallel()
	tc := &tools.Context{WorkDir: t.TempDir()}
	res := run(t, t.Context(), tc, `{"command":"sleep 30","timeout":300,"description":"Wait for nothing"}`)
	if m := meta(t, res); !m.TimedOut || !strings.Contains(res.Text, "timed out after 300ms") {
		t.Errorf("timeout (ms) was not applied: %+v %q", m, res.Text)
	}
	res = run(t, t.Context(), tc, `{"command":"sleep 30","timeout_ms":250}`)
	if m := meta(t, res); !m.TimedOut || !strings.Contains(res.Text, "timed out after 250ms") {
		t.Errorf("timeout_ms was not applied: %+v %q", m, res.Text)
	}
	if _, err := Bash().Schema().Prepare(json.RawMessage(`{"command":"ls","timeout":600001}`)); err == nil {
		t.Error("a timeout over ten minutes was accepted")
	}
}
