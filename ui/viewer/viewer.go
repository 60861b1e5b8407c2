// Package viewer is the pager for spilled tool output and any other file
// (`/open PATH`): it opens a file of any size at once, keeps colours, and
// says where a spill file came from and whether it is still what was
// recorded (H8).
//
// # Lazy loading
//
// Open reads nothing but the file's size. What is drawn is read with
// positioned reads (ReadAt) of a window around the screen, and a line
// longer than 16 KiB is drawn as several rows (see rows.go), so drawing and
// moving read a bounded amount however big the file or long its lines. The
// viewer's position is a byte offset, not a line number: going to the end of
// a 1 GiB file reads its last few KiB and needs no line count.
//
// # Background work without goroutines
//
// Work that touches the whole file — counting lines (a sparse index), the
// sha256 check of a spill file, a search, going to a line the index has not
// reached — is done in bounded steps. The viewer starts no goroutine. When
// work remains, Update (and Init and Refresh) return an Action with More set
// and a StepMsg; the root sends that message back, as a tea.Cmd returning
// it, and Update does at most stepBudget of work before answering again.
// Keys are handled between steps, so the person can scroll, or press esc to
// stop a search, while a 1 GiB file is hashed. At most one StepMsg is
// outstanding at a time, so the chain never multiplies.
//
// The reads in View, in key handling and in a step are IO on the UI
// goroutine, which STYLE.md asks to avoid: they are kept small instead (a
// 256 KiB window for drawing and moving, 1 MiB per step) and are positioned
// reads of a file that is usually in the page cache. Open reads the
// transcript when given one; the root may call it from a tea.Cmd.
package viewer

import (
	"cmp"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/textinput"

	"github.com/seed92b641c3/workbench/tools"
)

// Tuning numbers.
const (
	// stepBudget is the work one StepMsg does: a key waits at most about
	// this long behind a step, and 1 GiB still indexes in about a second.
	stepBudget = 8 * time.Millisecond
	// chunkSize is what one unit of background work reads (index, hash or
	// search); a step does as many as fit in stepBudget.
	chunkSize = 1 << 20
	// cacheWindow is how much is read around what drawing or moving needs,
	// so a screen and the next few moves share one read.
	cacheWindow = 256 << 10
	// staleStep is how long an unanswered StepMsg is waited for before
	// another is asked for, in case the root dropped one.
	staleStep = time.Second
	// hScroll is how many columns left and right move when lines are not
	// wrapped.
	hScroll = 8
	// wheelLines is how many lines one mouse-wheel notch scrolls.
	wheelLines = 3
	// Sizes assumed before the first View tells the real ones.
	defaultWidth, defaultBody = 80, 20
)

// Options says where the file comes from.
type Options struct {
	// Spill is the record of a spill file, when the viewer is opened from
	// a tool result: its provenance is shown and its sha256 checked.
	Spill *tools.Spill
	// TranscriptPath is the session's transcript, where the record of a
	// file opened with /open is looked up among the spill entries.
	TranscriptPath string
	// Follow starts in follow mode, for output that is still being
	// written (a background task's log).
	Follow bool
	// Name is what the header calls the file, when the path is not the
	// best name for it (a spill file's path relative to the project).
	Name string
}

// Action is what the viewer asks of the root after a message. The zero
// Action asks for nothing.
type Action struct {
	// Close is set when the person closed the viewer: the root calls
	// Close and drops it.
	Close bool
	// More is set when background work remains: the root returns a
	// tea.Cmd that delivers Step, and passes Step to Update when it comes.
	More bool
	// Step is the message to send back when More is set.
	Step StepMsg
}

// StepMsg asks the viewer to do its next bounded piece of background work.
// It names the viewer and the request, so a step meant for a closed viewer,
// or one overtaken by a newer request, is ignored.
type StepMsg struct{ id, seq uint64 }

// mode is what keys currently drive.
type mode int

const (
	browsing  mode = iota
	searching      // typing a search pattern after /
	lineInput      // typing a line number after :
)

var viewerIDs atomic.Uint64

// Viewer is a pager over one file. Build it with Open; the root feeds it
// messages with Update, draws it with View, calls Refresh on a tick while it
// is shown (for follow mode and growing files) and Close when done.
type Viewer struct {
	id     uint64
	path   string
	name   string // for the header
	f      *os.File
	size   int64
	mod    time.Time
	closed bool
	err    error // the last read error, shown in the footer

	cache   span   // the window last read for drawing and moving
	scratch []byte // buffer for index, hash and search chunks, made at the first step
	idx     lineIndex
	idxErr  error
	lastNL  bool // the last byte counted is a newline
	memo    struct{ off, line int64 }
	prov    provenance

	top    int64 // the row at the top of the screen
	topSub int   // with wrap, the first of that row's lines on screen
	xoff   int   // without wrap, the first column on screen
	wrap   bool
	follow bool

	width, bodyH int
	shownEnd     int64 // where the rows the last View showed end
	maxCols      int   // the widest row the last View showed
	subMemo      struct {
		row   int64
		width int
		n     int
	}

	mode     mode
	input    textinput.Model
	search   search
	starts   []int64  // row starts of a search chunk, reused
	dirty    []bool   // which of them sanitizing changes, reused
	runs     [][2]int // runs of them matched at once, reused
	gotoLine int64    // a line (1-based) waiting for the index to reach it
	msg      string
	msgBad   bool

	seq      uint64 // the last StepMsg asked for
	queued   bool   // a StepMsg is on its way
	queuedAt time.Time

	keys   keyMap
	turn   bool          // alternates index and hash chunks
	budget time.Duration // work per StepMsg: stepBudget, or less in tests
}

// screenRow is a row on screen: its offset and, with wrap, which of its
// lines are shown.
type screenRow struct {
	row      int64
	from, to int // lines [from, to) of the wrapped row
}

// Open opens path for viewing. It reads only the file's size (and looks up
// its record in the transcript when asked), so a file of any size opens at
// once; call Init next to start the background work.
func Open(path string, opts Options) (*Viewer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("viewer: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("viewer: %w", err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("viewer: %s is not a regular file", path)
	}
	v := &Viewer{
		id:     viewerIDs.Add(1),
		path:   path,
		name:   cmp.Or(opts.Name, path),
		f:      f,
		size:   fi.Size(),
		mod:    fi.ModTime(),
		idx:    newLineIndex(),
		follow: opts.Follow,
		width:  defaultWidth,
		bodyH:  defaultBody,
		keys:   newKeyMap(),
		budget: stepBudget,
		input:  newInput(),
	}
	v.subMemo.row = -1
	v.memo.off = -1
	v.prov = recordFor(path, opts)
	v.prov.start(v.size)
	return v, nil
}

// Init starts the background work (line count, sha256 check): the root
// acts on the Action as on Update's.
func (v *Viewer) Init() Action { return v.action() }

// Close releases the file. It is safe to call more than once; a StepMsg
// still on its way afterwards is ignored.
func (v *Viewer) Close() error {
	if v.closed {
		return nil
	}
	v.closed = true
	v.scratch, v.cache = nil, span{}
	return v.f.Close()
}

// Path is the file being viewed, as it was given to Open, so the root can
// bring forward a viewer already open on a file instead of opening it twice.
func (v *Viewer) Path() string { return v.path }

// Pending reports whether background work remains, for code that drives
// Step itself (tests, benchmarks) rather than through StepMsg.
func (v *Viewer) Pending() bool {
	return !v.closed && (v.gotoLine > 0 || v.search.active || v.indexing() || v.prov.state == hashChecking)
}

// Step does background work for about budget (at least one chunk when any
// is pending) and reports whether more remains. Update calls it for a
// StepMsg; tests and benchmarks call it directly.
func (v *Viewer) Step(budget time.Duration) bool {
	deadline := time.Now().Add(budget)
	for v.Pending() {
		v.work()
		if !time.Now().Before(deadline) {
			break
		}
	}
	return v.Pending()
}

// work does one chunk of the most urgent job: what the person is waiting
// for (a line, a search) first, then the line count and the sha256 check
// in turn.
func (v *Viewer) work() {
	if v.scratch == nil {
		v.scratch = make([]byte, chunkSize+backReach+rowReach)
	}
	switch {
	case v.gotoLine > 0:
		if !v.resolveGoto() {
			v.indexChunk()
		}
	case v.search.active:
		v.searchChunk()
	default:
		v.turn = !v.turn
		hashing := v.prov.state == hashChecking
		if v.indexing() && (v.turn || !hashing) {
			v.indexChunk()
		} else if hashing {
			v.prov.hashChunk(v.f, v.scratch[:chunkSize])
		}
	}
}

// action asks the root for a step when work remains and none is on its way.
func (v *Viewer) action() Action {
	if !v.Pending() || v.queued && time.Since(v.queuedAt) < staleStep {
		return Action{}
	}
	v.seq++
	v.queued, v.queuedAt = true, time.Now()
	return Action{More: true, Step: StepMsg{id: v.id, seq: v.seq}}
}

// Refresh looks at the file again, for a file that is still being written:
// new lines appear (and in follow mode the end stays in view), a rewritten
// file is read afresh, and a file replaced under its name (log rotation) is
// reopened. It costs a stat or two; the root calls it on a tick while the
// viewer is shown.
func (v *Viewer) Refresh() Action {
	if v.closed {
		return Action{}
	}
	replaced := false
	if named, err := os.Stat(v.path); err == nil {
		if cur, err := v.f.Stat(); err == nil && !os.SameFile(named, cur) {
			if f, err := os.Open(v.path); err == nil {
				v.f.Close()
				v.f, replaced = f, true
			}
		}
	}
	fi, err := v.f.Stat()
	if err != nil {
		v.err = err
		return v.action()
	}
	size, mod := fi.Size(), fi.ModTime()
	if !replaced && size == v.size && mod.Equal(v.mod) {
		return v.action()
	}
	// Growth is taken as an append; anything else means the old content
	// is gone and everything learnt about it is dropped.
	rewritten := replaced || size <= v.size || size < v.idx.scanned
	v.size, v.mod = size, mod
	v.cache = span{}
	v.subMemo.row = -1
	if rewritten {
		v.idx, v.idxErr, v.memo.off = newLineIndex(), nil, -1
		v.search.active = false
		v.search.found = false
		v.top = v.rowBefore(min(v.top, v.size) + 1)
		if v.top >= v.size {
			v.top = v.rowBefore(v.size)
		}
		v.topSub = 0
		v.clampBottom()
	}
	v.prov.start(size)
	return v.action()
}

func (v *Viewer) say(msg string, bad bool) { v.msg, v.msgBad = msg, bad }

func newInput() textinput.Model {
	in := textinput.New()
	st := textinput.DefaultDarkStyles()
	st.Cursor.Blink = false
	in.SetStyles(st)
	return in
}
