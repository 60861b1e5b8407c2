package pty

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// Sizes of the output quoted in notifications and scanned by monitors.
const (
	// notifyTail is how much of the latest output a notification quotes.
	notifyTail = 4096
	// monitorWindow is how much of the latest output a monitor searches
	// after each burst of output.
	monitorWindow = 8192
)

// Dispatch waits in the background until the session is done with what it
// was asked (see Wait) and then queues a notification with the reason and
// the latest output. It returns at once. The watcher ends with the session.
func (m *Manager) Dispatch(s *Session, w WaitSpec) {
	m.watch(func() {
		by := s.Wait(context.Background(), w)
		if by == DoneInterrupted || s.State() == Closed {
			return // the session was closed: whoever closed it knows
		}
		text := fmt.Sprintf("Shell session %s is done (done_by=%s)%s. Latest output:\n%s",
			s.id, by, exitNote(s), tailText(s))
		m.notify(Notification{ID: s.id, Kind: "dispatch", Status: "completed", Text: text})
	})
}

// Monitor watches a session's output in the background: each pattern that
// matches the latest output queues one notification (a match does not stop
// the session), and the end of the program queues a final one.
func (m *Manager) Monitor(s *Session, patterns []*regexp.Regexp) error {
	if len(patterns) == 0 {
		return errNoPatterns
	}
	m.watch(func() {
		fired := make([]bool, len(patterns))
		for {
			next := s.outputSignal()
			finished := isDone(s)
			text := PlainText(s.Tail(0, monitorWindow))
			for i, p := range patterns {
				if fired[i] {
					continue
				}
				if loc := p.FindStringIndex(text); loc != nil {
					fired[i] = true
					msg := fmt.Sprintf("Shell session %s printed a line matching %q:\n%s",
						s.id, p.String(), lineAround(text, loc[0]))
					m.notify(Notification{ID: s.id, Kind: "monitor", Status: "running", Text: msg})
				}
			}
			if finished {
				break
			}
			select {
			case <-next:
			case <-s.done:
			}
		}
		if s.State() == Closed {
			return // whoever closed it knows
		}
		text := fmt.Sprintf("Shell session %s ended%s. Latest output:\n%s", s.id, exitNote(s), tailText(s))
		m.notify(Notification{ID: s.id, Kind: "monitor", Status: "completed", Text: text})
	})
	return nil
}

func isDone(s *Session) bool { return isClosed(s.done) }

// watch runs fn in a goroutine that CloseAll waits for. Every watcher
// ends by itself once the session is done, which closing it brings about.
func (m *Manager) watch(fn func()) {
	m.watchers.Add(1)
	go func() {
		defer m.watchers.Done()
		fn()
	}()
}

// exitNote says how the program ended, if it did.
func exitNote(s *Session) string {
	switch s.State() {
	case Exited:
		_, code := s.Exited()
		return fmt.Sprintf(" with exit code %d", code)
	case Closed:
		return " (closed)"
	}
	return ""
}

// tailText is the latest output as text for a notification.
func tailText(s *Session) string {
	return strings.TrimRight(PlainText(s.Tail(0, notifyTail)), "\n")
}

// lineAround returns the line holding text[at] with up to two lines of
// context on each side.
func lineAround(text string, at int) string {
	lines := strings.Split(text, "\n")
	pos := 0
	for i, l := range lines {
		if at <= pos+len(l) {
			from, to := max(0, i-2), min(len(lines), i+3)
			return strings.Join(lines[from:to], "\n")
		}
		pos += len(l) + 1
	}
	return text
}
