package viewer

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// peakRSS returns the process's resident-set high-water mark (VmHWM) in
// MiB, and resetPeakRSS starts it again from the current RSS (Linux).
func peakRSS(b *testing.B) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status")
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	b.Skip("no VmHWM")
	return 0
}

func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// BenchmarkSearchFar20MLines is the case: `/row019999998` in a
// 20-million-line file (row000000001 ... row020000000, 260 MB), from the
// top, in the 8 ms steps the UI gives it. peak-RSS-MiB is the whole test
// process's resident high-water mark during the searches (the file is
// read with pread into one reused buffer, never mapped or loaded).
func BenchmarkSearchFar20MLines(b *testing.B) {
	p := rowsFile(b, 20_000_000)
	runtime.GC()
	resetPeakRSS()
	b.ReportAllocs()
	var h heapPeak
	for b.Loop() {
		v, err := Open(p, Options{})
		if err != nil {
			b.Fatal(err)
		}
		v.View(120, 40)
		keys(v, "/", "row019999998", "enter")
		for v.search.active {
			v.Step(stepBudget)
			h.sample()
		}
		if !v.search.found || v.search.cur.row != 19_999_997*13 {
			b.Fatalf("found %v at %d", v.search.found, v.search.cur.row)
		}
		v.Close()
	}
	h.report(b)
	b.ReportMetric(peakRSS(b), "peak-RSS-MiB")
}
