package tasks

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/sandbox"
	"go.uber.org/goleak"
)

// Every goroutine a manager starts must be gone once Close returns.
// The test binary is also the sandbox launcher (see sandboxFixture).
func TestMain(m *testing.M) {
	sandbox.Dispatch()
	goleak.VerifyTestMain(m)
}

// testGrace keeps stops quick in tests; the SIGKILL path is still taken by
// commands that ignore SIGTERM.
const testGrace = 300 * time.Millisecond

// newManager makes a manager in a temporary directory, closed when the test
// ends.
func newManager(t *testing.T, opts Options) *Manager {
	t.Helper()
	if opts.Grace == 0 {
		opts.Grace = testGrace
	}
	m, err := NewManager(t.TempDir()+"/tasks", opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// spawn starts a task or fails the test.
func spawn(t *testing.T, m *Manager, s Spec) *Task {
	t.Helper()
	task, err := m.Spawn(s)
	if err != nil {
		t.Fatalf("Spawn(%q): %v", s.Command, err)
	}
	return task
}

// wait waits for a task to end, failing the test after 20 s.
func wait(t *testing.T, m *Manager, id string) Snapshot {
	t.Helper()
	s, err := m.Wait(context.Background(), id, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if s.Running() {
		t.Fatalf("%s still running after 20s", id)
	}
	return s
}

// eventually polls cond until it holds, failing the test after 10 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// running reports whether pid is a live process. A zombie counts as dead:
// it runs nothing, and orphans stay zombies where PID 1 does not reap.
func running(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	f := strings.Fields(string(stat[i+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// readPids waits until file holds want pids, one a line, and returns them.
func readPids(t *testing.T, file string, want int) []int {
	t.Helper()
	var pids []int
	eventually(t, "pids in "+file, func() bool {
		b, _ := os.ReadFile(file)
		pids = pids[:0]
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
		return len(pids) >= want
	})
	return pids
}

// element returns the text of the first <name> element of a notification.
func element(t *testing.T, text, name string) string {
	t.Helper()
	open, end := "<"+name+">", "</"+name+">"
	i := strings.Index(text, open)
	j := strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("no <%s> in %s", name, text)
	}
	return text[i+len(open) : j]
}
