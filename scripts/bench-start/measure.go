package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"github.com/hinshun/vt10x"
)

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat times
// (100 on Linux everywhere it runs today).
const clockTicks = 100

// stopBound is how long a program gets to end after SIGTERM.
const stopBound = 5 * time.Second

// measurer runs programs one at a time on a terminal of a fixed size.
type measurer struct {
	cols, rows int
	settle     time.Duration
	idle       time.Duration
	dir        string
}

// run starts p, waits for its first full frame, lets it settle, reads its
// memory and idle CPU, and ends it.
func (m measurer) run(p program) (sample, error) {
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Dir = m.dir
	cmd.Env = append(append(os.Environ(), "TERM=xterm-256color", "COLORTERM=truecolor"), p.env...)
	start := time.Now()
	master, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(m.cols), Rows: uint16(m.rows)})
	if err != nil {
		return sample{}, err
	}
	defer master.Close()
	var s sample
	readyAt := make(chan struct{})
	var once sync.Once
	// The emulator answers the queries a terminal answers (cursor
	// position, device attributes) on the program's input.
	vt := vt10x.New(vt10x.WithSize(m.cols, m.rows), vt10x.WithWriter(master))
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := master.Read(buf)
			if n > 0 {
				_, _ = vt.Write(buf[:n])
				if strings.Contains(screenText(vt), p.ready) {
					once.Do(func() {
						s.frame = time.Since(start)
						s.frameCPU, s.frameChildCPU, _ = cpuTimes(cmd.Process.Pid)
						close(readyAt)
					})
				}
			}
			if err != nil {
				return
			}
		}
	}()
	select {
	case <-readyAt:
	case <-time.After(readyBound):
		stop(cmd)
		return s, fmt.Errorf("no %q on screen after %v; the screen:\n%s", p.ready, readyBound, screenText(vt))
	}
	time.Sleep(m.settle)
	pid := cmd.Process.Pid
	if s.rss, s.anon, s.file, err = memory(pid); err != nil {
		stop(cmd)
		return s, err
	}
	if m.idle > 0 {
		c0, err0 := cpuTime(pid)
		t0 := time.Now()
		time.Sleep(m.idle)
		c1, err1 := cpuTime(pid)
		if err := errors.Join(err0, err1); err != nil {
			stop(cmd)
			return s, err
		}
		s.idleCPU, s.idleWin = c1-c0, time.Since(t0).Round(time.Millisecond)
	}
	stop(cmd)
	return s, nil
}

// screenText is the emulator's screen as text.
func screenText(vt vt10x.Terminal) string {
	vt.Lock()
	defer vt.Unlock()
	cols, rows := vt.Size()
	var b strings.Builder
	for y := 0; y < rows; y++ {
		for x := 0; x < cols; x++ {
			b.WriteRune(vt.Cell(x, y).Char)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// stop ends the program: SIGTERM, then SIGKILL after stopBound.
func stop(cmd *exec.Cmd) {
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(stopBound):
		_ = cmd.Process.Kill()
		<-done
	}
}

// cpuTime is the user and system time of process pid so far.
func cpuTime(pid int) (time.Duration, error) {
	self, _, err := cpuTimes(pid)
	return self, err
}

// cpuTimes is the user and system time of process pid so far, and that of
// its children it has waited for (a probe, git), which are not its own.
func cpuTimes(pid int) (self, children time.Duration, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, err
	}
	// Fields after the command name, which is in parentheses and may hold
	// spaces: state is field 3, utime 14, stime 15, cutime 16, cstime 17.
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 15 {
		return 0, 0, fmt.Errorf("/proc/%d/stat: too few fields", pid)
	}
	var t [4]int64
	for k := range t {
		if t[k], err = strconv.ParseInt(f[11+k], 10, 64); err != nil {
			return 0, 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
		}
	}
	tick := func(n int64) time.Duration { return time.Duration(n) * time.Second / clockTicks }
	return tick(t[0] + t[1]), tick(t[2] + t[3]), nil
}

// memory reads VmRSS, RssAnon and RssFile (kB) of process pid.
func memory(pid int) (rss, anon, file int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch k {
		case "VmRSS":
			rss = n
		case "RssAnon":
			anon = n
		case "RssFile":
			file = n
		}
	}
	return rss, anon, file, nil
}
