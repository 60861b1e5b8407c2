package ptyview

import (
	"fmt"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/seed92b641c3/workbench/tasks/pty"
)

// FrameInterval is the shortest time between two renders of a pane, and
// the tick the root runs while a pane is visible: 60 frames a second is as
// fast as a person reads and as fast as bubbletea draws, so a program that
// floods its terminal costs at most that many renders.
const FrameInterval = 16 * time.Millisecond

// frameSlack lets a tick that arrives a little early still draw a frame:
// ticks jitter, and a tick 15.9 ms after the last frame that skipped its
// turn would halve the frame rate during a flood. Refresh calls closer
// together than FrameInterval-frameSlack never render twice.
const frameSlack = 2 * time.Millisecond

// Pane draws a pty.Session and sends it the person's keys while it has the
// keyboard. Its methods are called from the root model's goroutine only;
// the session itself may change at any time (its reader goroutine), which
// the pane notices through the session's Changed signal.
//
// The pane is the session's one Changed consumer (see pty.Session.Changed).
type Pane struct {
	s       *pty.Session
	w, h    int
	focused bool
	in      *writer

	// pending: the program changed the screen since the last render.
	// stale: the pane itself changed (size, focus), so the cached frame
	// is wrong whatever the program did.
	pending, stale bool
	rendered       bool
	last           time.Time
	cache          string
	title          string
	frames         int

	r renderer
}

// New makes a pane for a session. Its size is zero until SetSize; the
// root sizes it before it draws it.
func New(s *pty.Session) *Pane {
	return &Pane{s: s, in: newWriter(s), stale: true}
}

// Session returns the session the pane draws, for the root's bookkeeping
// (its id, closing it).
func (p *Pane) Session() *pty.Session { return p.s }

// SetSize sets the pane's drawn size, which is also the terminal's: the
// pty is resized to h rows and w columns, and the program gets SIGWINCH and
// redraws for exactly what the person sees. Once the program has exited
// the final screen is kept as it was and drawn cut or padded instead (a
// resize would throw away rows a person may still want to read). Sizes
// beyond the pty's limits are clamped; zero or negative sizes draw nothing.
func (p *Pane) SetSize(w, h int) {
	if w == p.w && h == p.h {
		return
	}
	p.w, p.h = w, h
	p.stale = true
	if w <= 0 || h <= 0 || p.s.State() != pty.Running {
		return
	}
	rows, cols := min(h, pty.MaxRows), min(w, pty.MaxCols)
	if r, c := p.s.Size(); r == rows && c == cols {
		return
	}
	// An error here means the program exited in the meantime, which is
	// exactly the case where resizing does not matter.
	_ = p.s.Resize(rows, cols)
}

// Size returns the pane's size as last set.
func (p *Pane) Size() (w, h int) { return p.w, p.h }

// Focus gives the pane the keyboard: HandleKey sends keys to the program
// and the cursor is drawn.
func (p *Pane) Focus() {
	if !p.focused {
		p.focused, p.stale = true, true
	}
}

// Blur takes the keyboard away; the cursor is no longer drawn, so the
// person sees at a glance which pane types.
func (p *Pane) Blur() {
	if p.focused {
		p.focused, p.stale = false, true
	}
}

// Focused reports whether the pane has the keyboard.
func (p *Pane) Focused() bool { return p.focused }

// Dirty reports whether the cached frame is out of date: the program
// changed its screen, or the pane's size or focus changed. The root can
// use it to skip composing its own view.
func (p *Pane) Dirty() bool {
	p.poll()
	return p.pending || p.stale || !p.rendered
}

// Refresh re-renders the pane if it is dirty, at most once per
// FrameInterval for changes made by the program (changes the person made,
// such as a resize, render at once). now is the time of the root's tick.
// It reports whether the frame changed, so the root knows a View is due.
func (p *Pane) Refresh(now time.Time) bool {
	p.poll()
	switch {
	case p.stale || !p.rendered:
	case p.pending && now.Sub(p.last) >= FrameInterval-frameSlack:
	default:
		return false
	}
	p.render(now)
	return true
}

// View returns the pane's frame: exactly h lines of exactly w cells (as
// x/ansi measures them), without a trailing newline. It returns the cached
// frame unless the pane itself changed; changes made by the program appear
// at the next Refresh.
func (p *Pane) View() string {
	if p.stale || !p.rendered {
		p.render(time.Now())
	}
	return p.cache
}

// Cursor returns where the pane drew the cursor, in cells from its top
// left corner, and whether it drew one (it does when focused and the
// program shows its cursor). A root that places the host's real cursor
// can use it.
func (p *Pane) Cursor() (row, col int, ok bool) {
	if p.r.cursorRow < 0 {
		return 0, 0, false
	}
	return p.r.cursorRow, p.r.cursorCol, true
}

// Frames returns how many frames the pane has rendered, for the root's
// diagnostics and the benchmarks.
func (p *Pane) Frames() int { return p.frames }

// poll takes a pending change signal from the session.
func (p *Pane) poll() {
	select {
	case <-p.s.Changed():
		p.pending = true
	default:
	}
}

func (p *Pane) render(now time.Time) {
	p.poll()
	p.s.View(func(v *pty.View) {
		p.cache = p.r.render(v, p.w, p.h, p.focused)
		p.title = v.Title()
	})
	p.pending, p.stale, p.rendered = false, false, true
	p.last = now
	p.frames++
}

// titleMax bounds a title set by a program, which the root shows on one
// line.
const titleMax = 200

// Title returns the window title the program set (OSC 0/2), or the
// command the session runs when it set none: what the root shows above
// the pane.
func (p *Pane) Title() string {
	if !p.rendered {
		p.title = p.s.Title()
	}
	if t := cleanTitle(p.title); t != "" {
		return t
	}
	return cleanTitle(p.s.Command())
}

// ProgramTitle returns the window title the program set (OSC 0/2) as one
// line without control characters, or "" when it set none: the tab bar
// shows it next to the session's id. Bidi and zero-width characters are
// left in for the root to show as escapes (ui/safetext).
func (p *Pane) ProgramTitle() string {
	return cleanTitle(p.s.Title())
}

// cleanTitle keeps a title to one printable line.
func cleanTitle(t string) string {
	t = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return -1
		}
		return r
	}, t)
	t = strings.TrimSpace(t)
	if len(t) > titleMax {
		cut := titleMax
		for cut > 0 && !utf8.RuneStart(t[cut]) {
			cut--
		}
		t = t[:cut]
	}
	return t
}

// Status says whether the program runs: "running", "exited 0",
// "exited 130 (interrupt)" when a signal ended it, or "closed" when the
// session was stopped. The final screen stays drawn in every case until
// the root closes the pane.
func (p *Pane) Status() string {
	switch p.s.State() {
	case pty.Running:
		if dropped, _ := p.in.problem(); dropped > 0 {
			return fmt.Sprintf("running (%d inputs dropped: the program is not reading)", dropped)
		}
		return "running"
	case pty.Closed:
		return "closed"
	}
	_, code := p.s.Exited()
	return exitStatus(code)
}

// exitStatus spells an exit code, naming the signal of 128+n codes.
func exitStatus(code int) string {
	if code > 128 && code < 128+65 {
		return fmt.Sprintf("exited %d (%s)", code, syscall.Signal(code-128))
	}
	return fmt.Sprintf("exited %d", code)
}

// Exited reports whether the program has ended; the pane keeps showing
// its final screen.
func (p *Pane) Exited() bool {
	return p.s.State() != pty.Running
}

// Close stops the pane's input goroutine. It does not stop the session:
// sessions belong to their pty.Manager, which the root asks to close them.
func (p *Pane) Close() {
	p.in.close()
}

// send queues input for the program.
func (p *Pane) send(b []byte) {
	p.in.send(b)
}
