package session

import (
	"context"
	"time"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/tasks"
	"github.com/seed92b641c3/workbench/tasks/pty"
)

// notifiers merges the notification sources of a session (background
// tasks, PTY sessions) into the one the loop drains.
type notifiers []interface {
	Drain() []tasks.Notification
	Pending() bool
}

func (n notifiers) Drain() []agent.Notification {
	var out []agent.Notification
	for _, src := range n {
		for _, x := range src.Drain() {
			out = append(out, agent.Notification{ID: x.ID, Text: x.Text})
		}
	}
	return out
}

// Active reports running background tasks that will notify when they end.
func (n notifiers) Active() bool {
	for _, src := range n {
		if a, ok := src.(interface{ Active() bool }); ok && a.Active() {
			return true
		}
	}
	return false
}

// WaitNotification polls until news is pending or nothing runs any more.
func (n notifiers) WaitNotification(ctx context.Context) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for !n.Pending() && n.Active() {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (n notifiers) Pending() bool {
	for _, src := range n {
		if src.Pending() {
			return true
		}
	}
	return false
}

// notifiers lists the session's sources of background news.
func (s *Session) notifiers() notifiers {
	var n notifiers
	if s.Tasks != nil {
		n = append(n, taskSource{s.Tasks})
	}
	if s.Shells != nil {
		n = append(n, shellSource{s.Shells})
	}
	return n
}

// taskSource adapts the task manager to the loop's notifier, adding
// whether backgrounded tasks are still running.
type taskSource struct{ *tasks.Manager }

func (t taskSource) Active() bool {
	for _, s := range t.List() {
		if s.Running() && s.Background {
			return true
		}
	}
	return false
}

// shellSource adapts PTY sessions' dispatch and monitor news.
type shellSource struct{ m *pty.Manager }

func (s shellSource) Pending() bool { return s.m.Pending() > 0 }

func (s shellSource) Drain() []tasks.Notification {
	var out []tasks.Notification
	for _, n := range s.m.Drain() {
		out = append(out, tasks.Notification{ID: n.ID, Text: n.Text})
	}
	return out
}
