package tasks

import (
	"os"
	"path/filepath"
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
	m := newManager(t, Options{Wrap: sb.Wrap})
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
	m := newManager(t, Options{Wrap: sb.Wrap})
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
