package ptyview

import (
	"sync"

	"github.com/seed92b641c3/workbench/tasks/pty"
)

// inputQueue is how many writes (a key, a paste) may wait for a program
// that does not read its input. Keys beyond it are dropped: the program has
// not read the last inputQueue keys, and blocking the UI instead would
// freeze every other pane and the conversation with it.
const inputQueue = 256

// writer hands input to the program from a goroutine of its own, so the
// root's Update never blocks on a pty whose input buffer is full (a big
// paste into a program busy printing can take seconds). It keeps the order
// of keys. Its goroutine starts with the first write and ends when the
// session ends or the pane is closed, whichever comes first.
type writer struct {
	s       *pty.Session
	once    sync.Once
	queue   chan []byte
	stop    chan struct{}
	stopped sync.Once
	mu      sync.Mutex
	dropped int
	err     error
}

func newWriter(s *pty.Session) *writer {
	return &writer{s: s, queue: make(chan []byte, inputQueue), stop: make(chan struct{})}
}

// send queues b for the program.
func (w *writer) send(b []byte) {
	w.once.Do(func() { go w.loop() })
	select {
	case <-w.stop:
		return
	default:
	}
	select {
	case w.queue <- b:
	default:
		w.mu.Lock()
		w.dropped++
		w.mu.Unlock()
	}
}

func (w *writer) loop() {
	for {
		select {
		case b := <-w.queue:
			if _, err := w.s.Write(b); err != nil {
				w.mu.Lock()
				w.err = err
				w.mu.Unlock()
			}
		case <-w.s.Done():
			return
		case <-w.stop:
			return
		}
	}
}

// close tells the goroutine to end. It does not wait: a write to a program
// that does not read can take the session's write timeout, and the UI must
// not. The goroutine ends right after that write.
func (w *writer) close() {
	w.once.Do(func() {}) // a send after close starts nothing
	w.stopped.Do(func() { close(w.stop) })
}

// problem returns how many writes were dropped and the last write error.
func (w *writer) problem() (dropped int, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.dropped, w.err
}
