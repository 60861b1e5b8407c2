package framegate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"github.com/creack/pty"
	"github.com/hinshun/vt10x"
)

// counter is a program that shows how many keys it was sent; q quits and p
// panics in a command's goroutine once the renderer sleeps (asleep is set).
type counter struct {
	n      int
	asleep func() bool
}

func (c *counter) Init() tea.Cmd { return nil }

func (c *counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "q":
			return c, tea.Quit
		case "p":
			return c, func() tea.Msg {
				for c.asleep != nil && !c.asleep() {
					time.Sleep(5 * time.Millisecond)
				}
				panic("a command failed")
			}
		}
		c.n++
	}
	return c, nil
}

func (c *counter) View() tea.View {
	v := tea.NewView(fmt.Sprintf("keys so far: %d", c.n))
	v.AltScreen = true
	return v
}

// screen is the terminal side of a test program: a real pty whose output
// is drawn by a terminal emulator.
type screen struct {
	t      *testing.T
	master *os.File
	mu     sync.Mutex
	raw    bytes.Buffer
	vt     vt10x.Terminal
}

// run starts model on a real pty behind a gate and returns the screen, the
// gate and the channel Run's error arrives on.
func run(t *testing.T, ctx context.Context, model tea.Model) (*screen, *Gate, <-chan error) {
	t.Helper()
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Rows: 10, Cols: 40}); err != nil {
		t.Fatal(err)
	}
	s := &screen{t: t, master: master, vt: vt10x.New(vt10x.WithSize(40, 10))}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			s.mu.Lock()
			s.raw.Write(buf[:n])
			_, _ = s.vt.Write(buf[:n])
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	// The program reads keys through a plain reader, not the *os.File:
	// bubbletea's input reader (cancelreader) reads the File's descriptor
	// in a goroutine its shutdown does not wait for, and its own Close and
	// ours raced with that read under the race detector. So the terminal
	// is made raw here, as bubbletea would for a File.
	if _, err := term.MakeRaw(tty.Fd()); err != nil {
		t.Fatal(err)
	}
	g := New(tty)
	prog := tea.NewProgram(Model(model), tea.WithContext(ctx), tea.WithInput(struct{ io.Reader }{tty}),
		tea.WithOutput(g.Output()), tea.WithFilter(g.Filter), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	g.Attach(ctx, prog)
	done := make(chan error, 1)
	finished := make(chan struct{})
	go func() {
		_, err := prog.Run()
		g.Close()
		close(finished)
		done <- err
	}()
	t.Cleanup(func() {
		prog.Kill()
		select {
		case <-finished:
		case <-time.After(10 * time.Second):
		}
		tty.Close()
		master.Close()
	})
	return s, g, done
}

// waitFor waits until ok holds, failing the test after a generous bound:
// the bound only stops a broken gate from hanging the test run.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (s *screen) shows(text string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Contains(s.vt.String(), text)
}

func (s *screen) rawOutput() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.raw.String()
}

func (s *screen) key(k string) {
	if _, err := io.WriteString(s.master, k); err != nil {
		s.t.Fatal(err)
	}
}

func TestGateSleepsWhenTheScreenIsQuietAndWakesForEveryKey(t *testing.T) {
	s, g, done := run(t, context.Background(), &counter{})
	waitFor(t, "the first frame", func() bool { return s.shows("keys so far: 0") })
	waitFor(t, "the renderer to sleep", g.Parked)
	for i := 1; i <= 3; i++ {
		s.key("a")
		want := fmt.Sprintf("keys so far: %d", i)
		waitFor(t, want+" on screen", func() bool { return s.shows(want) })
		waitFor(t, "the renderer to sleep again", g.Parked)
	}
	if st := g.Stats(); st.Parks < 4 {
		t.Errorf("the renderer slept %d times, want at least once per quiet screen (4)", st.Parks)
	}
	s.key("q")
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if strings.Contains(s.rawOutput(), "framegate") {
		t.Errorf("a marker reached the terminal: %q", s.rawOutput())
	}
}

func TestGateLetsEveryKeyOfAFastBurstReachTheScreen(t *testing.T) {
	s, g, done := run(t, context.Background(), &counter{})
	waitFor(t, "the renderer to sleep", g.Parked)
	s.key(strings.Repeat("x", 200))
	waitFor(t, "all 200 keys on screen", func() bool { return s.shows("keys so far: 200") })
	waitFor(t, "the renderer to sleep after the burst", g.Parked)
	s.key("q")
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
}

func TestGateEndsWithTheContextWhileTheRendererSleeps(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, g, done := run(t, ctx, &counter{})
	waitFor(t, "the renderer to sleep", g.Parked)
	cancel()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, context.Canceled) {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the program did not end with its context")
	}
}

func TestGateEndsAfterAPanicInACommandWhileTheRendererSleeps(t *testing.T) {
	// No message announces this end: bubbletea waits for the renderer,
	// which maxPark lets go.
	c := &counter{}
	s, g, done := run(t, context.Background(), c)
	c.asleep = g.Parked
	waitFor(t, "the renderer to sleep", g.Parked)
	s.key("p")
	select {
	case err := <-done:
		if !errors.Is(err, tea.ErrProgramPanic) {
			t.Fatalf("Run: %v, want the panic reported", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the program hung after a panic in a command")
	}
}

func TestCutMarkersRemovesOnlyWellFormedMarkers(t *testing.T) {
	m1 := marker{epoch: 7, stage: 1}.String()
	m2 := marker{epoch: 8, stage: 2}.String()
	broken := markerPrefix + "x;1" + markerEnd
	cases := []struct {
		name  string
		in    string
		out   string
		found []marker
	}{
		{"a marker alone", m1, "", []marker{{7, 1}}},
		{"markers between output", "ab" + m1 + "cd" + m2 + "ef", "abcdef", []marker{{7, 1}, {8, 2}}},
		{"a malformed marker stays", "a" + broken + "b", "a" + broken + "b", nil},
		{"an unterminated marker stays", "a" + markerPrefix + "9;1", "a" + markerPrefix + "9;1", nil},
		{"a stage other than 1 or 2 stays", markerPrefix + "9;3" + markerEnd, markerPrefix + "9;3" + markerEnd, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, found := cutMarkers([]byte(c.in))
			if string(out) != c.out {
				t.Errorf("output %q, want %q", out, c.out)
			}
			if fmt.Sprint(found) != fmt.Sprint(c.found) {
				t.Errorf("markers %v, want %v", found, c.found)
			}
		})
	}
}

// TestTheFirstSleepReturnsTheStartsGarbageOnce: when the renderer first
// sleeps, the start is over and its garbage goes back to the OS (one forced
// collection, debug.FreeOSMemory); later sleeps force none.
func TestTheFirstSleepReturnsTheStartsGarbageOnce(t *testing.T) {
	forced := func() uint64 {
		s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	before := forced()
	s, g, done := run(t, context.Background(), &counter{})
	waitFor(t, "the first frame", func() bool { return s.shows("keys so far: 0") })
	waitFor(t, "the renderer to sleep", g.Parked)
	waitFor(t, "a forced collection", func() bool { return forced() > before })
	afterFirst := forced()
	for i := 1; i <= 3; i++ {
		s.key("a")
		want := fmt.Sprintf("keys so far: %d", i)
		waitFor(t, want+" on screen", func() bool { return s.shows(want) })
		waitFor(t, "the renderer to sleep again", g.Parked)
	}
	if n := forced(); n != afterFirst {
		t.Errorf("%d more forced collections after later sleeps, want none", n-afterFirst)
	}
	if n := afterFirst - before; n != 1 {
		t.Errorf("%d forced collections at the first sleep, want 1", n)
	}
	s.key("q")
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
}
