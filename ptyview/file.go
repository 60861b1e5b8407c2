package ptyview

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"regexp"
	"time"

	"github.com/seed92b641c3/workbench/tasks"
	"github.com/seed92b641c3/workbench/tasks/pty"
)

// Tuning numbers of a FilePane.
const (
	// fileKeepLines is how many lines a FilePane keeps: a pane never
	// shows more rows than a terminal can have.
	fileKeepLines = pty.MaxRows
	// fileReadBudget bounds what one Refresh reads, so a tick stays far
	// below a frame's time however fast the task writes.
	fileReadBudget = 1 << 20
	// fileTailBytes is how much of the end of a file is read when the pane
	// opens, or when the task wrote more than fileSkipAhead since the last
	// read: only the last lines are shown, so reading every byte of a
	// gigabyte log would only delay them.
	fileTailBytes = 256 << 10
	fileSkipAhead = 4 << 20
	// fileLineMax bounds one line in memory; longer lines are cut (a pane
	// shows their start).
	fileLineMax = 64 << 10
)

// FilePane follows a background task's output file and draws its last
// lines, colours kept, the way tail -f would in a terminal. Lines that
// match a Monitor's patterns have the matches marked. Like Pane it has no
// goroutine: the root's tick calls Refresh, which reads what the file
// gained (bounded I/O: at most 1 MiB a frame, and a task that writes faster
// is followed by skipping to the end of its file).
type FilePane struct {
	path       string
	w, h       int
	f          *os.File
	off        int64
	skipToLine bool // after a jump into the middle of the file
	err        error

	lines        []fileLine
	partial      []byte // the raw bytes of the unfinished last line
	partialStart sgrState
	overflow     bool // the unfinished line passed fileLineMax
	st           sgrState
	skipped      int64

	lr       lineRenderer
	buf      []byte
	tmp      []byte
	stale    bool
	rendered bool
	last     time.Time
	cache    string
}

// NewFilePane makes a pane that follows the file at path. The file may not
// exist yet (a task that has not written anything); the pane waits for it.
func NewFilePane(path string) *FilePane {
	return &FilePane{path: path, stale: true}
}

// SetSize sets the pane's drawn size. Lines are cut at the pane's width,
// not wrapped, so every row stays one line of the file.
func (p *FilePane) SetSize(w, h int) {
	if w != p.w || h != p.h {
		p.w, p.h, p.stale = w, h, true
	}
}

// SetHighlights sets the patterns whose matches are marked, a Monitor's
// patterns for a monitored task. nil marks nothing.
func (p *FilePane) SetHighlights(res []*regexp.Regexp) {
	p.lr.highlights = res
	p.stale = true
}

// Dirty reports whether the pane's own state changed (size, patterns) so
// that the next Refresh renders whatever the file did. What the file
// gained is only known after Refresh reads it.
func (p *FilePane) Dirty() bool { return p.stale || !p.rendered }

// Refresh reads what the file gained since the last call and re-renders
// when something changed, at most once per FrameInterval. It reports
// whether the frame changed.
func (p *FilePane) Refresh(now time.Time) bool {
	if p.rendered && !p.stale && now.Sub(p.last) < FrameInterval-frameSlack {
		return false
	}
	grew := p.read()
	if p.rendered && !p.stale && !grew {
		return false
	}
	p.render()
	p.last = now
	return true
}

// View returns exactly h lines of exactly w cells: the file's last lines,
// the unfinished one included, from the top of the pane down.
func (p *FilePane) View() string {
	if p.stale || !p.rendered {
		p.render()
	}
	return p.cache
}

// Title returns the followed file's path.
func (p *FilePane) Title() string { return p.path }

// Status says whether the pane follows its file: "following",
// "waiting for the file" before the task created it, or the error that
// stops it. Whether the task still runs is the task list's to say.
func (p *FilePane) Status() string {
	switch {
	case p.f != nil && p.err == nil:
		if p.skipped > 0 {
			return "following (" + tasks.HumanBytes(int64(p.skipped)) + " skipped)"
		}
		return "following"
	case errors.Is(p.err, fs.ErrNotExist) || p.err == nil:
		return "waiting for the file"
	}
	return "error: " + p.err.Error()
}

// Close closes the followed file; the root calls it when it closes the
// pane, since a FilePane keeps its file open between ticks.
func (p *FilePane) Close() error {
	if p.f == nil {
		return nil
	}
	err := p.f.Close()
	p.f = nil
	return err
}

// read takes in what the file gained and reports whether anything did.
func (p *FilePane) read() bool {
	if !p.open() {
		return false
	}
	info, err := p.f.Stat()
	if err != nil {
		p.err = err
		return false
	}
	size := info.Size()
	switch {
	case size < p.off:
		// Truncated or rewritten: follow it from its new start.
		p.reset()
		p.off = 0
	case size-p.off > fileSkipAhead:
		p.jump(size)
	case size == p.off:
		p.reopenIfReplaced(info)
		return false
	}
	n := min(size-p.off, fileReadBudget)
	if cap(p.tmp) < int(n) {
		p.tmp = make([]byte, n)
	}
	buf := p.tmp[:n]
	m, err := p.f.ReadAt(buf, p.off)
	if err != nil && !errors.Is(err, io.EOF) {
		p.err = err
	}
	p.off += int64(m)
	p.ingest(buf[:m])
	return m > 0
}

// open opens the file if it is not open yet, starting near its end.
func (p *FilePane) open() bool {
	if p.f != nil {
		return true
	}
	f, err := os.Open(p.path)
	if err != nil {
		p.err = err
		return false
	}
	p.f, p.err = f, nil
	if info, err := f.Stat(); err == nil && info.Size() > fileTailBytes {
		p.jump(info.Size())
	}
	return true
}

// jump moves the read position to the last fileTailBytes of a file of the
// given size, dropping the unfinished line: the pane shows the latest
// output instead of catching up with all of it.
func (p *FilePane) jump(size int64) {
	to := size - fileTailBytes
	p.skipped += to - p.off
	p.off = to
	p.partial = p.partial[:0]
	p.overflow = false
	p.skipToLine = true
}

// reopenIfReplaced follows a log that was replaced by a new file under the
// same name (rotation).
func (p *FilePane) reopenIfReplaced(cur fs.FileInfo) {
	info, err := os.Stat(p.path)
	if err != nil || os.SameFile(info, cur) {
		return
	}
	p.f.Close()
	p.f = nil
	p.reset()
	p.off = 0
}

func (p *FilePane) reset() {
	p.lines = p.lines[:0]
	p.partial = p.partial[:0]
	p.overflow, p.skipToLine = false, false
	p.st, p.partialStart = sgrState{}, sgrState{}
}

// ingest splits new bytes into lines.
func (p *FilePane) ingest(data []byte) {
	if p.skipToLine {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return
		}
		data = data[i+1:]
		p.skipToLine = false
	}
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		seg := data
		if i >= 0 {
			seg = data[:i]
		}
		p.appendPartial(seg)
		if i < 0 {
			break
		}
		p.finishLine()
		data = data[i+1:]
	}
}

// appendPartial adds bytes of the unfinished line. A carriage return in
// them starts the line over, so what comes before it is only followed for
// its colours: a progress bar that never prints a newline stays small.
func (p *FilePane) appendPartial(seg []byte) {
	if j := lastLoneCR(seg); j >= 0 {
		st := p.partialStart
		p.follow(append(p.partial, seg[:j]...), &st)
		p.partialStart = st
		p.partial = p.partial[:0]
		p.overflow = false
		seg = seg[j+1:]
	}
	if p.overflow {
		return
	}
	if room := fileLineMax - len(p.partial); len(seg) > room {
		seg = seg[:room]
		p.overflow = true
	}
	p.partial = append(p.partial, seg...)
}

// follow follows the style through bytes that will not be shown.
func (p *FilePane) follow(raw []byte, st *sgrState) {
	p.buf, _ = clean(p.buf[:0], st, raw)
}

// lastLoneCR finds the last carriage return in seg that is followed by
// more of the line (a CR at the very end may be half of CR LF).
func lastLoneCR(seg []byte) int {
	j := bytes.LastIndexByte(seg, '\r')
	if j >= 0 && j == len(seg)-1 {
		j = bytes.LastIndexByte(seg[:j], '\r')
	}
	return j
}

// finishLine turns the unfinished line into a kept line.
func (p *FilePane) finishLine() {
	st := p.partialStart
	var text []byte
	text, start := clean(nil, &st, p.partial)
	p.lines = append(p.lines, fileLine{start: start, text: string(text)})
	if len(p.lines) > 2*fileKeepLines {
		n := copy(p.lines, p.lines[len(p.lines)-fileKeepLines:])
		clear(p.lines[n:])
		p.lines = p.lines[:n]
	}
	p.partial = p.partial[:0]
	p.partialStart = st
	p.overflow = false
}

func (p *FilePane) render() {
	p.stale, p.rendered = false, true
	if p.w <= 0 || p.h <= 0 {
		p.cache = ""
		return
	}
	shown := p.lines
	var last *fileLine
	if k := pty.CompleteLen(p.partial); k > 0 {
		st := p.partialStart
		text, start := clean(nil, &st, p.partial[:k])
		last = &fileLine{start: start, text: string(text)}
	}
	room := p.h
	if last != nil {
		room--
	}
	if len(shown) > room {
		shown = shown[len(shown)-room:]
	}
	b := p.buf[:0]
	n := 0
	for _, l := range shown {
		if n > 0 {
			b = append(b, '\n')
		}
		b = p.lr.draw(b, l, p.w)
		n++
	}
	if last != nil {
		if n > 0 {
			b = append(b, '\n')
		}
		b = p.lr.draw(b, *last, p.w)
		n++
	}
	for ; n < p.h; n++ {
		if n > 0 {
			b = append(b, '\n')
		}
		b = appendSpaces(b, p.w)
	}
	p.cache = string(b)
	p.buf = b
}
