package shell

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tasks"
	"github.com/seed92b641c3/workbench/tools"
)

// newManager makes a task manager closed when the test ends.
func newManager(t *testing.T, opts tasks.Options) *tasks.Manager {
	t.Helper()
	if opts.Grace == 0 {
		opts.Grace = 300 * time.Millisecond
	}
	m, err := tasks.NewManager(filepath.Join(t.TempDir(), "tasks"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// runWith validates input against tool's schema and calls it.
func runWith(t *testing.T, tool tools.Tool, ctx context.Context, tc *tools.Context, input string) tools.Result {
	t.Helper()
	in, err := tool.Schema().Prepare(json.RawMessage(input))
	if err != nil {
		t.Fatalf("Prepare(%s): %v", input, err)
	}
	res, err := tool.Call(ctx, in, tc)
	if err != nil {
		t.Fatalf("Call(%s): %v", input, err)
	}
	return res
}

// background builds Bash input that runs command in the background.
func background(command string) string {
	b, _ := json.Marshal(map[string]any{"command": command, "run_in_background": true})
	return string(b)
}

func TestBashWithoutManagerIsThePlainTool(t *testing.T) {
	t.Parallel()
	tool := BashWith(nil)
	if _, err := tool.Schema().Prepare(json.RawMessage(background("ls"))); err == nil {
		t.Error("Bash without a manager accepted run_in_background")
	}
	if strings.Contains(tool.Prompt(), "run_in_background") {
		t.Error("Bash without a manager tells the model about run_in_background")
	}
}

func TestBashWithManagerReportsExitStatusLikeBash(t *testing.T) {
	t.Parallel()
	m := newManager(t, tasks.Options{})
	tool := BashWith(m)
	for _, c := range []struct {
		command, text string
		isError       bool
		code          int
		signal        string
	}{
		{"true", "(no output)", false, 0, ""},
		{"echo hello", "hello\n", false, 0, ""},
		{"echo oops; exit 3", "oops\n\n\n[exit code 3]", true, 3, ""},
		{"kill -SEGV $$", "[terminated by signal 11 (segmentation fault)]", true, -1, "segmentation fault"},
	} {
		res := runWith(t, tool, t.Context(), &tools.Context{}, cmd(c.command, 0))
		if res.Text != c.text || res.IsError != c.isError || !res.Captured {
			t.Errorf("%s: got %q (error %v, captured %v), want %q (error %v)", c.command, res.Text, res.IsError, res.Captured, c.text, c.isError)
		}
		if got := meta(t, res); got.ExitCode != c.code || got.Signal != c.signal || got.Background {
			t.Errorf("%s: meta %+v", c.command, got)
		}
	}
	if list := m.List(); len(list) != 0 || m.Pending() {
		t.Errorf("finished foreground commands were kept (%d) or notified", len(list))
	}
	if entries, _ := os.ReadDir(m.Dir()); len(entries) != 0 {
		t.Errorf("output files of forgotten commands are left: %v", entries)
	}
}

func TestBashRunInBackgroundReturnsAtOnceAndTheFileGrows(t *testing.T) {
	t.Parallel()
	m := newManager(t, tasks.Options{})
	tool := BashWith(m)
	res := runWith(t, tool, t.Context(), &tools.Context{},
		background(`for i in $(seq 1 30); do echo tick $i; sleep 0.1; done`))
	got := meta(t, res)
	if res.IsError || res.Captured || !got.Background || got.TaskID != "task_1" {
		t.Fatalf("result %q, meta %+v: want a background start", res.Text, got)
	}
	for _, want := range []string{"task_1", got.OutputFile, "TaskOutput", "notified"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("result %q does not mention %q", res.Text, want)
		}
	}
	s, _ := m.Get("task_1")
	if !s.Running() || !s.Background {
		t.Fatalf("task %+v, want it running in the background when the call returned", s)
	}
	size := func() int64 {
		fi, err := os.Stat(got.OutputFile)
		if err != nil {
			return -1
		}
		return fi.Size()
	}
	first := size()
	deadline := time.Now().Add(10 * time.Second)
	for size() <= first {
		if time.Now().After(deadline) {
			t.Fatalf("output file stayed at %d bytes", first)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if s, err := m.Wait(t.Context(), "task_1", 20*time.Second); err != nil || s.Status != tasks.StatusCompleted {
		t.Fatalf("task %+v, %v", s, err)
	}
	if ns := m.Drain(); len(ns) != 1 || ns[0].ID != "task_1" {
		t.Errorf("notifications %+v, want one for task_1", ns)
	}
}

func TestBashForegroundTimeoutMovesToTheBackground(t *testing.T) {
	t.Parallel()
	m := newManager(t, tasks.Options{})
	res := runWith(t, BashWith(m), t.Context(), &tools.Context{},
		cmd(`echo started; sleep 0.8; echo later; sleep 100`, 300))
	if res.IsError || !res.Captured || !strings.HasPrefix(res.Text, "started\n") {
		t.Fatalf("result %q (error %v), want the output so far and no error", res.Text, res.IsError)
	}
	if !strings.Contains(res.Text, "still running after 300ms") || !strings.Contains(res.Text, "moved to the background as task_1") {
		t.Errorf("result %q does not say it moved to the background", res.Text)
	}
	got := meta(t, res)
	if !got.Background || got.TaskID != "task_1" || got.TimedOut || got.OutputFile == "" {
		t.Errorf("meta %+v", got)
	}
	if s, _ := m.Get("task_1"); !s.Running() || !s.Background {
		t.Fatalf("task %+v, want it running on in the background", s)
	}
	deadline := time.Now().Add(10 * time.Second)
	for b, _ := os.ReadFile(got.OutputFile); !strings.Contains(string(b), "later"); b, _ = os.ReadFile(got.OutputFile) {
		if time.Now().After(deadline) {
			t.Fatalf("output file %q never got the later line", b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := m.Kill("task_1"); err != nil {
		t.Fatal(err)
	}
	if ns := m.Drain(); len(ns) != 1 || !strings.Contains(ns[0].Text, "<status>killed</status>") {
		t.Errorf("notifications %+v, want the killed task to notify", ns)
	}
}

func TestBashSleepIsKilledAtItsTimeout(t *testing.T) {
	t.Parallel()
	m := newManager(t, tasks.Options{})
	dir := t.TempDir()
	res := runWith(t, BashWith(m), t.Context(), &tools.Context{WorkDir: dir},
		cmd(`sleep 100 & echo $! > pids; echo $$ >> pids; sleep 100`, 300))
	if !res.IsError || !strings.Contains(res.Text, "timed out after 300ms") {
		t.Errorf("got %q (error %v), want a timeout error", res.Text, res.IsError)
	}
	if got := meta(t, res); !got.TimedOut || got.Background {
		t.Errorf("meta %+v, want timed out, not in the background", got)
	}
	for _, pid := range readPids(t, filepath.Join(dir, "pids"), 2) {
		if running(pid) {
			t.Errorf("pid %d survived the timeout", pid)
		}
	}
	if len(m.List()) != 0 || m.Pending() {
		t.Error("a killed sleep was kept or notified")
	}
}

func TestBashWithManagerInterruptKillsTheGroup(t *testing.T) {
	t.Parallel()
	m := newManager(t, tasks.Options{})
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
	res := runWith(t, BashWith(m), ctx, &tools.Context{WorkDir: dir},
		cmd(`echo started; sleep 100 & echo $! > pids; echo $$ >> pids; sleep 100`, 60000))
	if !res.IsError || !strings.HasPrefix(res.Text, "started\n") || !strings.Contains(res.Text, "interrupted") {
		t.Errorf("got %q (error %v), want the output so far and an interrupted error", res.Text, res.IsError)
	}
	if got := meta(t, res); !got.Interrupted {
		t.Errorf("meta %+v, want interrupted", got)
	}
	for _, pid := range readPids(t, filepath.Join(dir, "pids"), 2) {
		if running(pid) {
			t.Errorf("pid %d survived the interrupt", pid)
		}
	}
}

func TestBashWithManagerStopsARunawayAtTheCap(t *testing.T) {
	t.Parallel()
	m := newManager(t, tasks.Options{OutputCap: 1 << 20})
	res := runWith(t, BashWith(m), t.Context(), &tools.Context{}, cmd("yes", 0))
	if !res.IsError || !strings.Contains(res.Text, "output reached the cap of 1.0 MiB") {
		t.Errorf("result ends %q, want the cap named", res.Text[max(0, len(res.Text)-200):])
	}
}

func TestBashWithManagerAsksAndNamesTheCommand(t *testing.T) {
	t.Parallel()
	tool := BashWith(newManager(t, tasks.Options{}))
	for input, want := range map[string]string{
		cmd("make", 0):     "run shell command: make",
		background("make"): "run shell command in the background: make",
	} {
		d := tool.CheckPermission(t.Context(), json.RawMessage(input), &tools.Context{})
		if d.Behavior != permission.Ask || d.Message != want {
			t.Errorf("%s: decision %+v, want ask %q", input, d, want)
		}
		if got := tool.Target(json.RawMessage(input), &tools.Context{}); len(got.Commands) != 1 || got.Commands[0] != "make" {
			t.Errorf("%s: target %+v", input, got)
		}
	}
	in, err := tool.Schema().Prepare(json.RawMessage(`{"command":"ls"}`))
	if err != nil || !strings.Contains(string(in), `"run_in_background":false`) {
		t.Errorf("Prepare = %s, %v; want run_in_background defaulted to false", in, err)
	}
	if !strings.Contains(tool.Prompt(), "run_in_background") || tool.ReadOnly(in) || tool.ConcurrencySafe(in) {
		t.Error("prompt or metadata wrong")
	}
}

func TestFirstWord(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"sleep 10":                 "sleep",
		"  /bin/sleep 5 && ls":     "sleep",
		"FOO=1 BAR=2 sleep 3":      "sleep",
		"(sleep 3; echo)":          "sleep",
		"npm run dev":              "npm",
		"echo sleep":               "echo",
		"":                         "",
		"sleeper --for 10":         "sleeper",
		"GOFLAGS=-race go test ./": "go",
	} {
		if got := firstWord(in); got != want {
			t.Errorf("firstWord(%q) = %q, want %q", in, got, want)
		}
	}
}
