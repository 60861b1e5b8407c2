package tasks

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Tuning of the monitor's match reports.
const (
	// contextLines is how many lines before and after a match a report
	// shows: enough to see what the line belongs to.
	contextLines = 3
	// afterWait is how long a report waits for its lines after the match;
	// a quiet program still gets its match reported promptly.
	afterWait = 500 * time.Millisecond
	// maxLine bounds a line kept for matching; the rest of a longer line is
	// dropped, so one endless line cannot grow memory (H9).
	maxLine = 8 << 10
	// shownLine bounds a line quoted in a report.
	shownLine = 400
)

// line is one output line with its 1-based number.
type line struct {
	n    int
	text string
}

// match is a report still collecting its lines after the match.
type match struct {
	patterns []string
	at       line
	before   []line
	after    []line
	deadline time.Time
}

// monitor scans a monitor task's output line by line for its patterns. feed
// runs on the process's reading goroutine and the after-lines timer on its
// own, so the state is behind a lock.
type monitor struct {
	t *Task

	mu      sync.Mutex
	fired   []bool
	partial []byte
	lines   int
	before  []line // the last contextLines lines
	pending []*match
	timer   *time.Timer
	closed  bool
}

func newMonitor(t *Task) *monitor {
	return &monitor{t: t, fired: make([]bool, len(t.spec.Watch))}
}

// feed takes a chunk of output.
func (m *monitor) feed(p []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			m.keep(p)
			return
		}
		m.keep(p[:i])
		m.line(string(m.partial))
		m.partial = m.partial[:0]
		p = p[i+1:]
	}
}

// keep adds to the line being read, up to maxLine bytes.
func (m *monitor) keep(p []byte) {
	if room := maxLine - len(m.partial); room > 0 {
		m.partial = append(m.partial, p[:min(room, len(p))]...)
	}
}

// line handles one complete line: it feeds the reports waiting for lines
// after their match, then looks for the patterns.
func (m *monitor) line(text string) {
	text = strings.TrimRight(text, "\r")
	if i := strings.LastIndexByte(text, '\r'); i >= 0 {
		text = text[i+1:] // a redrawn progress line: its latest state
	}
	m.lines++
	l := line{n: m.lines, text: shorten(strings.ToValidUTF8(text, "\uFFFD"), shownLine)}

	kept := m.pending[:0]
	for _, p := range m.pending {
		p.after = append(p.after, l)
		if len(p.after) >= contextLines {
			m.report(p)
		} else {
			kept = append(kept, p)
		}
	}
	m.pending = kept

	var hit []string
	for i, re := range m.t.spec.Watch {
		if (m.fired[i] && !m.t.spec.Repeat) || !re.MatchString(text) {
			continue
		}
		m.fired[i] = true
		hit = append(hit, re.String())
	}
	if len(hit) > 0 {
		m.pending = append(m.pending, &match{
			patterns: hit, at: l, before: append([]line(nil), m.before...),
			deadline: time.Now().Add(afterWait),
		})
		if m.timer == nil {
			m.timer = time.AfterFunc(afterWait, m.expire)
		}
	}

	m.before = append(m.before, l)
	if len(m.before) > contextLines {
		m.before = m.before[1:]
	}
}

// expire reports the matches whose wait for after-lines is over and sets
// the timer again for the rest.
func (m *monitor) expire() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.timer = nil
	if m.closed {
		return
	}
	now := time.Now()
	kept := m.pending[:0]
	for _, p := range m.pending {
		if now.Before(p.deadline) {
			kept = append(kept, p)
		} else {
			m.report(p)
		}
	}
	m.pending = kept
	if len(m.pending) > 0 {
		m.timer = time.AfterFunc(time.Until(m.pending[0].deadline), m.expire)
	}
}

// close runs once the output has ended: the last unterminated line is
// scanned and every waiting report goes out with what it has.
func (m *monitor) close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.partial) > 0 {
		m.line(string(m.partial))
		m.partial = nil
	}
	for _, p := range m.pending {
		m.report(p)
	}
	m.pending = nil
	m.closed = true
	if m.timer != nil {
		m.timer.Stop()
		m.timer = nil
	}
}

// report queues a match notification. Called with m.mu held.
func (m *monitor) report(p *match) {
	t := m.t
	var ctx strings.Builder
	width := len(fmt.Sprint(p.at.n + len(p.after)))
	write := func(mark string, l line) {
		fmt.Fprintf(&ctx, "%s %*d: %s\n", mark, width, l.n, l.text)
	}
	for _, l := range p.before {
		write(" ", l)
	}
	write(">", p.at)
	for _, l := range p.after {
		write(" ", l)
	}
	pats := "/" + strings.Join(p.patterns, "/, /") + "/"
	summary := fmt.Sprintf("Monitor %q printed a line matching %s (line %d). Another notification follows when the monitor ends.",
		shorten(t.spec.Command, commandMax), pats, p.at.n)
	if note := m.explain(p); note != "" {
		summary += " " + note
	}
	text := block(
		[2]string{"task-id", t.id},
		[2]string{"kind", string(t.spec.Kind)},
		[2]string{"status", string(StatusRunning)},
		[2]string{"event", "match"},
		[2]string{"pattern", strings.Join(p.patterns, "\n")},
		[2]string{"output-file", t.file},
		[2]string{"summary", summary},
		[2]string{"lines", "\n" + ctx.String()},
	)
	t.m.notifyMatch(t, text, matchLine(t.id, t.spec.Command, p.at.n, p.at.text))
}

// explain is the sandbox's note on the lines of a match report, or "": a
// watched line that reports a refusal says whose it was. Called with m.mu
// held.
func (m *monitor) explain(p *match) string {
	if m.t.explain == nil {
		return ""
	}
	var raw strings.Builder
	for _, l := range append(append(append([]line(nil), p.before...), p.at), p.after...) {
		raw.WriteString(l.text + "\n")
	}
	return m.t.explain(raw.String())
}
