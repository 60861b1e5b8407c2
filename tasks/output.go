package tasks

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// DefaultOutputCap is the most output a task may write before it is stopped:
// far more than any useful log, small enough that a runaway loop cannot
// fill the disk.
const DefaultOutputCap int64 = 1 << 30

// DefaultTail is how many bytes Output returns when the caller does not say.
const DefaultTail = 30000

// outputEvery spaces output events per task, so a command printing a million
// lines costs a watching UI a few updates a second.
const outputEvery = 200 * time.Millisecond

// output is the writer a task's process streams into: the output file first,
// then the foreground sink and the monitor. Write is called from the
// process's one reading goroutine; only the sink is shared, with Background.
type output struct {
	t       *Task
	f       *os.File
	limit   int64
	written int64
	last    byte // last byte written to the file, to end the cap notice cleanly
	capped  bool
	capHit  chan struct{} // closed when the cap is reached
	werr    error         // first failure to write the file
	mon     *monitor
	event   time.Time

	mu   sync.Mutex
	sink io.Writer
}

// Write never fails: the process must keep draining its pipe whatever
// happens to the file, and the cap is enforced by stopping the process, not
// by blocking it.
func (o *output) Write(p []byte) (int, error) {
	n := len(p)
	if o.capped {
		return n, nil
	}
	if room := o.limit - o.written; int64(len(p)) > room {
		p = p[:room]
		o.capped = true
	}
	if len(p) > 0 {
		if o.werr == nil {
			if _, err := o.f.Write(p); err != nil {
				o.werr = err
			}
		}
		o.written += int64(len(p))
		o.last = p[len(p)-1]
		o.t.bytes.Store(o.written)
		o.t.newlines.Add(int64(bytes.Count(p, []byte{'\n'})))
		o.t.partial.Store(o.last != '\n')
		o.mu.Lock()
		if o.sink != nil {
			o.sink.Write(p)
		}
		o.mu.Unlock()
		if o.mon != nil {
			o.mon.feed(p)
		}
		if now := time.Now(); now.Sub(o.event) >= outputEvery {
			o.event = now
			o.t.m.publish(TaskEvent{Kind: EventOutput, Task: o.t.Snapshot()})
		}
	}
	if o.capped {
		close(o.capHit)
	}
	return n, nil
}

// detach stops feeding the sink. When it returns no Write to the sink is in
// progress, so the caller may finish with the sink's writer.
func (o *output) detach() {
	o.mu.Lock()
	o.sink = nil
	o.mu.Unlock()
}

// finish appends the cap notice when the cap was hit and closes the file. It
// runs after the process's reader has returned.
func (o *output) finish() {
	if o.capped && o.werr == nil {
		lead := ""
		if o.last != '\n' {
			lead = "\n"
		}
		fmt.Fprintf(o.f, "%s[workbench: %s was stopped because its output reached the cap of %s; nothing after this point was kept]\n",
			lead, o.t.id, humanBytes(o.limit))
	}
	if err := o.f.Close(); err != nil && o.werr == nil {
		o.werr = err
	}
}

// lastLineMax bounds the last output line quoted in a notification summary.
const lastLineMax = 200

// lastLine reads the last non-blank line of file, shortened for a summary.
func lastLine(file string, size int64) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	const window = 4096
	off := max(size-window, 0)
	buf := make([]byte, size-off)
	n, _ := f.ReadAt(buf, off)
	buf = bytes.TrimRight(buf[:n], " \t\r\n")
	if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
		buf = buf[i+1:]
	}
	if i := bytes.LastIndexByte(buf, '\r'); i >= 0 {
		buf = buf[i+1:] // a progress bar redraws with \r: keep its latest state
	}
	return shorten(strings.TrimSpace(strings.ToValidUTF8(string(buf), "")), lastLineMax)
}

// refusalWindow is how much of a failed task's output's end is read for a
// refusal of the sandbox: a failing command says why near its end.
const refusalWindow = 16 << 10

// tail reads the last window bytes of the first size bytes of file.
func tail(file string, size int64, window int64) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	off := max(size-window, 0)
	buf := make([]byte, size-off)
	n, _ := f.ReadAt(buf, off)
	return string(buf[:n])
}

// Output returns the last maxBytes bytes of a task's output file (DefaultTail
// when maxBytes <= 0). When earlier output is left out, the text starts with
// a line that says how much and where the whole file is, and the cut is
// moved forward to the next line start when one is near, so no half line
// is shown.
func (m *Manager) Output(id string, maxBytes int) (string, error) {
	t, ok := m.task(id)
	if !ok {
		return "", fmt.Errorf("%w: %s", ErrUnknownTask, id)
	}
	if maxBytes <= 0 {
		maxBytes = DefaultTail
	}
	f, err := os.Open(t.file)
	if err != nil {
		return "", fmt.Errorf("output of %s: %w", id, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("output of %s: %w", id, err)
	}
	size := fi.Size()
	off := max(size-int64(maxBytes), 0)
	buf := make([]byte, size-off)
	n, err := f.ReadAt(buf, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("output of %s: %w", id, err)
	}
	buf = buf[:n]
	if off == 0 {
		return string(buf), nil
	}
	// Start at a line boundary if one is in the first quarter, else at least
	// at a character boundary.
	if i := bytes.IndexByte(buf, '\n'); i >= 0 && i < len(buf)/4 {
		buf = buf[i+1:]
	} else {
		for len(buf) > 0 && !utf8.RuneStart(buf[0]) {
			buf = buf[1:]
		}
	}
	omitted := size - int64(len(buf))
	return fmt.Sprintf("[%d earlier bytes (%s) omitted; the whole output is in %s]\n", omitted, humanBytes(omitted), t.file) + string(buf), nil
}

// humanBytes renders a size for people: 512 B, 1.5 KiB, 1.0 GiB.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// HumanBytes renders a byte count the way task lists and notices show it,
// so every view of a task agrees on its size.
func HumanBytes(n int64) string { return humanBytes(n) }

// shorten cuts s to at most n bytes on a character boundary, marking the cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
