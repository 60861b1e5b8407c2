package rewind

import (
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// The tree of the performance figure: 10,000 files, 200 MB.
const (
	benchFiles    = 10000
	benchFileSize = 20 << 10
	benchPerDir   = 100
)

func buildBenchTree(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	rng := rand.New(rand.NewSource(1))
	buf := make([]byte, benchFileSize)
	for i := 0; i < benchFiles; i++ {
		rng.Read(buf)
		p := filepath.Join(dir, "d"+strconv.Itoa(i/benchPerDir), "f"+strconv.Itoa(i)+".dat")
		if i%benchPerDir == 0 {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.WriteFile(p, buf, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// childCPU is the processor time of the git processes run so far: on a
// shared machine it says more about the cost than the wall clock.
func childCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func dirSize(b *testing.B, dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// BenchmarkCheckpointOneChange measures a checkpoint after one file of the
// 10,000-file, 200 MB tree changed: git's index hashes only that file. It
// reports how much the shadow repository grew per checkpoint, the first
// checkpoint of the project's first session (the whole tree hashed: its
// wall time until the first change may go ahead, its git CPU, and how long
// the prompt waited, which is not at all), and the first checkpoint of its
// next session, which starts from the index the first one left.
func BenchmarkCheckpointOneChange(b *testing.B) {
	tree := buildBenchTree(b)
	state := b.TempDir()
	shared := filepath.Join(state, "project")
	shadow := filepath.Join(state, "rewind")
	s, err := Open(Options{Dir: shadow, WorkTree: tree, Shared: shared})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	// As a session does: the tree is recorded in the background from the
	// start, the prompt does not wait, the first change waits for it all.
	cpuFirst := childCPU()
	start := time.Now()
	s.Prepare(ctx)
	s.BeginPromptInBackground(ctx, "first", func(err error) { b.Error(err) })
	promptWait := time.Since(start)
	if _, err := s.BeforeCall(ctx, "Bash", "c", ""); err != nil {
		b.Fatal(err)
	}
	first := time.Since(start)
	firstCPU := childCPU() - cpuFirst
	size0 := dirSize(b, state)
	cpu0 := childCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := filepath.Join(tree, "d7", fmt.Sprintf("f%d.dat", 700+i%benchPerDir))
		if err := os.WriteFile(p, []byte(fmt.Sprintf("change %d\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
		if _, err := s.BeforeCall(ctx, "Bash", "c"+strconv.Itoa(i), ""); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric((childCPU()-cpu0).Seconds()*1000/float64(b.N), "git-cpu-ms/op")
	b.ReportMetric(float64(dirSize(b, state)-size0)/float64(b.N), "shadow-B/op")
	// Metrics are reported after ResetTimer, which deletes them.
	b.ReportMetric(first.Seconds()*1000, "first-ms")
	b.ReportMetric(firstCPU.Seconds()*1000, "first-git-cpu-ms")
	b.ReportMetric(float64(promptWait.Microseconds())/1000, "first-prompt-wait-ms")
	s.Close()
	next, err := Open(Options{Dir: filepath.Join(state, "rewind-next"), WorkTree: tree, Shared: shared})
	if err != nil {
		b.Fatal(err)
	}
	defer next.Close()
	start = time.Now()
	if _, err := next.BeginPrompt(ctx, "next session"); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(time.Since(start).Seconds()*1000, "next-session-first-ms")
}
