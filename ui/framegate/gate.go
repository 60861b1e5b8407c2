// Package framegate lets bubbletea's renderer sleep while nothing changes.
//
// bubbletea v2 (v2.1.1) draws from a goroutine that wakes at the frame rate
// (60 times a second) for the whole life of the program and compares the
// last view with the one on screen, whether or not anything happened: an
// idle Workbench used 1.2–1.4 % of a core doing that. The renderer has no
// option to stop its ticker, so the gate parks the ticker's goroutine
// instead, at the one place it calls into code of ours: the output writer.
//
// How it works. Every message the program handles passes the gate's Filter
// first, which counts it (an epoch) and wakes the renderer. After the last
// message, the gate sends two marker messages, one after the other. Each is a
// tea.RawMsg, whose bytes bubbletea queues and writes from the renderer's
// goroutine at its next tick, before that tick draws the frame. When the
// first marker is written, the frame of every message before it is drawn in
// the same tick; when the second is written, that tick has passed, so the
// screen is current. If no other message arrived in between (the epoch is
// unchanged), the writer holds the renderer's goroutine there until the next
// message, the program's end, or maxPark. Markers are removed from the
// output: the terminal never sees them.
//
// Only the renderer's goroutine ever writes a marker whose epoch is
// current: bubbletea writes queued bytes from elsewhere only after an exec
// or a suspend, and those are messages, which make every marker stale.
package framegate

import (
	"bytes"
	"context"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/seed92b641c3/workbench/internal/startgc"
)

// maxPark bounds one sleep of the renderer. It matters only when the
// program ends without a message (a panic in a command's goroutine), where
// bubbletea waits for the renderer's goroutine; a normal end is a message
// and wakes it at once. Each expiry costs two marker messages and a few
// frames, about a millisecond of CPU.
const maxPark = 3 * time.Second

// markerPrefix starts the bytes of a marker in the output. It is an APC
// string, which terminals ignore, should one ever get through.
const markerPrefix = "\x1b_workbench-framegate;"

// markerEnd ends a marker (ST).
const markerEnd = "\x1b\\"

// marker is the payload of the gate's tea.RawMsg: bubbletea writes
// fmt.Sprint of it to the output.
type marker struct {
	epoch uint64
	stage int // 1 or 2
}

// String is what bubbletea queues for the output.
func (m marker) String() string {
	return markerPrefix + strconv.FormatUint(m.epoch, 10) + ";" + strconv.Itoa(m.stage) + markerEnd
}

// Sender is the part of *tea.Program the gate uses.
type Sender interface{ Send(tea.Msg) }

// Gate is the output writer and message filter of one program.
type Gate struct {
	out io.Writer

	mu       sync.Mutex
	wake     *sync.Cond
	prog     Sender
	epoch    uint64 // messages seen, the gate's own not counted
	chain    bool   // a marker is on its way
	parked   bool
	closed   bool
	stats    Stats
	stopped  chan struct{}
	stopped1 sync.Once
}

// Stats counts what the gate did, for tests and traces.
type Stats struct {
	// Parks is how often the renderer went to sleep.
	Parks int
	// Markers is how many markers were written (and removed).
	Markers int
}

// New returns a gate writing to out (the terminal). Wrap the model with
// Model, pass the gate to tea.WithOutput and its Filter to tea.WithFilter,
// and Attach the program before Run. When out is a terminal (it has Fd),
// the gate is one too, so bubbletea still sizes and colours the screen.
func New(out io.Writer) *Gate {
	g := &Gate{out: out, stopped: make(chan struct{})}
	g.wake = sync.NewCond(&g.mu)
	return g
}

// Output returns what to hand to tea.WithOutput: the gate, with Fd, Read
// and Close when the terminal has them (bubbletea looks for a terminal
// there).
func (g *Gate) Output() io.Writer {
	if f, ok := g.out.(terminal); ok {
		return &terminalGate{Gate: g, f: f}
	}
	return g
}

// terminal is what bubbletea recognises as a terminal (x/term's File).
type terminal interface {
	io.ReadWriteCloser
	Fd() uintptr
}

// terminalGate is a gate over a terminal.
type terminalGate struct {
	*Gate
	f terminal
}

// Fd is the terminal's, so bubbletea reads its size and colour support.
func (t *terminalGate) Fd() uintptr { return t.f.Fd() }

// Read reads the terminal.
func (t *terminalGate) Read(p []byte) (int, error) { return t.f.Read(p) }

// Close closes the terminal.
func (t *terminalGate) Close() error { return t.f.Close() }

// Attach names the program the gate sends its markers to, and ends the
// gate's sleeps when ctx ends (the program then ends too). Call it before
// Run.
func (g *Gate) Attach(ctx context.Context, prog Sender) {
	g.mu.Lock()
	g.prog = prog
	g.mu.Unlock()
	go func() {
		select {
		case <-ctx.Done():
			g.Close()
		case <-g.stopped:
		}
	}()
}

// Close wakes the renderer for good: nothing parks after it. Call it when
// the program has ended; it is safe to call more than once.
func (g *Gate) Close() {
	g.mu.Lock()
	g.closed = true
	g.wake.Broadcast()
	g.mu.Unlock()
	g.stopped1.Do(func() { close(g.stopped) })
}

// Stats returns the counts so far.
func (g *Gate) Stats() Stats {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stats
}

// Parked reports whether the renderer sleeps now.
func (g *Gate) Parked() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.parked
}

// Filter is the program's message filter (tea.WithFilter). Every message
// but the gate's own wakes the renderer and starts the way back to sleep.
func (g *Gate) Filter(_ tea.Model, msg tea.Msg) tea.Msg {
	if isMarker(msg) {
		return msg
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.epoch++
	switch msg.(type) {
	case tea.QuitMsg, tea.InterruptMsg:
		g.closed = true
	}
	g.wake.Broadcast()
	if !g.chain && !g.closed {
		g.chain = true
		g.sendLocked(marker{epoch: g.epoch, stage: 1})
	}
	return msg
}

// sendLocked sends a marker without waiting: the program may be busy, or
// gone (Send then returns at once).
func (g *Gate) sendLocked(m marker) {
	if g.prog == nil {
		g.chain = false
		return
	}
	p := g.prog
	go p.Send(tea.RawMsg{Msg: m})
}

// isMarker reports whether msg is one of the gate's markers.
func isMarker(msg tea.Msg) bool {
	raw, ok := msg.(tea.RawMsg)
	if !ok {
		return false
	}
	_, ok = raw.Msg.(marker)
	return ok
}

// Write writes p to the terminal without the markers in it and, at the
// second marker of a quiet screen, holds the caller (the renderer's
// goroutine) until something happens. It reports len(p) written, since the
// markers were consumed too.
func (g *Gate) Write(p []byte) (int, error) {
	if !bytes.Contains(p, []byte(markerPrefix)) {
		return g.out.Write(p)
	}
	rest, found := cutMarkers(p)
	if len(rest) > 0 {
		if _, err := g.out.Write(rest); err != nil {
			return 0, err
		}
	}
	for _, m := range found {
		g.onMarker(m)
	}
	return len(p), nil
}

// onMarker moves the chain on: a stale marker starts again at the current
// epoch, the first marker asks for the second, the second parks.
func (g *Gate) onMarker(m marker) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stats.Markers++
	if g.closed {
		g.chain = false
		return
	}
	switch {
	case m.epoch != g.epoch:
		g.sendLocked(marker{epoch: g.epoch, stage: 1})
	case m.stage == 1:
		g.sendLocked(marker{epoch: g.epoch, stage: 2})
	default:
		g.chain = false
		g.parkLocked(m.epoch)
	}
}

// parkLocked waits, with g.mu held, until the epoch moves on, the gate
// closes or maxPark passes; after maxPark it starts the chain again so the
// renderer goes back to sleep.
func (g *Gate) parkLocked(epoch uint64) {
	g.stats.Parks++
	if g.stats.Parks == 1 {
		// The first frame is on screen and nothing is happening: the
		// collector, if it was off for the start (startgc.Begin), comes
		// back, and the garbage of the start (settings, the catalog, the first frame's
		// Markdown and styles) goes back to the OS now, not at the GC's
		// pace, which leaves an idle program holding it (1.5 MB here).
		startgc.Done()
		go debug.FreeOSMemory()
	}
	g.parked = true
	expired := false
	t := time.AfterFunc(maxPark, func() {
		g.mu.Lock()
		expired = true
		g.wake.Broadcast()
		g.mu.Unlock()
	})
	for g.epoch == epoch && !g.closed && !expired {
		g.wake.Wait()
	}
	t.Stop()
	g.parked = false
	if expired && g.epoch == epoch && !g.closed && !g.chain {
		g.chain = true
		g.sendLocked(marker{epoch: g.epoch, stage: 1})
	}
}

// cutMarkers returns p without its markers, and the markers in order. A
// marker that does not parse is left in place (it is not ours).
func cutMarkers(p []byte) ([]byte, []marker) {
	var out []byte
	var found []marker
	for {
		i := bytes.Index(p, []byte(markerPrefix))
		if i < 0 {
			break
		}
		body := p[i+len(markerPrefix):]
		j := bytes.Index(body, []byte(markerEnd))
		m, ok := parseMarker(body, j)
		if !ok {
			out = append(out, p[:i+len(markerPrefix)]...)
			p = body
			continue
		}
		out = append(out, p[:i]...)
		found = append(found, m)
		p = body[j+len(markerEnd):]
	}
	return append(out, p...), found
}

// parseMarker reads "EPOCH;STAGE" from body[:end].
func parseMarker(body []byte, end int) (marker, bool) {
	if end < 0 {
		return marker{}, false
	}
	epoch, stage, ok := bytes.Cut(body[:end], []byte(";"))
	if !ok {
		return marker{}, false
	}
	e, err := strconv.ParseUint(string(epoch), 10, 64)
	if err != nil {
		return marker{}, false
	}
	s, err := strconv.Atoi(string(stage))
	if err != nil || (s != 1 && s != 2) {
		return marker{}, false
	}
	return marker{epoch: e, stage: s}, true
}

// Run runs model as a bubbletea program writing to out behind a gate, with
// ctx as the program's context, and returns the final model (the inner
// one) and Run's error.
func Run(ctx context.Context, model tea.Model, out io.Writer, opts ...tea.ProgramOption) (tea.Model, error) {
	g := New(out)
	first := []tea.ProgramOption{tea.WithContext(ctx), tea.WithOutput(g.Output()), tea.WithFilter(g.Filter)}
	if out == io.Writer(os.Stdout) {
		// lipgloss detected standard output's colour profile while the
		// packages initialised; detecting it again costs a second terminfo
		// read and, inside tmux, a second `tmux info` before the first frame.
		first = append(first, tea.WithColorProfile(lipgloss.Writer.Profile))
	}
	opts = append(first, opts...)
	prog := tea.NewProgram(Model(model), opts...)
	g.Attach(ctx, prog)
	final, err := prog.Run()
	g.Close()
	return Inner(final), err
}
