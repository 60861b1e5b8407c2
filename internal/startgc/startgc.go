// Package startgc holds the garbage collector off while the TUI starts.
// Reading settings, assembling the session and drawing the first frame
// allocate far more than stays live (about 4 MB), so the collections the
// runtime runs meanwhile are work on the path to the first frame that
// frees little. One collection after the first frame frees the same
// garbage (ui/framegate forces it when the renderer first sleeps).
//
// Begin turns the collector off; Done, or backstop after Begin, whichever
// comes first, gives it back as it was. Meanwhile startLimit bounds the
// heap. Nothing changes in a process that never calls Begin.
package startgc

import (
	"runtime/debug"
	"sync"
	"time"
)

const (
	// backstop gives the collector back when nothing called Done: no
	// process runs long without it, whatever path it took (a start that
	// failed before its first frame, a terminal that never draws it).
	backstop = 2 * time.Second
	// startLimit is the memory limit while the collector is off: past it
	// the runtime collects all the same, so a start that loads much (a
	// long session resumed) does not grow without bound. A lower
	// GOMEMLIMIT of the person's stays.
	startLimit = 128 << 20
)

var (
	mu    sync.Mutex
	begun bool
	ended bool
	// percent and limit are GOGC and GOMEMLIMIT as they were at Begin,
	// what Done gives back.
	percent int
	limit   int64
)

// Begin turns the collector off for the start, once per process: later
// calls, and calls after Done, do nothing.
func Begin() {
	mu.Lock()
	defer mu.Unlock()
	if begun {
		return
	}
	begun = true
	percent = debug.SetGCPercent(-1)
	limit = debug.SetMemoryLimit(-1) // a negative limit only reads it
	if limit > startLimit {
		debug.SetMemoryLimit(startLimit)
	}
	time.AfterFunc(backstop, Done)
}

// Done gives the collector back its settings, GOGC and GOMEMLIMIT as they
// were at Begin: the start is over. Call it once the first frame is on
// screen. Without Begin, and after the first call, it does nothing.
func Done() {
	mu.Lock()
	defer mu.Unlock()
	if !begun || ended {
		return
	}
	ended = true
	debug.SetMemoryLimit(limit)
	debug.SetGCPercent(percent)
}
