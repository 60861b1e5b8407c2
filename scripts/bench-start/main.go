// Command bench-start measures how a terminal program starts: the time from
// exec to its first full frame (the screen shows the ready text), the CPU it
// used to get there, and its resident memory and CPU use once it sits idle.
// It runs the program on a real pseudo-terminal whose output is drawn by a
// terminal emulator, so "first full frame" means what a person would see.
// With -vs it measures other programs in the same run, round by round, and
// prints the ratio of the first program to each of them pair by pair: on a
// shared machine only ratios taken together mean much. -vs, -vs-ready and
// -vs-env may be given several times; the n-th of each go together.
//
//	go run ./scripts/bench-start -n 5 -ready '0 tokens' -- bin/workbench
//	go run ./scripts/bench-start -ready '0 tokens' -vs-ready 'ctrl+p' -vs crush -- bin/workbench
//	go run ./scripts/bench-start -ready '0 tokens' -vs old/workbench -vs-ready '0 tokens' -vs-env '' \
//		-vs crush -vs-ready 'ctrl+p' -vs-env 'ANTHROPIC_API_KEY=x' -- bin/workbench
//
// The resident memory of a program includes the pages of its binary that it
// maps, and how many a fault maps depends on how the file came into the page
// cache: a binary just written by the linker sits in large folios and is
// mapped 2 MB at a time, one read back from disk in readahead-sized pieces.
// So that two binaries are measured alike, each is dropped from the page
// cache first (-evict) and started once unmeasured (-warmup).
//
// It is not a test and asserts nothing; `make bench-start` runs it.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Defaults of one measurement.
const (
	// defaultSettle is how long a program sits after its first frame before
	// its memory is read: long enough for the start-up work to end.
	defaultSettle = 3 * time.Second
	// defaultIdle is the window idle CPU is measured over.
	defaultIdle = 10 * time.Second
	// readyBound gives up on a program that never shows its ready text.
	readyBound = 60 * time.Second
)

func main() {
	n := flag.Int("n", 5, "runs of each program")
	cols := flag.Int("cols", 120, "terminal columns")
	rows := flag.Int("rows", 40, "terminal rows")
	ready := flag.String("ready", "", "text on the screen that marks the first full frame (required)")
	var vs, vsReady, vsEnv repeated
	flag.Var(&vs, "vs", "another program to measure in the same run, as one string split at spaces (repeatable)")
	flag.Var(&vsReady, "vs-ready", "the ready text of the -vs program given in the same place (repeatable)")
	flag.Var(&vsEnv, "vs-env", "NAME=VALUE pairs, split at spaces, added to the environment of the -vs program given in the same place (repeatable)")
	evict := flag.Bool("evict", true, "drop each program's binary from the page cache before its runs")
	warmup := flag.Int("warmup", 1, "unmeasured runs of each program first")
	settle := flag.Duration("settle", defaultSettle, "wait after the first frame before reading memory")
	idle := flag.Duration("idle", defaultIdle, "window to measure idle CPU over (0: skip)")
	dir := flag.String("dir", "", "working directory of the programs (default: a new temporary one)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: bench-start [flags] -ready TEXT -- PROGRAM [ARG...]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *ready == "" || flag.NArg() == 0 || len(vsReady) != len(vs) || len(vsEnv) > len(vs) {
		flag.Usage()
		os.Exit(2)
	}
	work := *dir
	if work == "" {
		d, err := os.MkdirTemp("", "bench-start-*")
		if err != nil {
			fail(err)
		}
		defer os.RemoveAll(d)
		if err := exec.Command("git", "init", "-q", d).Run(); err != nil {
			fail(fmt.Errorf("git init %s: %w", d, err))
		}
		work = d
	}
	progs := []program{{argv: flag.Args(), ready: *ready}}
	for i, v := range vs {
		p := program{argv: strings.Fields(v), ready: vsReady[i]}
		if i < len(vsEnv) {
			p.env = strings.Fields(vsEnv[i])
		}
		if len(p.argv) == 0 || p.ready == "" {
			flag.Usage()
			os.Exit(2)
		}
		progs = append(progs, p)
	}
	m := measurer{cols: *cols, rows: *rows, settle: *settle, idle: *idle, dir: work}
	fmt.Printf("load %s; %d runs each, %dx%d, settle %v, idle window %v\n", loadavg(), *n, *cols, *rows, *settle, *idle)
	for i := range progs {
		// The programs run in work, so a relative path is made absolute.
		path, err := exec.LookPath(progs[i].argv[0])
		if err == nil {
			path, err = filepath.Abs(path)
		}
		if err != nil {
			fail(err)
		}
		progs[i].argv[0] = path
	}
	for _, p := range progs {
		if *evict {
			if err := dropFromPageCache(p.argv[0]); err != nil {
				fail(err)
			}
		}
		for i := 0; i < *warmup; i++ {
			w := m
			w.settle, w.idle = 0, 0
			if _, err := w.run(p); err != nil {
				fail(fmt.Errorf("%s (warm-up): %w", p.name(), err))
			}
		}
	}
	if *evict || *warmup > 0 {
		fmt.Printf("page cache: binaries dropped first: %v; warm-up runs: %d each\n", *evict, *warmup)
	}
	results := make([][]sample, len(progs))
	for round := 0; round < *n; round++ {
		for i, p := range progs {
			s, err := m.run(p)
			if err != nil {
				fail(fmt.Errorf("%s: %w", p.name(), err))
			}
			results[i] = append(results[i], s)
			fmt.Printf("  %-28s run %d: %s\n", p.label(i), round+1, s)
		}
	}
	fmt.Printf("load %s at the end\n", loadavg())
	for i, p := range progs {
		fmt.Printf("%s (median of %d):\n  %s\n", p.label(i), len(results[i]), median(results[i]))
	}
	for i := 1; i < len(progs); i++ {
		fmt.Printf("ratio %s / %s, pair by pair:\n", progs[0].label(0), progs[i].label(i))
		printRatios(results[0], results[i])
	}
}

// repeated is a flag that may be given several times.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ", ") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

// program is one program to measure.
type program struct {
	argv  []string
	ready string
	env   []string // added to the environment bench-start was given
}

func (p program) name() string {
	b := p.argv[0]
	if i := strings.LastIndexByte(b, '/'); i >= 0 {
		b = b[i+1:]
	}
	return b
}

// label names the i-th program in the report: its binary's name, with
// its place when two programs' binaries have the same name (an older
// workbench against this one).
func (p program) label(i int) string {
	if i == 0 {
		return p.name()
	}
	return fmt.Sprintf("%s (vs %d: %s)", p.name(), i, p.argv[0])
}

// sample is one run's figures.
type sample struct {
	frame    time.Duration // exec to the first full frame, wall
	frameCPU time.Duration // CPU used by then
	// frameChildCPU is the CPU of the children it had waited for by then
	frameChildCPU time.Duration
	rss           int64         // kB, after settling
	anon          int64         // kB of it anonymous
	file          int64         // kB of it file-backed (the binary, libraries)
	idleCPU       time.Duration // CPU used over the idle window
	idleWin       time.Duration
}

func (s sample) String() string {
	idle := "-"
	if s.idleWin > 0 {
		idle = fmt.Sprintf("%.2f%% of a core (%v in %v)", 100*s.idleCPU.Seconds()/s.idleWin.Seconds(), s.idleCPU, s.idleWin)
	}
	return fmt.Sprintf("first frame %v (CPU %v, children %v); RSS %.1f MB (anon %.1f, file %.1f); idle %s",
		s.frame.Round(time.Millisecond), s.frameCPU, s.frameChildCPU, mb(s.rss), mb(s.anon), mb(s.file), idle)
}

func mb(kb int64) float64 { return float64(kb) * 1024 / 1e6 }

// median is the median of each figure on its own.
func median(ss []sample) sample {
	pick := func(f func(sample) int64) int64 {
		v := make([]int64, len(ss))
		for i, s := range ss {
			v[i] = f(s)
		}
		sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
		return v[len(v)/2]
	}
	return sample{
		frame:         time.Duration(pick(func(s sample) int64 { return int64(s.frame) })),
		frameCPU:      time.Duration(pick(func(s sample) int64 { return int64(s.frameCPU) })),
		frameChildCPU: time.Duration(pick(func(s sample) int64 { return int64(s.frameChildCPU) })),
		rss:           pick(func(s sample) int64 { return s.rss }),
		anon:          pick(func(s sample) int64 { return s.anon }),
		file:          pick(func(s sample) int64 { return s.file }),
		idleCPU:       time.Duration(pick(func(s sample) int64 { return int64(s.idleCPU) })),
		idleWin:       ss[0].idleWin,
	}
}

// printRatios prints A/B of each pair (run i of A with run i of B) as
// min, median and max.
func printRatios(a, b []sample) {
	ratio := func(name string, f func(sample) float64) {
		var r []float64
		for i := range a {
			if f(b[i]) > 0 {
				r = append(r, f(a[i])/f(b[i]))
			}
		}
		if len(r) == 0 {
			return
		}
		sort.Float64s(r)
		fmt.Printf("  %-22s min %.2f  median %.2f  max %.2f\n", name, r[0], r[len(r)/2], r[len(r)-1])
	}
	ratio("first frame (wall)", func(s sample) float64 { return float64(s.frame) })
	ratio("first frame (CPU)", func(s sample) float64 { return float64(s.frameCPU) })
	ratio("with children's CPU", func(s sample) float64 { return float64(s.frameCPU + s.frameChildCPU) })
	ratio("RSS", func(s sample) float64 { return float64(s.rss) })
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:3], " ")
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "bench-start: %v\n", err)
	os.Exit(1)
}
