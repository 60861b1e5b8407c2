package approval

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/tools/askuser"
)

// Modal is a dialog the Queue holds: an approval (Dialog) or a set of
// questions (QuestionDialog). Only this package implements it, because the
// queue restarts a modal's grace period when it comes to the front.
type Modal interface {
	// Update handles a message and says what the root should do.
	Update(msg tea.Msg) Action
	// View draws the modal within width × height cells.
	View(width, height int) string

	reopen(now time.Time)
	setPlace(place, total int)
}

// Queue holds the requests waiting for the person, oldest first. Only the
// first is shown; its title says how many wait ("1 of 3"), so parallel tool
// calls that each need approval are answered one at a time instead of
// hiding each other. The zero Queue is ready to use.
type Queue struct {
	// Now is the clock of the grace period restarted when a modal comes to
	// the front; nil means time.Now.
	Now   func() time.Time
	items []Modal
}

func (q *Queue) now() time.Time {
	if q.Now != nil {
		return q.Now()
	}
	return time.Now()
}

// Push builds the dialog for req with New and queues it. New reads the file
// a file tool would change, so a root that keeps IO out of Update calls New
// in the tea.Cmd that receives the request and queues the result with Add.
func (q *Queue) Push(req agent.ApprovalRequest, opts Options) *Dialog {
	d := New(req, opts)
	q.Add(d)
	return d
}

// PushQuestion queues a question dialog (it does no IO).
func (q *Queue) PushQuestion(qs []askuser.Question, opts ...Options) *QuestionDialog {
	d := NewQuestion(qs, opts...)
	q.Add(d)
	return d
}

// Add queues a modal built elsewhere and reports whether it is now the one
// shown, which is when the root should ring (see Alert). A modal that waited
// behind others gets a fresh grace period when it comes to the front.
func (q *Queue) Add(m Modal) (shown bool) {
	q.items = append(q.items, m)
	if len(q.items) == 1 {
		m.reopen(q.now())
		return true
	}
	return false
}

// Len is the number of modals waiting, the shown one included, for the
// status line's pending-approvals count.
func (q *Queue) Len() int { return len(q.items) }

// Current is the modal shown, or nil when none waits.
func (q *Queue) Current() Modal {
	if len(q.items) == 0 {
		return nil
	}
	q.items[0].setPlace(1, len(q.items))
	return q.items[0]
}

// Pop removes the shown modal, after it answered, and returns it; the next
// one comes to the front with a fresh grace period.
func (q *Queue) Pop() Modal {
	if len(q.items) == 0 {
		return nil
	}
	m := q.items[0]
	q.items = q.items[1:]
	if len(q.items) > 0 {
		q.items[0].reopen(q.now())
	}
	return m
}

// Remove withdraws a modal whose request no longer needs an answer (the turn
// was interrupted, the call cancelled). It reports whether m was queued.
func (q *Queue) Remove(m Modal) bool {
	for i, x := range q.items {
		if x == m {
			if i == 0 {
				q.Pop()
				return true
			}
			q.items = append(q.items[:i], q.items[i+1:]...)
			return true
		}
	}
	return false
}

// Update sends msg to the shown modal. When that answers, it is popped and
// returned with the Action, so the root knows which request the answer is
// for; otherwise answered is nil.
func (q *Queue) Update(msg tea.Msg) (answered Modal, a Action) {
	m := q.Current()
	if m == nil {
		return nil, Action{}
	}
	a = m.Update(msg)
	if a.Done {
		q.Pop()
		return m, a
	}
	return nil, a
}

// View draws the shown modal, or "" when none waits.
func (q *Queue) View(width, height int) string {
	m := q.Current()
	if m == nil {
		return ""
	}
	return m.View(width, height)
}

// notification is the text of the desktop notification sent when a dialog
// opens.
const notification = "Workbench: approval needed"

// Alert is what the root writes to the terminal when a dialog opens (Add
// reports when): a bell, for terminals and multiplexers that flag the
// window, and an OSC 9 notification, which terminals that support it show
// on the desktop and others ignore. People step away while the agent works
// and would not otherwise know it is waiting (claude-code #36850). The root
// decides whether and how to write it (tea.Raw, a setting to turn it off).
func Alert() string {
	return "\a\x1b]9;" + notification + "\x07"
}
