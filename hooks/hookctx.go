package hooks

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// hookContext is the context an in-process hook runs under: its parent's
// values and cancellation plus the hook's own deadline. It does what
// context.WithTimeout does without arming a timer for every call: Err
// compares the clock with the deadline, and the Done channel, which does
// need the shared alarms, is built only for a hook that asks for it. Most
// hooks decide from their input and never do.
type hookContext struct {
	context.Context           // the parent
	deadline        time.Time // rounded up, see roundedDeadline

	once     sync.Once
	done     chan struct{}
	stop     chan struct{}
	finished atomic.Bool
}

func newHookContext(parent context.Context, start time.Time, timeout time.Duration) *hookContext {
	return &hookContext{Context: parent, deadline: roundedDeadline(start, timeout)}
}

// Deadline reports the earlier of the parent's deadline and the hook's.
func (c *hookContext) Deadline() (time.Time, bool) {
	if d, ok := c.Context.Deadline(); ok && d.Before(c.deadline) {
		return d, true
	}
	return c.deadline, true
}

// Done closes when the parent is done, the deadline passes, or the hook has
// returned.
func (c *hookContext) Done() <-chan struct{} {
	c.once.Do(c.build)
	return c.done
}

func (c *hookContext) build() {
	alarm := alarms.after(time.Now(), c.deadline)
	c.done = make(chan struct{})
	if c.finished.Load() {
		close(c.done)
		return
	}
	c.stop = make(chan struct{})
	parent := c.Context.Done()
	go func() {
		select {
		case <-parent:
		case <-alarm:
		case <-c.stop:
		}
		close(c.done)
	}()
}

// Err is consistent with Done: the parent's error first, then the
// deadline, then Canceled once the hook has returned.
func (c *hookContext) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	if !time.Now().Before(c.deadline) {
		return context.DeadlineExceeded
	}
	if c.finished.Load() {
		return context.Canceled
	}
	return nil
}

// finish ends the context when the hook has returned, as the cancel
// function of context.WithTimeout would, and lets the goroutine behind a
// Done channel go.
func (c *hookContext) finish() {
	c.finished.Store(true)
	c.once.Do(func() { c.done = closed })
	if c.stop != nil {
		close(c.stop)
	}
}

// closed is the Done channel of a hook context that ended before anyone
// asked for one.
var closed = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()
