package tasks

import "sync"

// EventKind says what happened to a task.
type EventKind string

// The kinds of TaskEvent.
const (
	EventStarted EventKind = "started"
	// EventOutput says the task wrote output. It is sent at most every
	// outputEvery per task, and a subscriber that falls behind gets only
	// the latest one per task, so it is a hint to redraw, not a log.
	EventOutput EventKind = "output"
	EventEnded  EventKind = "ended"
	// EventNotify carries a notification that was queued for the model.
	EventNotify EventKind = "notify"
)

// TaskEvent is one change of a task, for a UI that follows them.
type TaskEvent struct {
	Kind EventKind
	// Task is the task's state when the event was sent.
	Task Snapshot
	// Notification is set for EventNotify.
	Notification Notification
}

// maxBacklog bounds the events waiting for a subscriber that does not read.
// Output and notify events beyond it are dropped; started and ended events
// are always kept, since a UI needs them to know which tasks exist, and there
// is one of each per task.
const maxBacklog = 1024

// Subscribe returns a channel of task events and a function that ends the
// subscription and closes the channel. A slow reader never holds up a task:
// events wait in a bounded backlog (see maxBacklog and EventOutput). Close
// ends every subscription.
func (m *Manager) Subscribe() (<-chan TaskEvent, func()) {
	s := &subscriber{
		out: make(chan TaskEvent), wake: make(chan struct{}, 1),
		quit: make(chan struct{}), done: make(chan struct{}),
	}
	m.smu.Lock()
	closed := m.subs == nil
	if !closed {
		m.subs[s] = struct{}{}
	}
	m.smu.Unlock()
	go s.loop()
	if closed {
		s.stop()
	}
	return s.out, func() {
		m.smu.Lock()
		delete(m.subs, s)
		m.smu.Unlock()
		s.stop()
	}
}

// publish hands an event to every subscriber without blocking.
func (m *Manager) publish(ev TaskEvent) {
	m.smu.Lock()
	defer m.smu.Unlock()
	for s := range m.subs {
		s.push(ev)
	}
}

// subscriber is one reader's backlog and the goroutine that delivers it.
type subscriber struct {
	out  chan TaskEvent
	wake chan struct{}
	quit chan struct{}
	done chan struct{}
	once sync.Once

	mu      sync.Mutex
	backlog []TaskEvent
}

func (s *subscriber) push(ev TaskEvent) {
	s.mu.Lock()
	switch {
	case ev.Kind == EventOutput && s.replaceOutput(ev):
	case len(s.backlog) >= maxBacklog && (ev.Kind == EventOutput || ev.Kind == EventNotify):
	default:
		s.backlog = append(s.backlog, ev)
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// replaceOutput updates a waiting output event of the same task instead of
// adding another. Called with s.mu held.
func (s *subscriber) replaceOutput(ev TaskEvent) bool {
	for i := range s.backlog {
		if s.backlog[i].Kind == EventOutput && s.backlog[i].Task.ID == ev.Task.ID {
			s.backlog[i] = ev
			return true
		}
	}
	return false
}

// loop delivers the backlog in order until stop.
func (s *subscriber) loop() {
	defer close(s.done)
	defer close(s.out)
	for {
		s.mu.Lock()
		if len(s.backlog) == 0 {
			s.mu.Unlock()
			select {
			case <-s.wake:
				continue
			case <-s.quit:
				return
			}
		}
		ev := s.backlog[0]
		s.backlog[0] = TaskEvent{}
		s.backlog = s.backlog[1:]
		s.mu.Unlock()
		select {
		case s.out <- ev:
		case <-s.quit:
			return
		}
	}
}

// stop ends delivery and waits for the goroutine; safe to call twice.
func (s *subscriber) stop() {
	s.once.Do(func() { close(s.quit) })
	<-s.done
}
