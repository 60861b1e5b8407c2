package tasks

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestH09_TaskOutputStreamsToDisk runs a task printing 200 MB: every byte
// reaches its file, and the heap does not grow with the output, since
// nothing but the reader's buffer holds it on the way. Not parallel: the
// allocation count is the whole process's.
func TestH09_TaskOutputStreamsToDisk(t *testing.T) {
	const size = 200_000_000
	m := newManager(t, Options{})
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	task := spawn(t, m, Spec{Command: "yes line | head -c 200000000", Background: true})
	s := wait(t, m, task.ID())
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if s.Status != StatusCompleted || s.Bytes != size {
		t.Fatalf("snapshot %+v, want completed with %d bytes", s, size)
	}
	if fi, err := os.Stat(task.OutputFile()); err != nil || fi.Size() != size {
		t.Fatalf("output file: %v, %v", fi, err)
	}
	// TotalAlloc counts every allocation made meanwhile, freed or not; the
	// output passing through memory would show as hundreds of MB.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
		t.Errorf("allocated %d MiB while streaming %d MB", grew>>20, size/1_000_000)
	}
	tail, err := m.Output(task.ID(), 0)
	if err != nil || len(tail) > DefaultTail+200 || !strings.HasSuffix(tail, "line\n") {
		t.Errorf("tail of %d bytes, %v", len(tail), err)
	}
}
