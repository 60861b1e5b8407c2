package ui

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/sys/unix"

	"github.com/seed92b641c3/workbench/agent"
)

// longSessionScript is n model turns, each a short text and one Read of 50
// lines, as session's BenchmarkLongSession2000 plays headless, and a last
// "done".
func longSessionScript(n int) string {
	turns := make([]string, 0, n+1)
	for i := range n {
		turns = append(turns, fmt.Sprintf(`{"text":"Turn %d: reading the file again.","tool_calls":[{"id":"r%d","name":"Read","input":{"file_path":"f.txt","limit":50}}]}`, i, i))
	}
	turns = append(turns, `{"text":"done"}`)
	return `{"turns":[` + strings.Join(turns, ",") + `]}`
}

// BenchmarkTUILongSession2000 is the long-session benchmark with the TUI in
// front: 2,000 turns through a real agent session and the root model, with
// Update and View after every message as bubbletea calls them. It reports
//   - the live heap and the process's RSS after the run (goal: the TUI
//     holds at most 150 MB),
//   - the cost of a turn around turn 100 and around turn 2,000: the UI's own
//     (Update + View for the turn's messages) and the whole process's CPU,
//     and their ratio (goal: at most 1.2),
//   - the frame time of scrolling from the end to the top a page at a time
//     and back (goal: under 16 ms a frame).
func BenchmarkTUILongSession2000(b *testing.B) {
	const n = 2000
	var lines strings.Builder
	for i := range 200 {
		fmt.Fprintf(&lines, "line %d of the file the session reads again and again\n", i)
	}
	for range b.N {
		a := newApp(b, longSessionScript(n), 120, 40, appOptions{
			allow: []string{"Read"},
			files: map[string]string{"f.txt": lines.String()},
		})
		m := playLongSession(b, a, n)
		scrollTopAndBack(b, a)
		b.StopTimer()
		a.m.View()
		reportMemory(b)
		b.ReportMetric(m.uiEarly, "ui-µs/turn@100")
		b.ReportMetric(m.uiLate, "ui-µs/turn@2000")
		b.ReportMetric(m.uiLate/m.uiEarly, "ui-late/early")
		b.ReportMetric(m.cpuEarly, "cpu-µs/turn@100")
		b.ReportMetric(m.cpuLate, "cpu-µs/turn@2000")
		b.ReportMetric(m.cpuLate/m.cpuEarly, "cpu-late/early")
		b.StartTimer()
	}
}

// turnCosts are the per-turn costs around turn 100 (turns 51-150) and turn
// 2,000 (turns 1,901-2,000), in microseconds.
type turnCosts struct {
	uiEarly, uiLate   float64
	cpuEarly, cpuLate float64
}

// playLongSession sends the prompt and delivers every message until the
// run ends, timing the UI's work per turn. A turn is counted when its tool
// result reaches Update; a batch of events counts for its last turn.
func playLongSession(b *testing.B, a *app, n int) turnCosts {
	b.Helper()
	ui := make([]time.Duration, n+2)
	cpu := map[int]time.Duration{}
	marks := map[int]bool{50: true, 150: true, n - 100: true, n: true}
	turn := 0
	a.prompt("go")
	a.m.View()
	deadline := time.After(30 * time.Minute)
	for a.m.running || a.runsEnded < a.runsStarted {
		var msg tea.Msg
		select {
		case msg = <-a.msgs:
		case <-deadline:
			b.Fatalf("the run did not end; at turn %d", turn)
		}
		start := time.Now()
		a.send(msg)
		a.m.View()
		took := time.Since(start)
		if evs, ok := msg.(eventsMsg); ok {
			for _, ev := range evs {
				if ev.Kind == agent.EventToolResult {
					turn++
					if marks[turn] {
						cpu[turn] = processCPU()
					}
				}
			}
		}
		ui[min(turn, n+1)] += took
	}
	if turn != n {
		b.Fatalf("%d turns reached the UI, want %d", turn, n)
	}
	sum := func(from, to int) float64 {
		var d time.Duration
		for i := from; i <= to; i++ {
			d += ui[i]
		}
		return float64(d.Microseconds()) / float64(to-from+1)
	}
	perTurn := func(from, to int) float64 {
		return float64((cpu[to] - cpu[from]).Microseconds()) / float64(to-from)
	}
	return turnCosts{
		uiEarly: sum(51, 150), uiLate: sum(n-99, n),
		cpuEarly: perTurn(50, 150), cpuLate: perTurn(n-100, n),
	}
}

// scrollTopAndBack pages from the end of the conversation to its top and
// back, one key and one frame at a time, and reports the frame times. The
// end of a direction is the frame that no longer changes.
func scrollTopAndBack(b *testing.B, a *app) {
	b.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var frames, cpu []time.Duration
	page := func(key rune) {
		prev := a.m.render()
		for range 100_000 {
			start, startCPU := time.Now(), threadCPU()
			a.send(tea.KeyPressMsg{Code: key})
			v := a.m.View()
			cpu = append(cpu, threadCPU()-startCPU)
			frames = append(frames, time.Since(start))
			now := v.Content
			if now == prev {
				return
			}
			prev = now
		}
		b.Fatal("paging never reached the end")
	}
	page(tea.KeyPgUp)
	up := len(frames)
	page(tea.KeyPgDown)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	report := func(ds []time.Duration, unit string) {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		var total time.Duration
		for _, d := range ds {
			total += d
		}
		b.ReportMetric(ms(total)/float64(len(ds)), "scroll-"+unit+"-ms/frame")
		b.ReportMetric(ms(ds[len(ds)*99/100]), "scroll-"+unit+"-p99-ms")
		b.ReportMetric(ms(ds[len(ds)-1]), "scroll-"+unit+"-max-ms")
	}
	b.ReportMetric(float64(up), "pages-to-top")
	report(frames, "wall")
	report(cpu, "cpu")
}

// reportMemory reports the live heap after a collection and the process's
// resident memory.
func reportMemory(b *testing.B) {
	b.Helper()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-MiB")
	if st, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(st), "\n") {
			if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
				b.ReportMetric(kb*1024/1e6, "rss-MB")
			}
		}
	}
}

// threadCPU is the CPU time of the calling thread so far: with the
// goroutine locked to its thread, what one frame cost in CPU, which a
// loaded machine does not stretch as it stretches wall time.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// processCPU is the user and system time of the whole process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
