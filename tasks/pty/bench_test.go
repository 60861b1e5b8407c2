package pty

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// benchMB is the size of the flood; WB_PTY_BENCH_MB changes it. The plain
// vt10x path is measured on a fifth of it (WB_PTY_BENCH_VT10X_MB), as it
// takes minutes for 100 MB on a slow machine; MB/s compare all the same.
func benchMB(env string, def int) int64 {
	if n, err := strconv.Atoi(os.Getenv(env)); err == nil && n > 0 {
		return int64(n) << 20
	}
	return int64(def) << 20
}

// writeFlood writes size bytes of text lines of varied length (under 160
// columns, as build and test logs are) and returns the last line.
func writeFlood(tb testing.TB, path string, size int64) string {
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	words := []string{"compiling", "package", "ok", "github.com/seed92b641c3/workbench", "PASS", "--- RUN", "TestSomething", "0.012s", "warning:", "unused", "variable"}
	var written int64
	var line []byte
	for n := 0; written < size; n++ {
		line = strconv.AppendInt(line[:0], int64(n), 10)
		for i := 0; len(line) < 20+n*7%130; i++ {
			line = append(line, ' ')
			line = append(line, words[(n+i)%len(words)]...)
		}
		line = append(line, '\n')
		w.Write(line)
		written += int64(len(line))
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return string(bytes.TrimSuffix(line, []byte("\n")))
}

// peakHeap samples the heap while a run lasts.
type peakHeap struct {
	stop chan struct{}
	done chan struct{}
	max  uint64
}

func watchHeap() *peakHeap {
	p := &peakHeap{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			p.max = max(p.max, ms.HeapInuse)
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
		}
	}()
	return p
}

func (p *peakHeap) end() float64 {
	close(p.stop)
	<-p.done
	return float64(p.max) / (1 << 20)
}

type flood struct{ path, last string }

// floods makes the flood files once per size, in a directory that lasts as
// long as the whole benchmark.
type floods struct {
	dir   string
	mu    sync.Mutex
	files map[int64]flood
}

func (f *floods) get(b *testing.B, size int64) flood {
	f.mu.Lock()
	defer f.mu.Unlock()
	if fl, ok := f.files[size]; ok {
		return fl
	}
	path := filepath.Join(f.dir, fmt.Sprintf("flood-%d.txt", size))
	fl := flood{path: path, last: writeFlood(b, path, size)}
	f.files[size] = fl
	return fl
}

// BenchmarkPTYThroughput: a child writes text lines into a 160x48 session
// until the screen is current. discard reads the same pty into io.Discard
// (the ceiling), session is the Session with its fast path, vt10x the
// Session feeding every byte to the emulator, tmux the reference terminal
// multiplexer. ratio-discard is each one's speed over discard's.
func BenchmarkPTYThroughput(b *testing.B) {
	const rows, cols = 48, 160
	files := &floods{dir: b.TempDir(), files: map[int64]flood{}}
	var discardSpeed float64
	report := func(b *testing.B, size int64, elapsed time.Duration) {
		speed := float64(size) * float64(b.N) / elapsed.Seconds() / 1e6
		if discardSpeed > 0 {
			b.ReportMetric(speed/discardSpeed, "ratio-discard")
		}
	}

	b.Run("discard", func(b *testing.B) {
		size := benchMB("WB_PTY_BENCH_MB", 100)
		fl := files.get(b, size)
		b.SetBytes(size)
		b.ResetTimer()
		start := time.Now()
		for range b.N {
			if n := rawPTYCopy(b, fl.path, rows, cols); n < size {
				b.Fatalf("read %d of %d bytes", n, size)
			}
		}
		elapsed := time.Since(start)
		discardSpeed = float64(size) * float64(b.N) / elapsed.Seconds() / 1e6
	})

	session := func(plain bool, env string, def int) func(b *testing.B) {
		return func(b *testing.B) {
			size := benchMB(env, def)
			fl := files.get(b, size)
			m := NewManager(Options{plainFeed: plain})
			defer m.CloseAll()
			b.SetBytes(size)
			b.ReportAllocs()
			heap := watchHeap()
			b.ResetTimer()
			start := time.Now()
			for range b.N {
				s, err := m.Open(OpenSpec{Argv: []string{"cat", fl.path}, Rows: rows, Cols: cols})
				if err != nil {
					b.Fatal(err)
				}
				<-s.Done()
				sc := s.Snapshot()
				if got := sc.Line(sc.CursorRow - 1); got != fl.last {
					b.Fatalf("the screen's last line is %q, want %q", got, fl.last)
				}
				if s.Total() < size {
					b.Fatalf("the session read %d of %d bytes", s.Total(), size)
				}
			}
			elapsed := time.Since(start)
			b.StopTimer()
			b.ReportMetric(heap.end(), "peak-heap-MiB")
			report(b, size, elapsed)
		}
	}
	b.Run("session", session(false, "WB_PTY_BENCH_MB", 100))
	b.Run("vt10x", session(true, "WB_PTY_BENCH_VT10X_MB", 20))

	b.Run("tmux", func(b *testing.B) {
		if _, err := exec.LookPath("tmux"); err != nil {
			b.Skip("tmux is not installed")
		}
		size := benchMB("WB_PTY_BENCH_MB", 100)
		fl := files.get(b, size)
		sock := filepath.Join(b.TempDir(), "tmux.sock")
		b.SetBytes(size)
		b.ResetTimer()
		start := time.Now()
		for range b.N {
			run := func(args ...string) {
				cmd := exec.Command("tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("tmux %v: %v\n%s", args, err, out)
				}
			}
			run("new-session", "-d", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows),
				fmt.Sprintf("cat %s; tmux -S %s wait -S done; sleep 60", fl.path, sock))
			run("wait", "done")
			b.StopTimer()
			run("kill-server")
			b.StartTimer()
		}
		report(b, size, time.Since(start))
	})
}

// rawPTYCopy runs cat path in a pty and reads everything into io.Discard.
func rawPTYCopy(b *testing.B, path string, rows, cols int) int64 {
	master, slave, err := openPTY(rows, cols)
	if err != nil {
		b.Fatal(err)
	}
	defer master.Close()
	cmd := exec.Command("cat", path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	slave.Close()
	n, err := io.CopyBuffer(io.Discard, onlyReader{master}, make([]byte, readSize))
	if err != nil && !errors.Is(err, syscall.EIO) {
		b.Fatal(err)
	}
	_ = cmd.Wait()
	return n
}

// onlyReader hides WriteTo and ReadFrom so io.Copy uses the buffer.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }
