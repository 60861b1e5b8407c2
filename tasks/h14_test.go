package tasks

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// groupMembers lists the live processes of process group pgid from /proc.
func groupMembers(pgid int) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	want := []byte(strconv.Itoa(pgid))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(stat, ')')
		f := bytes.Fields(stat[i+1:])
		if len(f) >= 3 && bytes.Equal(f[2], want) && running(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func TestH14_NoOrphansAfterClose(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pids")
	specs := []struct {
		spec  Spec
		write int // pids the command writes to the pid file
	}{
		// Children and a grandchild, one of them holding no pipe.
		{Spec{Command: `echo $$ >> pids; sleep 1000 & echo $! >> pids;
			bash -c 'sleep 1000 >/dev/null 2>&1 & echo $! >> pids; sleep 1000' & echo $! >> pids; wait`,
			WorkDir: dir, Background: true}, 4},
		// A shell and children that ignore SIGTERM need SIGKILL.
		{Spec{Command: `trap '' TERM; echo $$ >> pids; sleep 1000 & echo $! >> pids; sleep 1000`,
			WorkDir: dir, Background: true}, 2},
		// A double fork leaves the child orphaned but still in the group.
		{Spec{Command: `(sleep 1000 & echo $! >> pids); echo $$ >> pids; sleep 1000`,
			WorkDir: dir, Kind: KindMonitor}, 2},
		// A foreground task is the manager's too.
		{Spec{Command: `echo $$ >> pids; sleep 1000 & echo $! >> pids; wait`, WorkDir: dir}, 2},
	}
	want := 0
	var tasks []*Task
	for _, s := range specs {
		tasks = append(tasks, spawn(t, m, s.spec))
		want += s.write
	}
	recorded := readPids(t, pidFile, want)
	// The shell, its sleep, the inner bash (which execs its last sleep) and
	// the inner bash's own child.
	eventually(t, "the first task's shell, children and grandchild", func() bool {
		return len(groupMembers(tasks[0].Pid())) >= 4
	})
	var all []int
	for _, task := range tasks {
		all = append(all, groupMembers(task.Pid())...)
	}
	all = append(all, recorded...)

	start := time.Now()
	m.Close()
	if d := time.Since(start); d > testGrace+5*time.Second {
		t.Errorf("Close took %v", d)
	}
	for _, pid := range all {
		if running(pid) {
			t.Errorf("pid %d survived Close", pid)
		}
	}
	for _, task := range tasks {
		if s := task.Snapshot(); s.Status != StatusKilled || s.Reason != ReasonClosed {
			t.Errorf("%s: %+v, want killed because the session closed", task.ID(), s)
		}
	}
}
