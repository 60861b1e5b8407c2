package hooks

import (
	"sync"
	"time"
)

// alarms time the in-process hooks that need a timer: an isolated hook, and
// a hook that asks for its context's Done channel. Arming a runtime timer
// for every call cost more than a trivial hook itself (each new earliest
// timer wakes the scheduler's poller), so waits share timers instead: a
// deadline is rounded up to a grain of 1/64 of the wait, at least a
// millisecond, and every wait that rounds to the same instant gets the same
// channel. A stream of hook calls then arms about one timer per grain, and
// a timeout fires at most 1/64 of itself late.
var alarms = alarmClock{slots: map[int64]chan struct{}{}}

type alarmClock struct {
	mu    sync.Mutex
	slots map[int64]chan struct{} // by rounded deadline, Unix nanoseconds
}

// roundedDeadline is the end of a wait of d from now as the alarms keep it:
// rounded up to a grain of d/64, at least a millisecond.
func roundedDeadline(now time.Time, d time.Duration) time.Time {
	grain := int64(max(d/64, time.Millisecond))
	at := now.Add(d).UnixNano()
	if r := at % grain; r != 0 {
		at += grain - r
	}
	return time.Unix(0, at)
}

// after returns a channel closed once deadline, as rounded by
// roundedDeadline, has passed.
func (a *alarmClock) after(now, deadline time.Time) <-chan struct{} {
	at := deadline.UnixNano()
	a.mu.Lock()
	defer a.mu.Unlock()
	ch, ok := a.slots[at]
	if !ok {
		ch = make(chan struct{})
		a.slots[at] = ch
		time.AfterFunc(deadline.Sub(now), func() { a.ring(at) })
	}
	return ch
}

func (a *alarmClock) ring(at int64) {
	a.mu.Lock()
	ch := a.slots[at]
	delete(a.slots, at)
	a.mu.Unlock()
	close(ch)
}
