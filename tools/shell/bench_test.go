package shell

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/tools"
)

// benchCommand prints exactly 1 GiB in 64-byte lines.
const (
	benchBytes   = 1 << 30
	benchCommand = `yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa | head -c 1073741824`
)

// BenchmarkBash1GiB runs a command printing 1 GiB through the Bash tool with
// a spill dir, against the same command redirected by the shell to a file.
// Metrics: x-baseline (wall time ratio, goal <= 1.5), x-baseline+fsync (the
// same against a baseline that also fsyncs its file, as a spill does),
// finish-share (the part of the call spent after the output was read, in
// Capture.Finish's fsync and rename),
// peak-rss-MiB (growth of the process's peak RSS, goal < 32) and
// go-sys-MiB (growth of memory the Go runtime holds).
//
// WB_BENCH_DIR puts the files elsewhere than the temp dir, e.g. on a tmpfs
// to measure the CPU cost without the disk:
//
//	go test -run '^$' -bench Bash1GiB -benchtime 1x ./tools/shell/
func BenchmarkBash1GiB(b *testing.B) {
	dir := b.TempDir()
	if d := os.Getenv("WB_BENCH_DIR"); d != "" {
		var err error
		if dir, err = os.MkdirTemp(d, "bench"); err != nil {
			b.Fatal(err)
		}
		defer os.RemoveAll(dir)
	}
	spillDir := filepath.Join(dir, "spill")
	tool := Bash()
	input, err := tool.Schema().Prepare([]byte(cmd(benchCommand, 600000)))
	if err != nil {
		b.Fatal(err)
	}
	var base, synced, ours, finish time.Duration
	var peakGrowth, sysGrowth int64
	for b.Loop() {
		b.StopTimer()
		file := filepath.Join(dir, "baseline.txt")
		t0 := time.Now()
		if out, err := exec.Command("bash", "-c", benchCommand+` > "$0"`, file).CombinedOutput(); err != nil {
			b.Fatalf("baseline: %v %s", err, out)
		}
		d := time.Since(t0)
		base += d
		f, err := os.Open(file)
		if err != nil {
			b.Fatal(err)
		}
		t0 = time.Now()
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
		synced += d + time.Since(t0)
		fi, _ := f.Stat()
		f.Close()
		os.Remove(file)
		// Let the filesystem finish freeing the file (this disk is mounted
		// with discard) before the next measurement, which would otherwise
		// pay for it in its own fsync.
		syscall.Sync()
		if fi.Size() != benchBytes {
			b.Fatalf("baseline wrote %d bytes", fi.Size())
		}

		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rss := resetPeakRSS(b)
		b.StartTimer()

		t0 = time.Now()
		res, err := tool.Call(b.Context(), input, &tools.Context{WorkDir: dir, SpillDir: spillDir, Tool: "Bash"})
		d = time.Since(t0)
		ours += d

		b.StopTimer()
		peakGrowth = max(peakGrowth, procStatus(b, "VmHWM")-rss)
		runtime.ReadMemStats(&after)
		sysGrowth = max(sysGrowth, int64(after.Sys)-int64(before.Sys))
		if err != nil || res.IsError || res.Spill == nil || res.Spill.Bytes != benchBytes {
			b.Fatalf("Bash: err %v, error %v, spill %+v", err, res.IsError, res.Spill)
		}
		os.Remove(res.Spill.Path)
		syscall.Sync()
		// Meta's duration ends when the output was read; the rest of the
		// call is Capture.Finish: fsync and rename of the spill file.
		var m Meta
		json.Unmarshal(res.Meta, &m)
		finish += d - time.Duration(m.DurationMS)*time.Millisecond
		b.StartTimer()
	}
	b.ReportMetric(float64(ours)/float64(base), "x-baseline")
	b.ReportMetric(float64(ours)/float64(synced), "x-baseline+fsync")
	b.ReportMetric(float64(finish)/float64(ours), "finish-share")
	b.ReportMetric(float64(peakGrowth)/(1<<20), "peak-rss-MiB")
	b.ReportMetric(float64(sysGrowth)/(1<<20), "go-sys-MiB")
}

// resetPeakRSS makes VmHWM start again from the current RSS (Linux
// clear_refs value 5) and returns that RSS in bytes.
func resetPeakRSS(b *testing.B) int64 {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Skipf("cannot reset peak RSS: %v", err)
	}
	return procStatus(b, "VmRSS")
}

// procStatus reads a size field of /proc/self/status, in bytes.
func procStatus(b *testing.B, field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Skipf("no /proc/self/status: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := bytes.Cut(sc.Bytes(), []byte(":"))
		if !ok || string(name) != field {
			continue
		}
		fields := bytes.Fields(rest)
		kb, err := strconv.ParseInt(string(fields[0]), 10, 64)
		if err != nil {
			b.Fatalf("%s: %q", field, rest)
		}
		return kb << 10
	}
	b.Fatalf("no %s in /proc/self/status", field)
	return 0
}
