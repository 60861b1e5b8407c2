package pty

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/seed92b641c3/workbench/tasks"
)

// Options configure a Manager.
type Options struct {
	// Env is the environment every session starts from; nil means the
	// process's own without the model credentials (tasks.InheritedEnv).
	// TERM=xterm-256color is set on top.
	Env []string
	// DefaultRows and DefaultCols are the terminal size when an OpenSpec
	// gives none; zero means 24x80.
	DefaultRows, DefaultCols int
	// KillGrace is how long a closed session's processes have between
	// SIGHUP and SIGKILL; zero means 2 seconds.
	KillGrace time.Duration
	// KeepExited is how long a session whose program exited stays listed
	// (with its final screen) before Open or List drops it; zero means 5
	// minutes, negative keeps it until closed.
	KeepExited time.Duration
	// IdleLimit closes a running session that printed nothing for this
	// long, at the next Open or List; zero or negative never does (a
	// person's shell may sit idle for hours).
	IdleLimit time.Duration
	// Wrap puts every session's program into the sandbox unless its
	// OpenSpec says otherwise; nil runs them as they are.
	Wrap Wrapper
	// Explain reads the output of a session run under Wrap for a refusal
	// of the sandbox (Session.Explain).
	Explain Explainer

	// plainFeed turns the fast path off, for the benchmark's reference.
	plainFeed bool
}

// Defaults of a Manager.
const (
	defaultRows       = 24
	defaultCols       = 80
	defaultKillGrace  = 2 * time.Second
	defaultKeepExited = 5 * time.Minute
)

// Manager holds the pty sessions of one Workbench session: ids sh_1,
// sh_2, ... in order of opening, the notifications of dispatched and
// monitored sessions, and subscribers to session events. CloseAll stops
// everything it started (H14).
type Manager struct {
	opts Options

	mu       sync.Mutex
	sessions map[string]*Session
	order    []string
	next     int
	closed   bool
	subs     map[chan Event]struct{}
	queue    []Notification
	watchers sync.WaitGroup
}

// NewManager makes an empty Manager.
func NewManager(opts Options) *Manager {
	if opts.DefaultRows <= 0 {
		opts.DefaultRows = defaultRows
	}
	if opts.DefaultCols <= 0 {
		opts.DefaultCols = defaultCols
	}
	if opts.KillGrace <= 0 {
		opts.KillGrace = defaultKillGrace
	}
	if opts.KeepExited == 0 {
		opts.KeepExited = defaultKeepExited
	}
	if opts.Env == nil {
		opts.Env = tasks.InheritedEnv()
	}
	return &Manager{opts: opts, sessions: map[string]*Session{}, subs: map[chan Event]struct{}{}}
}

// environ is a child's environment: the Manager's, the session's extras,
// and the terminal type vt10x emulates best.
func (m *Manager) environ(extra []string) []string {
	env := make([]string, 0, len(m.opts.Env)+len(extra)+1)
	for _, kv := range slices.Concat(m.opts.Env, extra) {
		if !strings.HasPrefix(kv, "TERM=") {
			env = append(env, kv)
		}
	}
	return append(env, "TERM=xterm-256color")
}

// Open starts a program in a new session.
func (m *Manager) Open(spec OpenSpec) (*Session, error) {
	m.reap()
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrClosed
	}
	m.next++
	id := fmt.Sprintf("sh_%d", m.next)
	m.mu.Unlock()
	s, err := start(m, id, spec)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	if m.closed { // CloseAll ran while the program started
		m.mu.Unlock()
		s.close()
		return nil, ErrClosed
	}
	m.sessions[id] = s
	m.order = append(m.order, id)
	m.mu.Unlock()
	m.publish(Event{Kind: EventOpened, ID: id})
	return s, nil
}

// Get finds a session by id.
func (m *Manager) Get(id string) (*Session, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sessions[id]
	return s, ok
}

// List returns the sessions in the order they were opened, after dropping
// sessions that exited long ago and closing idle ones (see Options).
func (m *Manager) List() []*Session {
	m.reap()
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*Session, 0, len(m.order))
	for _, id := range m.order {
		out = append(out, m.sessions[id])
	}
	return out
}

// Close stops a session and forgets it. It returns the session, whose
// final screen and exit code stay readable.
func (m *Manager) Close(id string) (*Session, error) {
	m.mu.Lock()
	s, ok := m.sessions[id]
	if ok {
		m.forget(id)
	}
	m.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no shell session %q", id)
	}
	s.close()
	m.publish(Event{Kind: EventClosed, ID: id})
	return s, nil
}

// forget removes a session from the tables; the caller holds m.mu.
func (m *Manager) forget(id string) {
	delete(m.sessions, id)
	m.order = slices.DeleteFunc(m.order, func(x string) bool { return x == id })
}

// CloseAll stops every session and every watcher, and refuses new
// sessions: what a Workbench session does on its way out. When it
// returns, no process it started is left running (H14).
func (m *Manager) CloseAll() {
	m.mu.Lock()
	m.closed = true
	all := make([]*Session, 0, len(m.sessions))
	for _, id := range m.order {
		all = append(all, m.sessions[id])
	}
	m.sessions, m.order = map[string]*Session{}, nil
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range all {
		wg.Go(s.close)
	}
	wg.Wait()
	m.watchers.Wait()
	for _, s := range all {
		m.publish(Event{Kind: EventClosed, ID: s.id})
	}
	m.mu.Lock()
	for ch := range m.subs {
		close(ch)
	}
	m.subs = map[chan Event]struct{}{}
	m.mu.Unlock()
}

// reap drops sessions that exited more than KeepExited ago and closes
// running ones idle for IdleLimit.
func (m *Manager) reap() {
	var idle []string
	m.mu.Lock()
	for _, id := range slices.Clone(m.order) {
		s := m.sessions[id]
		s.mu.Lock()
		state, ended, last := s.state, s.ended, s.lastOutput
		s.mu.Unlock()
		switch {
		case state != Running && m.opts.KeepExited > 0 && time.Since(ended) > m.opts.KeepExited:
			m.forget(id)
		case state == Running && m.opts.IdleLimit > 0 && time.Since(last) > m.opts.IdleLimit:
			idle = append(idle, id)
		}
	}
	m.mu.Unlock()
	for _, id := range idle {
		_, _ = m.Close(id)
	}
}

// EventKind says what happened to a session.
type EventKind int

// Session events, in the order they can happen.
const (
	EventOpened EventKind = iota
	EventExited
	EventClosed
	// EventNotification: a notification was queued (see Drain).
	EventNotification
)

// Event tells a subscriber (the UI) that a session opened, exited or was
// closed, or that a notification is waiting.
type Event struct {
	Kind EventKind
	ID   string
	// Code is the exit code, for EventExited.
	Code int
}

// eventBuffer is how many events wait for a slow subscriber before newer
// ones are dropped; List is always the full truth.
const eventBuffer = 64

// Subscribe returns a channel of session events and a function that ends
// the subscription. Events are dropped, never waited for, when the
// subscriber falls eventBuffer behind; CloseAll closes the channel.
func (m *Manager) Subscribe() (<-chan Event, func()) {
	ch := make(chan Event, eventBuffer)
	m.mu.Lock()
	if m.closed {
		close(ch)
	} else {
		m.subs[ch] = struct{}{}
	}
	m.mu.Unlock()
	return ch, func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		if _, ok := m.subs[ch]; ok {
			delete(m.subs, ch)
			close(ch)
		}
	}
}

func (m *Manager) publish(e Event) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for ch := range m.subs {
		select {
		case ch <- e:
		default:
		}
	}
}

// Notification is a message for the model about a session that runs in
// the background: a dispatched session finished, or a monitored session
// printed a watched pattern or exited.
type Notification struct {
	// ID is the session id.
	ID string
	// Kind is "dispatch" or "monitor".
	Kind string
	// Status is "running" (a pattern matched) or "completed" (the session
	// finished or exited).
	Status string
	// Text is the message, with the latest output.
	Text string
}

// Drain returns the queued notifications, oldest first, and empties the
// queue. The agent loop calls it between turns.
func (m *Manager) Drain() []Notification {
	m.mu.Lock()
	defer m.mu.Unlock()
	q := m.queue
	m.queue = nil
	return q
}

// Pending returns how many notifications are queued.
func (m *Manager) Pending() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.queue)
}

func (m *Manager) notify(n Notification) {
	m.mu.Lock()
	m.queue = append(m.queue, n)
	m.mu.Unlock()
	m.publish(Event{Kind: EventNotification, ID: n.ID})
}

// errNoPatterns is returned by Monitor without patterns.
var errNoPatterns = errors.New("monitor needs at least one pattern")
