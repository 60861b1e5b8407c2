package ui

import (
	"regexp"
	"strings"

	"github.com/seed92b641c3/workbench/tasks"
	"github.com/seed92b641c3/workbench/tasks/pty"
)

// newsMsg is background news the moment it happens: a task ended or a
// monitor matched. text is the block the model will get; line is what the
// person reads.
type newsMsg struct{ text, line string }

// WatchTasks shows every background task's news in the conversation as it
// happens, without waiting for the next prompt. It subscribes before it
// returns, so no news from then on is missed, and follows the tasks until
// the bridge closes.
func (b *Bridge) WatchTasks(m *tasks.Manager) {
	events, stop := m.Subscribe()
	go b.followTasks(events, stop)
}

func (b *Bridge) followTasks(events <-chan tasks.TaskEvent, stop func()) {
	defer stop()
	for {
		select {
		case <-b.quit:
			return
		case ev, ok := <-events:
			if !ok {
				return
			}
			if ev.Kind != tasks.EventNotify || ev.Notification.Line == "" {
				continue
			}
			b.mu.Lock()
			b.msgs = append(b.msgs, newsMsg{text: ev.Notification.Text, line: ev.Notification.Line})
			b.mu.Unlock()
			b.poke()
		}
	}
}

// onNews shows live news and remembers it, so the same notification is not
// shown again when the loop hands it to the model.
func (m *Model) onNews(n newsMsg) {
	m.conv.AddNews(n.line)
	m.shownNews[n.text] = true
}

// shellEnded tells of a PTY session whose program ended, live. The model's
// own notice of it (a dispatched or monitored session's end, given at the
// next turn) is then not shown again.
func (b *Bridge) shellEnded(m *pty.Manager, id string) {
	s, ok := m.Get(id)
	if !ok {
		return
	}
	if line, ok := pty.EndLine(s); ok {
		b.mu.Lock()
		b.msgs = append(b.msgs, newsMsg{text: shellEndKey(id), line: line})
		b.mu.Unlock()
		b.poke()
	}
}

func shellEndKey(id string) string { return "shell-end " + id }

// shellEndNotice matches the loop's notices of a PTY session's end
// (tasks/pty/watch.go), giving the session's id.
var shellEndNotice = regexp.MustCompile(`^Shell session (\S+) (?:ended|is done \(done_by=exited\))`)

// onNotification shows news the loop gave the model, unless it was shown
// live already.
func (m *Model) onNotification(text string) {
	if m.shownNews[text] {
		delete(m.shownNews, text)
		return
	}
	if id := shellEndNotice.FindStringSubmatch(text); id != nil && m.shownNews[shellEndKey(id[1])] {
		delete(m.shownNews, shellEndKey(id[1]))
		return
	}
	m.conv.AddNews(newsText(text))
}

var (
	newsID      = regexp.MustCompile(`(?s)<task-id>(.*?)</task-id>`)
	newsSummary = regexp.MustCompile(`(?s)<summary>(.*?)</summary>`)
	xmlUnescape = strings.NewReplacer("&lt;", "<", "&amp;", "&")
)

// isNews reports whether a user message block is background news the loop
// added, not something the person typed.
func isNews(text string) bool {
	return strings.HasPrefix(strings.TrimSpace(text), "<task-notification>")
}

// newsText reads a notification for the person: the task and its summary
// when it is a <task-notification> block, else its first line.
func newsText(text string) string {
	if s := newsSummary.FindStringSubmatch(text); s != nil {
		summary := xmlUnescape.Replace(strings.TrimSpace(s[1]))
		if id := newsID.FindStringSubmatch(text); id != nil {
			return xmlUnescape.Replace(strings.TrimSpace(id[1])) + " · " + summary
		}
		return summary
	}
	return firstLines(strings.TrimSpace(text), 1)
}
