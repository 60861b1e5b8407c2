package tasks

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/internal/sandboxtest"
	"github.com/seed92b641c3/workbench/sandbox"
)

// sandboxFixture is the shared confinement fixture (internal/sandboxtest).
func sandboxFixture(t *testing.T) (ws, outside string, sb *sandbox.Sandbox) {
	t.Helper()
	return sandboxtest.Sandbox(t)
}

func TestH16_BackgroundTasksAndMonitorsAreConfined(t *testing.T) {
	t.Parallel()
	ws, outside, sb := sandboxFixture(t)
	m := newManager(t, Options{Wrap: sb.Start})
	for _, spec := range []Spec{
		{Command: `echo x > ` + outside + `/bg; echo x > bg`, WorkDir: ws, Background: true},
		{Command: `echo x > ` + outside + `/mon; echo x > mon; echo done`, WorkDir: ws, Kind: KindMonitor},
		{Command: `python3 -c "open('` + outside + `/fg','w')"; echo x > fg`, WorkDir: ws},
	} {
		wait(t, m, spawn(t, m, spec).ID())
	}
	for _, name := range []string{"bg", "mon", "fg"} {
		if _, err := os.Stat(filepath.Join(outside, name)); err == nil {
			t.Errorf("task %s wrote outside the workspace", name)
		}
		if _, err := os.Stat(filepath.Join(ws, name)); err != nil {
			t.Errorf("task %s could not write inside: %v", name, err)
		}
	}
	// A spec's own wrapper wins: Unconfined lets the write through.
	wait(t, m, spawn(t, m, Spec{Command: `echo x > ` + outside + `/escaped`, WorkDir: ws, Wrap: Unconfined}).ID())
	if _, err := os.Stat(filepath.Join(outside, "escaped")); err != nil {
		t.Errorf("an unconfined task was confined: %v", err)
	}
}

func TestH16_NoOrphanSurvivesASandboxedCommand(t *testing.T) {
	t.Parallel()
	ws, _, sb := sandboxFixture(t)
	m := newManager(t, Options{Wrap: sb.Start})
	pids := filepath.Join(ws, "pids")
	task := spawn(t, m, Spec{Command: `echo $$ >> pids; sleep 1000 & echo $! >> pids;
		(sleep 1000 & echo $! >> pids); trap '' TERM; sleep 1000`, WorkDir: ws, Background: true})
	eventually(t, "three pids", func() bool {
		b, _ := os.ReadFile(pids)
		return len(strings.Fields(string(b))) == 3
	})
	// The pids are the namespace's view; with no pid namespace they are
	// the host's too.
	b, _ := os.ReadFile(pids)
	if err := m.Kill(task.ID()); err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(string(b)) {
		pid, _ := strconv.Atoi(f)
		if running(pid) {
			t.Errorf("pid %d survived the kill", pid)
		}
	}
	if left := groupMembers(task.proc.Pid()); len(left) > 0 {
		t.Errorf("group members left: %v", left)
	}
}

// A background task's and a monitor's notifications explain a refusal of
// the sandbox, as a foreground Bash result does; a task approved to run
// outside gets no such note, nor does a failure the sandbox did not cause.
func TestH16_BackgroundAndMonitorRefusalsExplainThemselves(t *testing.T) {
	t.Parallel()
	ws, outside, sb := sandboxFixture(t)
	m := newManager(t, Options{Wrap: sb.Start, Explain: sb.Explain})
	bg := spawn(t, m, Spec{Command: `python3 -c "open('` + outside + `/bg','w')"`, WorkDir: ws, Background: true})
	mon := spawn(t, m, Spec{Command: `cp /etc/hostname ../outside/mon; sleep 0.2; exit 3`, WorkDir: ws, Kind: KindMonitor,
		Watch: []*regexp.Regexp{regexp.MustCompile(`cannot create`)}})
	plain := spawn(t, m, Spec{Command: `echo 'ls: cannot open ./nothing: Permission denied'; exit 1`, WorkDir: ws, Background: true})
	for _, task := range []*Task{bg, mon, plain} {
		wait(t, m, task.ID())
	}
	texts := map[string][]string{}
	for _, n := range m.Drain() {
		texts[n.ID] = append(texts[n.ID], n.Text)
	}
	explained := func(text, path string) bool {
		return strings.Contains(text, "The sandbox refused this: "+path) && strings.Contains(text, "sandbox.allowWrite") &&
			strings.Contains(text, "dangerouslyDisableSandbox")
	}
	if n := texts[bg.ID()]; len(n) != 1 || !explained(element(t, n[0], "summary"), outside+"/bg") {
		t.Errorf("background notification: %q", n)
	}
	if s, _ := m.Get(bg.ID()); !explained(s.Refusal, outside+"/bg") {
		t.Errorf("snapshot refusal %q", s.Refusal)
	}
	// The monitor's match names the refusal, and so does its end.
	if n := texts[mon.ID()]; len(n) != 2 || !strings.Contains(n[0], "<event>match</event>") ||
		!explained(element(t, n[0], "summary"), outside+"/mon") || !explained(element(t, n[1], "summary"), outside+"/mon") {
		t.Errorf("monitor notifications: %q", n)
	}
	if n := texts[plain.ID()]; len(n) != 1 || strings.Contains(n[0], "sandbox") {
		t.Errorf("a failure the sandbox did not cause: %q", n)
	}
	// A task run outside the sandbox is not explained by it.
	escaped := spawn(t, m, Spec{Command: `echo "touch: cannot touch '` + outside + `/x': Read-only file system"; exit 1`,
		WorkDir: ws, Background: true, Wrap: Unconfined})
	if s := wait(t, m, escaped.ID()); s.Refusal != "" {
		t.Errorf("an unconfined task was explained: %q", s.Refusal)
	}
}
