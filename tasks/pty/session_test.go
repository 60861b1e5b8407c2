package pty

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/sandbox"
	"go.uber.org/goleak"
)

// Every goroutine a Manager or Session starts must have ended once the
// tests closed their managers.
// The test binary is also the sandbox launcher (see sandboxFixture).
func TestMain(m *testing.M) {
	sandbox.Dispatch()
	goleak.VerifyTestMain(m)
}

// newManager returns a Manager closed when the test ends.
func newManager(t *testing.T) *Manager {
	t.Helper()
	m := NewManager(Options{KillGrace: 300 * time.Millisecond})
	t.Cleanup(m.CloseAll)
	return m
}

func open(t *testing.T, m *Manager, spec OpenSpec) *Session {
	t.Helper()
	s, err := m.Open(spec)
	if err != nil {
		t.Fatalf("Open(%+v): %v", spec, err)
	}
	return s
}

// waitScreen waits until the screen satisfies ok, failing after a while
// with the screen shown.
func waitScreen(t *testing.T, s *Session, what string, ok func(sc *Screen) bool) Screen {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		sc := s.Snapshot()
		if ok(&sc) {
			return sc
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s; the screen shows:\n%s", what, sc.Text())
		}
		select {
		case <-s.Changed():
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func waitDone(t *testing.T, s *Session) {
	t.Helper()
	select {
	case <-s.Done():
	case <-time.After(15 * time.Second):
		sc := s.Snapshot()
		t.Fatalf("the program did not end; the screen shows:\n%s", sc.Text())
	}
}

// interactiveBash is a bash with a known prompt and no start-up files.
func interactiveBash(t *testing.T, m *Manager, rows, cols int) *Session {
	t.Helper()
	s := open(t, m, OpenSpec{
		Argv: []string{"bash", "--norc", "--noprofile", "-i"},
		Env:  []string{"PS1=wb$ ", "HISTFILE=/dev/null"},
		Rows: rows, Cols: cols,
		Prompt: regexp.MustCompile(`wb\$ $`),
	})
	waitScreen(t, s, "the prompt", func(sc *Screen) bool { return strings.HasPrefix(sc.Line(0), "wb$") })
	return s
}

func TestSessionRunsAnInteractiveShell(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	s := interactiveBash(t, m, 10, 60)
	since := s.Total()
	if _, err := s.Write([]byte("echo $((6*7)) $TERM\r")); err != nil {
		t.Fatal(err)
	}
	if by := s.Wait(t.Context(), WaitSpec{Since: since, Quiet: 5 * time.Second}); by != DonePrompt {
		t.Fatalf("wait ended by %s, want prompt", by)
	}
	out, _, _ := s.ReadSince(since, 0)
	if text := PlainText(out); !strings.Contains(text, "42 xterm-256color\n") {
		t.Errorf("output after the command %q lacks its result", text)
	}
	sc := waitScreen(t, s, "the result", func(sc *Screen) bool { return sc.Line(1) == "42 xterm-256color" })
	if sc.Line(2) != "wb$" || sc.CursorRow != 2 || sc.CursorCol != 4 {
		t.Errorf("screen row 2 %q, cursor (%d,%d); want the next prompt with the cursor after it", sc.Line(2), sc.CursorRow, sc.CursorCol)
	}
}

func TestSessionShowsLessAndQuits(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("less"); err != nil {
		t.Skip("less is not installed")
	}
	var b strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&b, "line %d of the file\n", i)
	}
	file := filepath.Join(t.TempDir(), "long.txt")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	m := newManager(t)
	s := open(t, m, OpenSpec{Command: "less " + file, Rows: 10, Cols: 40, Env: []string{"LESS=", "LESSOPEN="}})
	sc := waitScreen(t, s, "the first page", func(sc *Screen) bool { return sc.Line(8) == "line 9 of the file" })
	for r := range 9 {
		if want := fmt.Sprintf("line %d of the file", r+1); sc.Line(r) != want {
			t.Errorf("row %d shows %q, want %q", r, sc.Line(r), want)
		}
	}
	if !sc.Modes.AltScreen {
		t.Error("less did not switch to the alternate screen")
	}
	keys, _ := KeyBytes("space")
	_, _ = s.Write(keys)
	waitScreen(t, s, "the second page", func(sc *Screen) bool { return sc.Line(0) == "line 10 of the file" })
	_, _ = s.Write([]byte("q"))
	waitDone(t, s)
	if exited, code := s.Exited(); !exited || code != 0 {
		t.Fatalf("after q: exited %v, code %d; want exit 0", exited, code)
	}
}

func TestSessionScreenHasColoursAndCursor(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	s := open(t, m, OpenSpec{
		Command: `printf '\033[2J\033[H\033[31mred\033[0m \033[1;32mgreen\033[0m \033[7;44mrev\033[0m\033[5;10Hhere\033]0;my title\007\033[3;4H'; sleep 0.2`,
		Rows:    8, Cols: 30,
	})
	waitDone(t, s)
	sc := s.Snapshot()
	if sc.Line(0) != "red green rev" || sc.Line(4) != "         here" {
		t.Fatalf("screen text:\n%s", sc.Text())
	}
	checks := []struct {
		name string
		row  int
		col  int
		fg   Color
		bg   Color
		attr Attr
	}{
		{"red text", 0, 0, 1, ColorDefault, 0},
		{"bold green shows bright", 0, 4, 10, ColorDefault, AttrBold},
		{"reverse keeps the colours as set", 0, 10, ColorDefault, 4, AttrReverse},
		{"plain text", 4, 9, ColorDefault, ColorDefault, 0},
	}
	for _, c := range checks {
		got := sc.At(c.row, c.col)
		if got.FG != c.fg || got.BG != c.bg || got.Attr != c.attr {
			t.Errorf("%s at (%d,%d): fg %d bg %d attr %b, want fg %d bg %d attr %b",
				c.name, c.row, c.col, got.FG, got.BG, got.Attr, c.fg, c.bg, c.attr)
		}
	}
	if sc.CursorRow != 2 || sc.CursorCol != 3 {
		t.Errorf("cursor at (%d,%d), want (2,3)", sc.CursorRow, sc.CursorCol)
	}
	if sc.Title != "my title" {
		t.Errorf("title %q, want %q", sc.Title, "my title")
	}
}

func TestSessionKeepsTheFinalScreenAndExitCode(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	s := open(t, m, OpenSpec{Command: "echo build ok; printf 'last line'; exit 3", Rows: 5, Cols: 20})
	waitDone(t, s)
	exited, code := s.Exited()
	if !exited || code != 3 || s.State() != Exited {
		t.Fatalf("exited %v, code %d, state %s; want exited with 3", exited, code, s.State())
	}
	sc := s.Snapshot()
	if sc.Line(0) != "build ok" || sc.Line(1) != "last line" {
		t.Fatalf("final screen:\n%s", sc.Text())
	}
	if _, err := s.Write([]byte("x")); err == nil {
		t.Error("writing to an exited session succeeded")
	}
	if got, ok := m.Get(s.ID()); !ok || got != s {
		t.Error("an exited session is no longer listed")
	}
}

func TestSessionReportsASignalAsAShellDoes(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	s := open(t, m, OpenSpec{Command: "kill -TERM $$"})
	waitDone(t, s)
	if _, code := s.Exited(); code != 128+15 {
		t.Fatalf("exit code %d, want %d", code, 128+15)
	}
}

func TestSessionResizeReachesTheProgram(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tput"); err != nil {
		t.Skip("tput is not installed")
	}
	m := newManager(t)
	s := interactiveBash(t, m, 10, 40)
	if err := s.Resize(12, 100); err != nil {
		t.Fatal(err)
	}
	if rows, cols := s.Size(); rows != 12 || cols != 100 {
		t.Fatalf("Size() = %dx%d after resizing to 12x100", rows, cols)
	}
	since := s.Total()
	_, _ = s.Write([]byte("echo size=$(tput cols)x$(tput lines)\r"))
	// The prompt bash redraws after SIGWINCH must not end the wait.
	s.Wait(t.Context(), WaitSpec{Since: since, Quiet: 5 * time.Second, Prompt: regexp.MustCompile(`size=.*\n.*wb\$ $`)})
	out, _, _ := s.ReadSince(since, 0)
	if !strings.Contains(PlainText(out), "size=100x12") {
		t.Fatalf("the program saw %q, want size=100x12", PlainText(out))
	}
}

func TestSessionAnswersTerminalQueries(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	// The script asks for the cursor position and the device attributes,
	// as fish and readline do, and prints what it got.
	s := open(t, m, OpenSpec{Command: `printf 'ab'; IFS= read -rs -d R -p $'\033[6n' pos; IFS= read -rs -d c -p $'\033[c' da; printf '\r\n%q %q\r\n' "$pos" "$da"`})
	waitDone(t, s)
	text := PlainText(s.Tail(0, 4096))
	if !strings.Contains(text, `$'\E[1;3'`) || !strings.Contains(text, `$'\E[?62;22'`) {
		t.Fatalf("the program received %q; want its cursor position and device attributes", text)
	}
}

func TestStreamCursorsAreAbsolute(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	s := open(t, m, OpenSpec{Command: "head -c 300000 /dev/zero | tr '\\0' x; printf END"})
	waitDone(t, s)
	total := s.Total()
	if total != 300003 {
		t.Fatalf("Total() = %d, want 300003", total)
	}
	data, next, omitted := s.ReadSince(0, 10)
	if !omitted || next != total-RingSize+10 || string(data) != "xxxxxxxxxx" {
		t.Fatalf("ReadSince(0, 10) = %q, %d, %v; want the oldest held bytes and omitted", data, next, omitted)
	}
	data, next, omitted = s.ReadSince(total-3, 0)
	if omitted || next != total || string(data) != "END" {
		t.Fatalf("ReadSince(total-3) = %q, %d, %v", data, next, omitted)
	}
}

func TestWaitReasons(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	cases := []struct {
		name string
		cmd  string
		spec WaitSpec
		want DoneBy
	}{
		{"a program that ends", "echo hi", WaitSpec{Quiet: 10 * time.Second}, DoneExited},
		{"a prompt in new output", "sleep 0.2; printf 'ready> '; sleep 30", WaitSpec{Prompt: regexp.MustCompile(`ready> $`), Quiet: 10 * time.Second}, DonePrompt},
		{"silence after output", "echo started; sleep 30", WaitSpec{Quiet: 300 * time.Millisecond}, DoneQuiet},
		{"the hard limit", "while :; do echo tick; sleep 0.05; done", WaitSpec{Quiet: time.Second, Timeout: 500 * time.Millisecond}, DoneTimeout},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := open(t, m, OpenSpec{Command: c.cmd})
			if got := s.Wait(t.Context(), c.spec); got != c.want {
				t.Errorf("done by %s, want %s", got, c.want)
			}
		})
	}
}

func TestWaitStartupGraceDelaysQuiet(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	s := open(t, m, OpenSpec{Command: "sleep 0.6; echo late; sleep 30"})
	by := s.Wait(t.Context(), WaitSpec{Quiet: 200 * time.Millisecond, StartupGrace: 2 * time.Second, Prompt: regexp.MustCompile(`late`)})
	if by != DonePrompt {
		t.Fatalf("done by %s: the quiet start counted before the grace ended", by)
	}
}

func TestWaitIsInterruptedByItsContext(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	s := open(t, m, OpenSpec{Command: "sleep 30"})
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if by := s.Wait(ctx, WaitSpec{}); by != DoneInterrupted {
		t.Fatalf("done by %s, want interrupted", by)
	}
}

// liveProcesses returns the pids of running processes whose command line
// contains marker.
func liveProcesses(t *testing.T, marker string) []int {
	t.Helper()
	names, _ := filepath.Glob("/proc/[0-9]*")
	var pids []int
	for _, dir := range names {
		cmdline, err := os.ReadFile(dir + "/cmdline")
		if err != nil || !bytes.Contains(cmdline, []byte(marker)) {
			continue
		}
		stat, err := os.ReadFile(dir + "/stat")
		if err != nil {
			continue
		}
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && len(stat) > i+2 && (stat[i+2] == 'Z' || stat[i+2] == 'X') {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(dir))
		pids = append(pids, pid)
	}
	return pids
}

func TestH14_CloseAllLeavesNoOrphans(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	m := NewManager(Options{KillGrace: 300 * time.Millisecond})
	// A background job, one that ignores the hangup, and a job-control
	// shell whose job gets a process group of its own.
	s1 := open(t, m, OpenSpec{Command: `sleep 3001.1 & (trap "" HUP; exec sleep 3001.2) & sleep 3001.3`})
	s2 := interactiveBash(t, m, 10, 60)
	_, _ = s2.Write([]byte("sleep 3001.4 &\r"))
	_, _ = s2.Write([]byte("(trap '' HUP TERM; exec sleep 3001.5) &\r"))
	deadline := time.Now().Add(10 * time.Second)
	for len(liveProcesses(t, "3001.")) < 5 {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of the 5 sleeps started", len(liveProcesses(t, "3001.")))
		}
		time.Sleep(20 * time.Millisecond)
	}
	m.CloseAll()
	if left := liveProcesses(t, "3001."); len(left) > 0 {
		t.Fatalf("processes survived CloseAll: %v", left)
	}
	if s1.State() != Closed || s2.State() != Closed {
		t.Errorf("states after CloseAll: %s, %s; want closed", s1.State(), s2.State())
	}
	if _, err := m.Open(OpenSpec{Command: "true"}); err == nil {
		t.Error("Open after CloseAll succeeded")
	}
}

func TestH14_AnExitedProgramLeavesNothingBehind(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	s := open(t, m, OpenSpec{Command: `(trap "" HUP; exec sleep 3002.1 >/dev/null 2>&1 </dev/null) & (trap "" HUP; exec sleep 3002.2) & echo started`})
	waitDone(t, s)
	if left := liveProcesses(t, "3002."); len(left) > 0 {
		t.Fatalf("processes outlived their session's program: %v", left)
	}
	if sc := s.Snapshot(); sc.Line(0) != "started" {
		t.Errorf("final screen:\n%s", sc.Text())
	}
}

func TestManagerIdsEventsAndClose(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	events, stop := m.Subscribe()
	defer stop()
	a := open(t, m, OpenSpec{Command: "sleep 30", Mode: "hands-free"})
	b := open(t, m, OpenSpec{Command: "exit 4"})
	if a.ID() != "sh_1" || b.ID() != "sh_2" {
		t.Fatalf("ids %s, %s; want sh_1, sh_2", a.ID(), b.ID())
	}
	waitDone(t, b)
	if list := m.List(); len(list) != 2 || list[0] != a || list[1] != b {
		t.Fatalf("List() = %v", list)
	}
	if _, err := m.Close("sh_1"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Close("sh_1"); err == nil {
		t.Error("closing an unknown session succeeded")
	}
	if a.State() != Closed {
		t.Errorf("state after Close: %s", a.State())
	}
	want := []Event{{Kind: EventOpened, ID: "sh_1"}, {Kind: EventOpened, ID: "sh_2"}, {Kind: EventExited, ID: "sh_2", Code: 4}}
	var got []Event
	timeout := time.After(10 * time.Second)
	for len(got) < 5 {
		select {
		case e := <-events:
			got = append(got, e)
		case <-timeout:
			t.Fatalf("events so far: %+v", got)
		}
	}
	for _, w := range want {
		found := false
		for _, e := range got {
			found = found || e == w
		}
		if !found {
			t.Errorf("event %+v missing from %+v", w, got)
		}
	}
}

func TestMonitorAndDispatchNotify(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	mon := open(t, m, OpenSpec{Command: "echo booting; sleep 0.2; echo 'server listening on :8080'; sleep 0.3; echo bye; exit 2"})
	if err := m.Monitor(mon, []*regexp.Regexp{regexp.MustCompile(`listening on :\d+`), regexp.MustCompile(`never printed`)}); err != nil {
		t.Fatal(err)
	}
	dis := open(t, m, OpenSpec{Command: "sleep 0.2; echo compiled"})
	m.Dispatch(dis, WaitSpec{Quiet: 5 * time.Second})
	waitDone(t, mon)
	waitDone(t, dis)
	var got []Notification
	deadline := time.Now().Add(5 * time.Second)
	for len(got) < 3 && time.Now().Before(deadline) {
		got = append(got, m.Drain()...)
		time.Sleep(20 * time.Millisecond)
	}
	if len(got) != 3 {
		t.Fatalf("notifications: %+v; want 3", got)
	}
	find := func(kind, status string) Notification {
		for _, n := range got {
			if n.Kind == kind && n.Status == status {
				return n
			}
		}
		t.Fatalf("no %s %s notification in %+v", kind, status, got)
		return Notification{}
	}
	if n := find("monitor", "running"); n.ID != mon.ID() || !strings.Contains(n.Text, "server listening on :8080") {
		t.Errorf("pattern notification: %+v", n)
	}
	if n := find("monitor", "completed"); !strings.Contains(n.Text, "exit code 2") || !strings.Contains(n.Text, "bye") {
		t.Errorf("exit notification: %+v", n)
	}
	if n := find("dispatch", "completed"); n.ID != dis.ID() || !strings.Contains(n.Text, "compiled") {
		t.Errorf("dispatch notification: %+v", n)
	}
	if m.Pending() != 0 {
		t.Errorf("Pending() = %d after Drain", m.Pending())
	}
}

func TestExitedSessionsAreDroppedAfterAWhile(t *testing.T) {
	t.Parallel()
	m := NewManager(Options{KeepExited: time.Millisecond})
	t.Cleanup(m.CloseAll)
	s := open(t, m, OpenSpec{Command: "true"})
	waitDone(t, s)
	time.Sleep(10 * time.Millisecond)
	if list := m.List(); len(list) != 0 {
		t.Fatalf("List() = %v; the exited session should be gone", list)
	}
	if _, ok := m.Get(s.ID()); ok {
		t.Fatal("Get still finds the dropped session")
	}
	// goleak (TestMain) checks that the dropped session left no goroutine.
}

func TestScreenReadsAndResizesDuringAFlood(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	s := open(t, m, OpenSpec{Command: "seq 1 200000; printf done", Rows: 24, Cols: 80})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			sc := s.Snapshot()
			if sc.Rows*sc.Cols != len(sc.Cells) {
				t.Errorf("snapshot of %dx%d has %d cells", sc.Rows, sc.Cols, len(sc.Cells))
				return
			}
			s.View(func(v *View) { v.Cursor() })
			_ = s.Resize(20+i%10, 60+i%40)
		}
	})
	waitDone(t, s)
	close(stop)
	wg.Wait()
	sc := s.Snapshot()
	if sc.Line(sc.CursorRow) != "done" || sc.Line(sc.CursorRow-1) != "200000" {
		t.Fatalf("final screen:\n%s", sc.Text())
	}
}
