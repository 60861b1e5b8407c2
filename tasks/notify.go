package tasks

import (
	"fmt"
	"strings"
	"time"
)

// Notification is news from a task for the model: a background task ended,
// or a monitor saw one of its patterns. It has the shape of the agent loop's
// notifications, so the session adapts one to the other field by field.
type Notification struct {
	// ID is the task's id.
	ID string
	// Text is a <task-notification> block.
	Text string
	// Line is the same news in one readable line, for the person's screen.
	Line string
}

// maxQueuedMatches bounds the undrained match notifications of one task, so
// a repeating pattern on a flood of lines cannot grow memory without end
// (H9). Matches beyond it are counted and reported in the final notice.
const maxQueuedMatches = 20

// commandMax bounds the command quoted in a summary.
const commandMax = 120

// Drain returns the queued notifications, oldest first, and empties the
// queue.
func (m *Manager) Drain() []Notification {
	m.qmu.Lock()
	defer m.qmu.Unlock()
	out := m.queue
	m.queue = nil
	return out
}

// Pending reports whether notifications are waiting to be drained.
func (m *Manager) Pending() bool {
	m.qmu.Lock()
	defer m.qmu.Unlock()
	return len(m.queue) > 0
}

// enqueue queues a notification and tells subscribers.
func (m *Manager) enqueue(snap Snapshot, text string) {
	m.publish(m.queueOnly(snap, text))
}

// queueOnly queues a notification and returns the event that tells of it,
// for a caller that must publish other events first.
func (m *Manager) queueOnly(snap Snapshot, text string) TaskEvent {
	n := Notification{ID: snap.ID, Text: text, Line: endLine(snap)}
	m.qmu.Lock()
	m.queue = append(m.queue, n)
	m.qmu.Unlock()
	return TaskEvent{Kind: EventNotify, Task: snap, Notification: n}
}

// notifyMatch queues a monitor's match unless the task already has
// maxQueuedMatches waiting, in which case the match is only counted.
func (m *Manager) notifyMatch(t *Task, text, line string) {
	m.qmu.Lock()
	waiting := 0
	for _, n := range m.queue {
		if n.ID == t.id {
			waiting++
		}
	}
	full := waiting >= maxQueuedMatches
	if !full {
		m.queue = append(m.queue, Notification{ID: t.id, Text: text, Line: line})
	}
	m.qmu.Unlock()
	if full {
		t.mu.Lock()
		t.suppressed++
		t.mu.Unlock()
		return
	}
	m.publish(TaskEvent{Kind: EventNotify, Task: t.Snapshot(), Notification: Notification{ID: t.id, Text: text, Line: line}})
}

// xmlText escapes what could open or close an element or an entity, so a
// command or output that quotes `</summary>` cannot forge the block's
// structure. A lone `>` is plain text in XML and stays readable.
var xmlText = strings.NewReplacer("&", "&amp;", "<", "&lt;")

// block renders a <task-notification> with its child elements in order.
func block(fields ...[2]string) string {
	var b strings.Builder
	b.WriteString("<task-notification>\n")
	for _, f := range fields {
		fmt.Fprintf(&b, "<%s>%s</%s>\n", f[0], xmlText.Replace(f[1]), f[0])
	}
	b.WriteString("</task-notification>")
	return b.String()
}

// renderEnd is the notification for a task that ended: what ran, how it
// ended and where its output is; the output itself stays in the file.
func renderEnd(s Snapshot, last string, suppressed int) string {
	return block(
		[2]string{"task-id", s.ID},
		[2]string{"kind", string(s.Kind)},
		[2]string{"status", string(s.Status)},
		[2]string{"exit-code", fmt.Sprint(s.ExitCode)},
		[2]string{"output-file", s.OutputFile},
		[2]string{"summary", endSummary(s, last, suppressed)},
	)
}

// endSummary says in one or two sentences what the task was and how it
// ended, quoting its last output line.
func endSummary(s Snapshot, last string, suppressed int) string {
	var b strings.Builder
	what := "Background command"
	if s.Kind == KindMonitor {
		what = "Monitor"
	}
	took := FormatDuration(s.Elapsed(time.Now()))
	fmt.Fprintf(&b, "%s %q ", what, shorten(s.Command, commandMax))
	switch {
	case s.Status == StatusCompleted:
		fmt.Fprintf(&b, "completed with exit code 0 after %s.", took)
	case s.Reason == ReasonOutputCap:
		fmt.Fprintf(&b, "was stopped after %s because its output reached the cap (%s).", took, humanBytes(s.Bytes))
	case s.Status == StatusKilled:
		fmt.Fprintf(&b, "was killed (%s) after %s.", s.Reason, took)
	case s.Signal != "":
		fmt.Fprintf(&b, "was ended by a signal (%s, exit code %d) after %s.", s.Signal, s.ExitCode, took)
	default:
		fmt.Fprintf(&b, "failed with exit code %d after %s.", s.ExitCode, took)
	}
	if last != "" {
		fmt.Fprintf(&b, " Last output line: %q.", last)
	} else {
		b.WriteString(" It printed nothing.")
	}
	if s.Refusal != "" {
		b.WriteString(" " + s.Refusal)
	}
	if suppressed > 0 {
		fmt.Fprintf(&b, " %d further pattern matches were not reported one by one; see the output file.", suppressed)
	}
	b.WriteString(" Read the output with TaskOutput or Read.")
	return b.String()
}
