package pty

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/hinshun/vt10x"

	"github.com/seed92b641c3/workbench/tasks"
)

// Tuning numbers of a session.
const (
	// readSize is the buffer of each pty read; the kernel rarely hands
	// over more than a few KiB at once, the rest is room.
	readSize = 64 << 10
	// drainBudget bounds the output read without waiting before the
	// screen is brought up to date: a flood is fed in big batches (the
	// fast path skips more), yet the screen lags the stream by at most
	// this much.
	drainBudget = 256 << 10
	// writeTimeout bounds a write of keys to a program that does not read
	// its input, so a caller is never stuck.
	writeTimeout = 5 * time.Second
	// exitQuiet and exitDrainMax: once the program has exited, output is
	// still read until nothing came for exitQuiet (or the pty reports its
	// end), at most exitDrainMax. Only a process that outlived the program
	// and still holds the terminal keeps it open that long.
	exitQuiet    = 100 * time.Millisecond
	exitDrainMax = 2 * time.Second
	// replyQueue is how many query answers may wait for the writer.
	replyQueue = 16
)

// ErrExited is returned when writing to a session whose program has ended.
var ErrExited = errors.New("the program in the session has exited")

// ErrClosed is returned by a Manager that was shut down, and when writing
// to a closed session.
var ErrClosed = errors.New("session closed")

// State is where a session is in its life.
type State string

// A session runs until its program exits (Exited, the final screen stays
// readable) or it is closed (Closed: the program was stopped).
const (
	Running State = "running"
	Exited  State = "exited"
	Closed  State = "closed"
)

// OpenSpec says what to run in a new session.
type OpenSpec struct {
	// Command is a shell command line, run with `bash -c`.
	Command string
	// Argv runs a program directly instead, such as a person's login
	// shell for an interactive pane. It wins over Command.
	Argv []string
	// WorkDir is the working directory; empty means the current one.
	WorkDir string
	// Env holds KEY=VALUE entries added after the Manager's environment;
	// a later entry for the same key wins. TERM is always xterm-256color.
	Env []string
	// Rows and Cols are the terminal size; zero means the Manager's
	// defaults.
	Rows, Cols int
	// Mode is a free-form label of how the session was opened (the tools'
	// mode, or "pane"), shown by List.
	Mode string
	// Prompt, when set, is the session's prompt pattern: Wait uses it
	// when a WaitSpec gives none.
	Prompt *regexp.Regexp
	// Wrap, when set, replaces the Manager's Options.Wrap for this
	// session; Unconfined runs it as it is (a person's own pane).
	Wrap Wrapper
	// Explain, with Wrap set, replaces the Manager's Options.Explain (nil:
	// no explanation, as for a session outside the sandbox).
	Explain Explainer
	// Person marks the person's own pane (/shell). It usually runs
	// outside the sandbox, so the agent's tools must not reach it: typing
	// into it would run commands outside the sandbox, and reading it
	// would show what the person keeps to themselves.
	Person bool
}

// Wrapper starts a program's command, inside the session's sandbox (H16)
// or as it is: the wrapper of package tasks, so one sandbox serves both.
// An error refuses the program: it does not start.
type Wrapper = tasks.Wrapper

// Explainer reads output of a program that ran in the sandbox and, when it
// shows a refusal the sandbox caused, returns a note that says so and names
// the way out; otherwise "". dir is the program's starting directory, for
// relative paths. The session's sandbox provides it.
type Explainer func(output, dir string) string

// Unconfined is the wrapper that starts a program as it is.
func Unconfined(cmd *exec.Cmd) (tasks.Proc, func(), error) { return tasks.Unconfined(cmd) }

// Session is one program in a pty with its live screen. All methods are
// safe for concurrent use.
type Session struct {
	id      string
	spec    OpenSpec
	started time.Time
	proc    tasks.Proc
	release func() // frees what the wrapper set up, once the session ended
	explain Explainer
	pid     int
	master  *os.File
	vt      vt10x.Terminal
	mgr     *Manager

	// feedMu serialises the feeder: the reader goroutine, and Resize.
	feedMu sync.Mutex
	feed   *feeder

	// writeMu serialises writes to the program (keys and query answers),
	// each with its own deadline.
	writeMu sync.Mutex
	replies chan []byte

	mu         sync.Mutex // guards the fields below
	out        ring
	lastOutput time.Time
	pulse      chan struct{} // closed and replaced when output arrives
	rows, cols int
	modes      Modes
	state      State
	code       int
	ended      time.Time
	mark       int64

	changed    chan struct{}
	readerDone chan struct{}
	done       chan struct{} // program exited and output drained, or closed
	stop       chan struct{} // tells the session's goroutines to end
	closeOnce  sync.Once
	stopOnce   sync.Once
	wg         sync.WaitGroup
}

// Size limits of a session's terminal, generous for any real window while
// bounding the emulator's memory.
const (
	MaxRows = 500
	MaxCols = 1000
)

// ID returns the session id (sh_1, sh_2, ...).
func (s *Session) ID() string { return s.id }

// Command returns what the session runs, for lists and titles.
func (s *Session) Command() string {
	if len(s.spec.Argv) > 0 {
		return strings.Join(s.spec.Argv, " ")
	}
	return s.spec.Command
}

// Person reports whether this is the person's own pane (OpenSpec.Person).
func (s *Session) Person() bool { return s.spec.Person }

// Mode returns the label the session was opened with.
func (s *Session) Mode() string { return s.spec.Mode }

// Prompt returns the session's prompt pattern, or nil.
func (s *Session) Prompt() *regexp.Regexp { return s.spec.Prompt }

// Pid returns the program's process id, which is also its session id.
func (s *Session) Pid() int { return s.pid }

// Started returns when the program was started.
func (s *Session) Started() time.Time { return s.started }

// State returns whether the session runs, has exited or was closed.
func (s *Session) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// Exited reports whether the program has ended and, if so, its exit code
// (128+n when signal n ended it, as a shell reports it).
func (s *Session) Exited() (bool, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state != Running, s.code
}

// Done is closed once the program has ended and its output is read to the
// end, so the screen is final.
func (s *Session) Done() <-chan struct{} { return s.done }

// Changed receives a value after the screen changed. Signals coalesce: one
// pending value stands for any number of changes, and the reader never
// waits for a slow consumer. It is meant for one consumer (the UI pane).
func (s *Session) Changed() <-chan struct{} { return s.changed }

// Idle returns how long ago the program last wrote output.
func (s *Session) Idle() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Since(s.lastOutput)
}

// Size returns the terminal size.
func (s *Session) Size() (rows, cols int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rows, s.cols
}

// Modes returns the input-related terminal modes, as of the last output
// the screen shows.
func (s *Session) Modes() Modes {
	var m Modes
	s.View(func(v *View) { m = v.Modes() })
	return m
}

// View calls fn with the screen while holding the terminal's lock, so a
// renderer reads a consistent screen in place. fn must not call other
// methods of the session.
func (s *Session) View(fn func(v *View)) {
	s.mu.Lock()
	bracketed := s.modes.BracketedPaste
	s.mu.Unlock()
	s.vt.Lock()
	defer s.vt.Unlock()
	cols, rows := s.vt.Size()
	mode := s.vt.Mode()
	v := &View{vt: s.vt, rows: rows, cols: cols, modes: Modes{
		AppCursor:      mode&vt10x.ModeAppCursor != 0,
		AltScreen:      mode&vt10x.ModeAltScreen != 0,
		Mouse:          mode&vt10x.ModeMouseMask != 0,
		BracketedPaste: bracketed,
	}}
	fn(v)
}

// Snapshot copies the screen. After the program exits it is the final
// screen.
func (s *Session) Snapshot() Screen {
	var sc Screen
	s.View(func(v *View) { sc = snapshot(v) })
	return sc
}

// Cursor returns the cursor position and whether it is shown.
func (s *Session) Cursor() (row, col int, visible bool) {
	s.View(func(v *View) { row, col, visible = v.Cursor() })
	return row, col, visible
}

// Title returns the window title the program set.
func (s *Session) Title() string {
	var t string
	s.View(func(v *View) { t = v.Title() })
	return t
}

// Total returns how many bytes the program has written in all: the
// current end of the stream, in the absolute positions ReadSince uses.
func (s *Session) Total() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.total
}

// ReadSince returns raw output from stream position cursor on, at most
// maxBytes of it (0: everything still held), and the position after it.
// omitted is true when output after cursor was already dropped from the
// RingSize buffer; data then starts at the oldest byte held.
func (s *Session) ReadSince(cursor int64, maxBytes int) (data []byte, next int64, omitted bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.since(cursor, maxBytes)
}

// Tail returns up to n bytes of the most recent output, not reaching back
// before position from.
func (s *Session) Tail(from int64, n int) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, _, _ := s.out.since(max(from, s.out.total-int64(n)), 0)
	return data
}

// Mark returns a stream position kept with the session for one reader
// between calls (the model's shell_read cursor); 0 at first.
func (s *Session) Mark() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mark
}

// SetMark stores the reader's stream position.
func (s *Session) SetMark(pos int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mark = pos
}

// Write sends bytes to the program as typed input. It fails once the
// program has exited, and gives up after writeTimeout when the program
// does not read its input.
func (s *Session) Write(p []byte) (int, error) {
	switch s.State() {
	case Exited:
		return 0, ErrExited
	case Closed:
		return 0, ErrClosed
	}
	return s.writeTerminal(p)
}

func (s *Session) writeTerminal(p []byte) (int, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	_ = s.master.SetWriteDeadline(time.Now().Add(writeTimeout))
	defer s.master.SetWriteDeadline(time.Time{})
	n, err := s.master.Write(p)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = fmt.Errorf("the program did not read its input for %v: %w", writeTimeout, err)
	}
	return n, err
}

// Paste sends text as a paste (see PasteBytes), bracketed when the program
// asked for it.
func (s *Session) Paste(text string) (int, error) {
	s.mu.Lock()
	bracketed := s.modes.BracketedPaste
	s.mu.Unlock()
	return s.Write(PasteBytes(text, bracketed))
}

// Resize changes the terminal size: the screen first, then the pty, whose
// size change makes the kernel send SIGWINCH to the program, so its redraw
// is read at the new size.
func (s *Session) Resize(rows, cols int) error {
	if rows < 1 || cols < 1 || rows > MaxRows || cols > MaxCols {
		return fmt.Errorf("terminal size %dx%d is outside 1x1 to %dx%d", rows, cols, MaxRows, MaxCols)
	}
	s.feedMu.Lock()
	s.feed.resize(rows, cols)
	s.feedMu.Unlock()
	s.mu.Lock()
	s.rows, s.cols = rows, cols
	running := s.state == Running
	s.mu.Unlock()
	s.signalChanged()
	if !running {
		return nil
	}
	return setSize(s.master, rows, cols)
}

// Explain reads output of the session (a piece of its stream, or its
// screen) for a refusal of the sandbox and returns the sandbox's note, or
// "" when there is none or the session runs outside the sandbox.
func (s *Session) Explain(output string) string {
	if s.explain == nil || output == "" {
		return ""
	}
	return s.explain(output, s.spec.WorkDir)
}
