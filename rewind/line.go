package rewind

import "sync"

// line runs the store's work one piece at a time, in the order it was
// asked for, whether the asker waits for it or not: a checkpoint taken in
// the background before a prompt must come before the checkpoint of the
// first call that prompt makes, which waits for it. A mutex would let the
// call go first.
type line struct {
	mu sync.Mutex
	// tail is closed when the last piece of work in line has finished.
	tail chan struct{}
}

// joinLocked takes the last place in line (l.mu held): ready is closed
// when every piece before has finished, and leave lets the next one in.
func (l *line) joinLocked() (ready <-chan struct{}, leave func()) {
	prev, done := l.tail, make(chan struct{})
	l.tail = done
	if prev == nil {
		prev = make(chan struct{})
		close(prev)
	}
	return prev, func() { close(done) }
}

// enter waits for its turn and returns the function that ends it.
func (l *line) enter() (leave func()) {
	l.mu.Lock()
	ready, leave := l.joinLocked()
	l.mu.Unlock()
	<-ready
	return leave
}
