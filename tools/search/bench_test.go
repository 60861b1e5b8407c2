package search

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/tools"
)

// The benchmarks search the Go module cache, a large real tree, in content
// mode. Compare BenchmarkGrepRipgrep and BenchmarkGrepGoWalker with
// BenchmarkGrepRawRipgrep, which is `rg -n` alone:
//
//	go test -run '^$' -bench Grep -benchtime 3x ./tools/search/
const benchPattern = `func New[A-Z]\w*\(`

func modCache(b *testing.B) string {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		b.Skip("no module cache")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		b.Skip("no module cache at " + dir)
	}
	return dir
}

func benchTool(b *testing.B, tool tools.Tool) {
	dir := modCache(b)
	input, err := json.Marshal(map[string]any{"pattern": benchPattern, "output_mode": "content", "head_limit": 0})
	if err != nil {
		b.Fatal(err)
	}
	in, err := tool.Schema().Prepare(input)
	if err != nil {
		b.Fatal(err)
	}
	tc := &tools.Context{WorkDir: dir}
	var pg page
	cpu := startCPU()
	for b.Loop() {
		res, err := tool.Call(context.Background(), in, tc)
		if err != nil || res.IsError {
			b.Fatalf("%v %s", err, res.Text)
		}
		if err := json.Unmarshal(res.Meta, &pg); err != nil {
			b.Fatal(err)
		}
	}
	cpu.report(b)
	b.ReportMetric(float64(pg.Total), "lines")
}

// cpuClock measures the processor time of this process and its children,
// a figure that other load on the machine disturbs less than wall time.
type cpuClock struct{ start time.Duration }

func startCPU() cpuClock { return cpuClock{start: cpuUsed()} }

func (c cpuClock) report(b *testing.B) {
	b.ReportMetric(float64((cpuUsed()-c.start).Milliseconds())/float64(b.N), "cpu-ms/op")
}

func cpuUsed() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}

func BenchmarkGrepGoWalker(b *testing.B) {
	benchTool(b, newGrep(goEngine))
}

func BenchmarkGrepRipgrep(b *testing.B) {
	rg := findRipgrep()
	if rg == "" {
		b.Skip("rg is not installed")
	}
	benchTool(b, newGrep(func() string { return rg }))
}

func BenchmarkGrepRawRipgrep(b *testing.B) {
	rg := findRipgrep()
	if rg == "" {
		b.Skip("rg is not installed")
	}
	dir := modCache(b)
	cpu := startCPU()
	for b.Loop() {
		cmd := exec.Command(rg, "-n", benchPattern)
		cmd.Dir = dir
		cmd.Stdout = io.Discard
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
	cpu.report(b)
}
