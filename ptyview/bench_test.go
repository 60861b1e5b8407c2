package ptyview

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/tasks/pty"
)

// benchFileSize is the size of the file the pane benchmark cats.
const benchFileSize = 100 << 20

// writeTextFile writes about size bytes of text lines of varying length,
// most shorter than the pane is wide, some longer.
func writeTextFile(b *testing.B, size int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "cat.txt")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	const words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua ut enim ad minim veniam quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat duis aute irure dolor in reprehenderit"
	n := 0
	for i := 0; n < size; i++ {
		l := (i*7919)%len(words) + 1
		if i%50 == 0 {
			l = len(words) // a line that wraps
		}
		c, _ := fmt.Fprintf(w, "%08d %s\n", i, words[:l])
		n += c
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkPaneCat100MB draws `cat` of a 100 MB text file in a 160x48 pane
// the way the root does: a tick every FrameInterval calls Refresh and View.
// It reports the frames rendered, the worst and 99th-percentile frame time
// (Refresh+View; the goal is under 16 ms), the pane's throughput, and the
// same file catted in a detached tmux of the same size for reference
// (the goal is at least half of tmux's throughput).
func BenchmarkPaneCat100MB(b *testing.B) {
	path := writeTextFile(b, benchFileSize)
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	size := float64(info.Size())
	const w, h = 160, 48
	var paneTime, tmuxTime time.Duration
	var frames []time.Duration
	rendered := 0
	b.ResetTimer()
	for b.Loop() {
		m := pty.NewManager(pty.Options{Env: testEnv(b), KeepExited: -1})
		start := time.Now()
		s, err := m.Open(pty.OpenSpec{Argv: []string{"cat", path}, Rows: h, Cols: w})
		if err != nil {
			b.Fatal(err)
		}
		p := New(s)
		p.SetSize(w, h)
		tick := time.NewTicker(FrameInterval)
		for running := true; running; {
			select {
			case <-s.Done():
				running = false
			case now := <-tick.C:
				t0 := time.Now()
				if p.Refresh(now) {
					rendered++
				}
				_ = p.View()
				frames = append(frames, time.Since(t0))
			}
		}
		paneTime += time.Since(start)
		tick.Stop()
		p.Refresh(time.Now().Add(time.Hour))
		if text := screenText(p.View()); !slices.ContainsFunc(text, func(l string) bool { return len(l) > 8 }) {
			b.Fatalf("the final screen is empty: %q", text)
		}
		p.Close()
		m.CloseAll()

		b.StopTimer()
		tmuxTime += tmuxCat(b, path, w, h)
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(frames)
	mb := size / (1 << 20)
	n := float64(b.N)
	b.ReportMetric(float64(rendered)/n, "frames/op")
	if len(frames) > 0 {
		b.ReportMetric(ms(frames[len(frames)-1]), "max-frame-ms")
		b.ReportMetric(ms(frames[len(frames)*99/100]), "p99-frame-ms")
	}
	paneRate := mb * n / paneTime.Seconds()
	tmuxRate := mb * n / tmuxTime.Seconds()
	b.ReportMetric(paneRate, "pane-MB/s")
	b.ReportMetric(tmuxRate, "tmux-MB/s")
	b.ReportMetric(paneRate/tmuxRate, "vs-tmux")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// tmuxCat times `cat path` in a detached tmux window of w x h: from the
// start of the server to the end of cat's output in tmux's screen.
func tmuxCat(b *testing.B, path string, w, h int) time.Duration {
	b.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		b.Skip("tmux is not installed")
	}
	sock := fmt.Sprintf("ptyview-bench-%d", os.Getpid())
	conf := filepath.Join(b.TempDir(), "tmux.conf")
	if err := os.WriteFile(conf, []byte(tmuxConf), 0o600); err != nil {
		b.Fatal(err)
	}
	tmux := func(args ...string) {
		cmd := exec.Command("tmux", append([]string{"-L", sock}, args...)...)
		cmd.Env = append(os.Environ(), "TMUX=")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
	}
	defer exec.Command("tmux", "-L", sock, "kill-server").Run()
	start := time.Now()
	tmux("-f", conf, "new-session", "-d", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "-s", "t",
		fmt.Sprintf("cat %s; tmux -L %s wait-for -S done", shellQuote(path), sock))
	tmux("wait-for", "done")
	return time.Since(start)
}

// BenchmarkRenderColourful160x48 renders a screen of short coloured runs,
// the render part of a frame.
func BenchmarkRenderColourful160x48(b *testing.B) {
	g := newGrid(48, 160)
	for r := range 48 {
		for c := 0; c < 160; c += 8 {
			g.put(r, c, "word ", style{fg: pty.Color((r + c) % 256), bg: pty.ColorDefault, attr: pty.Attr(c/8) % 4})
		}
	}
	var rd renderer
	b.ReportAllocs()
	for b.Loop() {
		_ = rd.render(g, 160, 48, true)
	}
}
