package viewer

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/tools"
)

// bigSize is the size of the benchmark file: the 1 GiB.
const bigSize = 1 << 30

// genBig writes a 1 GiB file of log-like lines (about 100 bytes each,
// some coloured) and returns its path and its spill record.
func genBig(b *testing.B) (string, *tools.Spill) {
	b.Helper()
	p := filepath.Join(b.TempDir(), "big.log")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sum := sha256.New()
	w := bufio.NewWriterSize(io.MultiWriter(f, sum), 1<<20)
	var line []byte
	var written, lines int64
	for i := int64(0); written < bigSize; i++ {
		line = strconv.AppendInt(line[:0], 1_000_000_000+i, 10)
		line = append(line, " 2025-06-01T12:00:00Z "...)
		if i%50 == 0 {
			line = append(line, "\x1b[31mERROR\x1b[0m"...)
		} else {
			line = append(line, "INFO "...)
		}
		line = append(line, " worker="...)
		line = strconv.AppendInt(line, i%16, 10)
		line = append(line, " request handled in "...)
		line = strconv.AppendInt(line, i%997, 10)
		line = append(line, "ms status=200 path=/api/v1/items\n"...)
		line = line[:min(int64(len(line)), bigSize-written)]
		w.Write(line)
		written += int64(len(line))
		lines++
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	return p, &tools.Spill{Path: p, Bytes: written, Lines: lines, SHA256: hex.EncodeToString(sum.Sum(nil)),
		CallID: "toolu_bench", Tool: "Bash", Time: time.Now()}
}

// heapPeak samples the heap in use (live and not yet collected), which is
// what the process holds at its worst between collections.
type heapPeak struct {
	ms   runtime.MemStats
	peak uint64
}

func (h *heapPeak) sample() {
	runtime.ReadMemStats(&h.ms)
	h.peak = max(h.peak, h.ms.HeapAlloc)
}

func (h *heapPeak) report(b *testing.B) {
	b.ReportMetric(float64(h.peak)/(1<<20), "peak-heap-MiB")
}

// BenchmarkOpen1GiB measures Open and the first View of a 1 GiB file. The
// goal is under 200 ms and under 64 MiB of heap.
func BenchmarkOpen1GiB(b *testing.B) {
	p, _ := genBig(b)
	runtime.GC()
	var h heapPeak
	for b.Loop() {
		v, err := Open(p, Options{})
		if err != nil {
			b.Fatal(err)
		}
		v.Init()
		v.View(120, 40)
		b.StopTimer()
		h.sample()
		v.Close()
		b.StartTimer()
	}
	h.report(b)
}

// BenchmarkGoToEnd1GiB measures G and the View after it on a 1 GiB file
// whose lines have not been counted: the end is found from the last few KiB.
func BenchmarkGoToEnd1GiB(b *testing.B) {
	p, _ := genBig(b)
	v, err := Open(p, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	v.View(120, 40)
	runtime.GC()
	var h heapPeak
	for b.Loop() {
		v.Update(press("G"))
		v.View(120, 40)
		b.StopTimer()
		h.sample()
		v.Update(press("g"))
		v.View(120, 40)
		b.StartTimer()
	}
	h.report(b)
}

// BenchmarkBackgroundWork1GiB measures how long the line count and the
// sha256 check of a 1 GiB spill file take when the root answers every
// StepMsg at once, and the heap they need.
func BenchmarkBackgroundWork1GiB(b *testing.B) {
	p, rec := genBig(b)
	runtime.GC()
	var h heapPeak
	for b.Loop() {
		v, err := Open(p, Options{Spill: rec})
		if err != nil {
			b.Fatal(err)
		}
		steps := 0
		for v.Step(stepBudget) {
			if steps++; steps%16 == 0 {
				h.sample()
			}
		}
		h.sample()
		if v.prov.state != hashMatch {
			b.Fatalf("sha256 state %v", v.prov.state)
		}
		b.ReportMetric(float64(steps), "steps")
		v.Close()
	}
	h.report(b)
}

// BenchmarkSearchMiss1GiB measures a search through the whole 1 GiB file
// for a pattern that is not there, the longest a search can take.
func BenchmarkSearchMiss1GiB(b *testing.B) {
	p, _ := genBig(b)
	v, err := Open(p, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	v.View(120, 40)
	runtime.GC()
	var h heapPeak
	for b.Loop() {
		keys(v, "/", "status=404", "enter")
		for v.search.active {
			v.Step(stepBudget)
		}
		h.sample()
		if v.search.found {
			b.Fatal("found a pattern that is not there")
		}
	}
	h.report(b)
}
