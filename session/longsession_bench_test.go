package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/agent"
)

// longScript is a scripted session of n model turns, each a short text and
// one Read of 50 lines, as the long-session issue measured.
func longScript(b *testing.B, dir string, n int) string {
	var lines strings.Builder
	for i := range 200 {
		fmt.Fprintf(&lines, "line %d of the file the session reads again and again\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(lines.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	var turns []string
	for i := range n {
		turns = append(turns, fmt.Sprintf(`{"text":"Turn %d: reading the file again.","tool_calls":[{"id":"r%d","name":"Read","input":{"file_path":"f.txt","limit":50}}]}`, i, i))
	}
	turns = append(turns, `{"text":"done"}`)
	p := filepath.Join(dir, "long.json")
	if err := os.WriteFile(p, []byte(`{"turns":[`+strings.Join(turns, ",")+`]}`), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkLongSession2000 plays 2,000 turns headless through a whole
// session (transcript, stage events, the real Read) and reports the live
// heap at the end against the transcript's size (goal: at most 4x).
func BenchmarkLongSession2000(b *testing.B) {
	benchLongSession(b, 2000)
}

// BenchmarkLongSession500 is the same at a quarter of the length, so the
// growth per turn can be compared in one run.
func BenchmarkLongSession500(b *testing.B) {
	benchLongSession(b, 500)
}

func benchLongSession(b *testing.B, n int) {
	b.Setenv("XDG_STATE_HOME", b.TempDir())
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	for range b.N {
		dir := b.TempDir()
		scriptFile := longScript(b, dir, n)
		cfg, err := Load(Options{Dir: dir, Allow: []string{"Read"}})
		if err != nil {
			b.Fatal(err)
		}
		s, err := Open(cfg, Model{Script: scriptFile}, Wiring{Approver: agent.Headless{}})
		if err != nil {
			b.Fatal(err)
		}
		out := s.Agent.Prompt(context.Background(), "go")
		if out.StopReason != agent.StopCompleted || out.Turns != n+1 {
			b.Fatalf("outcome %+v", out)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		st, err := os.Stat(s.Dir.Transcript())
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-MiB")
		b.ReportMetric(float64(st.Size())/(1<<20), "transcript-MiB")
		b.ReportMetric(float64(ms.HeapAlloc)/float64(st.Size()), "heap/transcript")
		if f := os.Getenv("WORKBENCH_HEAP_PROFILE"); f != "" {
			// go tool pprof -sample_index=inuse_space on this file shows
			// what the session holds at its end.
			out, err := os.Create(f)
			if err != nil {
				b.Fatal(err)
			}
			pprof.WriteHeapProfile(out)
			out.Close()
		}
		runtime.KeepAlive(s)
		s.Close("exit")
	}
}
