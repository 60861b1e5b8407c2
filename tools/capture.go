package tools

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Spill describes a file that holds a call's full output. It is evidence,
// not a convenience copy (H8): written atomically with mode 0600, and its
// digest and provenance go into the transcript entry that points to it.
type Spill struct {
	Path        string    `json:"path"`
	Bytes       int64     `json:"bytes"`
	Lines       int64     `json:"lines"`
	SHA256      string    `json:"sha256"`
	SessionID   string    `json:"session_id,omitempty"`
	CallID      string    `json:"call_id,omitempty"`
	Tool        string    `json:"tool,omitempty"`
	InputDigest string    `json:"input_digest,omitempty"`
	Time        time.Time `json:"time"`
}

// tailShare: a quarter of the cap goes to the end of the output, because the
// end of a build or test log is usually where the error is.
const tailShare = 4

var spillSeq atomic.Int64

// Capture is a writer that keeps only what the model will see (a head and a
// tail) in memory and, when a spill directory is set, streams every byte to
// a temporary file as it arrives, so memory stays O(cap) however much a
// command prints (H9). Finish returns the capped text and the spill record.
// A Capture is not safe for concurrent use.
type Capture struct {
	tc    *Context
	max   int
	head  []byte // all output while it fits the cap, then the head
	over  bool   // output exceeded the cap
	tail  []byte // ring of the last bytes once over the cap
	tpos  int
	tfull bool
	total int64
	lines int64 // newlines seen
	// endsNL says the last byte written was a newline, which ends the
	// last line rather than starting another (lineCount).
	endsNL bool
	spill  *spillFile // nil until the output exceeds the cap, or when it cannot be spilled
	ferr   error      // why the output could not be spilled
}

// lineCount is how many lines the output has: "a\nb\n" and "a\nb" are
// two, as wc -l and a person count them (seq 1 3000 is 3,000 lines).
func (c *Capture) lineCount() int64 {
	if c.total == 0 || c.endsNL {
		return c.lines
	}
	return c.lines + 1
}

// NewCapture starts capturing output for a call.
func NewCapture(tc *Context) *Capture {
	return &Capture{tc: tc, max: tc.Cap()}
}

// Write implements io.Writer. It never fails the producer: a spill file that
// cannot be written degrades to head-and-tail truncation, said in the text.
func (c *Capture) Write(p []byte) (int, error) {
	n := len(p)
	c.lines += int64(bytes.Count(p, newline))
	c.total += int64(n)
	if n > 0 {
		c.endsNL = p[n-1] == '\n'
	}
	if c.over {
		c.spillWrite(p)
		c.ring(p)
		return n, nil
	}
	if len(c.head)+len(p) <= c.max {
		c.head = append(c.head, p...)
		return n, nil
	}
	c.over = true
	if c.tc.SpillDir != "" {
		c.openSpill()
		c.spillWrite(c.head)
		c.spillWrite(p)
	}
	tailCap := c.max / tailShare
	headCap := c.max - tailCap
	c.tail = make([]byte, tailCap)
	if len(c.head) <= headCap {
		take := min(headCap-len(c.head), len(p))
		c.head = append(c.head, p[:take]...)
		c.ring(p[take:])
	} else {
		rest := c.head[headCap:]
		c.head = c.head[:headCap:headCap]
		c.ring(rest)
		c.ring(p)
	}
	return n, nil
}

var newline = []byte{'\n'}

func (c *Capture) ring(p []byte) {
	size := len(c.tail)
	if size == 0 || len(p) == 0 {
		return
	}
	if len(p) >= size {
		copy(c.tail, p[len(p)-size:])
		c.tpos, c.tfull = 0, true
		return
	}
	k := copy(c.tail[c.tpos:], p)
	if k < len(p) {
		copy(c.tail, p[k:])
		c.tfull = true
	}
	c.tpos = (c.tpos + len(p)) % size
	if c.tpos == 0 {
		c.tfull = true
	}
}

func (c *Capture) tailBytes() []byte {
	if !c.tfull {
		return c.tail[:c.tpos]
	}
	out := make([]byte, 0, len(c.tail))
	out = append(out, c.tail[c.tpos:]...)
	return append(out, c.tail[:c.tpos]...)
}

func (c *Capture) openSpill() {
	c.spill, c.ferr = createSpillFile(c.tc.SpillDir)
}

func (c *Capture) spillWrite(p []byte) {
	if c.spill != nil {
		c.spill.Write(p)
	}
}

// publish gives a finished temporary file its final name without ever
// replacing another file: a hard link fails if the name is taken (another
// process sharing the spill directory), and then the next number is tried.
// The directory is synced so the name survives a crash too.
func publish(tmp, dir string, now time.Time, tool string) (string, error) {
	for range 100 {
		final := filepath.Join(dir, fmt.Sprintf("%s-%d-%s.txt",
			now.UTC().Format("20060102T150405"), spillSeq.Add(1), tool))
		err := os.Link(tmp, final)
		if os.IsExist(err) {
			continue
		}
		if err != nil {
			return "", err
		}
		if d, err := os.Open(dir); err == nil {
			d.Sync()
			d.Close()
		}
		return final, nil
	}
	return "", fmt.Errorf("no free spill file name in %s", dir)
}

// Total is the number of bytes written so far.
func (c *Capture) Total() int64 { return c.total }

// Finish ends the capture. The text is the whole output when it fits the
// cap; otherwise its head and tail around a notice that says how much there
// was and, when spilled, where the full output is and its sha256.
func (c *Capture) Finish() (string, *Spill) {
	if !c.over {
		return string(c.head), nil
	}
	head := cutToRune(c.head, true)
	tail := cutToRune(c.tailBytes(), false)
	spill := c.commit()
	var notice string
	if spill != nil {
		notice = fmt.Sprintf("\n\n[output capped%s: %d bytes, %d lines in total; full output in %s (sha256 %s); read it with Read offset/limit or Grep. The first %d and last %d bytes are shown.]\n\n",
			c.nonce(), c.total, c.lineCount(), c.displayPath(spill.Path), spill.SHA256, len(head), len(tail))
	} else {
		why := ""
		if c.ferr != nil {
			why = fmt.Sprintf(" (could not save the full output: %v)", c.ferr)
		}
		notice = fmt.Sprintf("\n\n[output capped%s: %d bytes, %d lines in total; %d bytes omitted from the middle%s]\n\n",
			c.nonce(), c.total, c.lineCount(), c.total-int64(len(head))-int64(len(tail)), why)
	}
	return string(head) + notice + string(tail), spill
}

// nonce marks the notice as the session's own (Context.Nonce), so output
// that quotes a notice cannot pass for one.
func (c *Capture) nonce() string {
	if c.tc == nil || c.tc.Nonce == "" {
		return ""
	}
	return " (nonce " + c.tc.Nonce + ")"
}

// Abort drops a capture's temporary file.
func (c *Capture) Abort() {
	if c.spill != nil {
		c.spill.abort()
		c.spill = nil
	}
}

// commit makes the spill file durable and visible under its final name:
// fsync, then rename, so a reader never sees a partial file.
func (c *Capture) commit() *Spill {
	if c.spill == nil {
		return nil
	}
	tmp, sum, err := c.spill.finish()
	c.spill, c.ferr = nil, err
	now := time.Now()
	var final string
	if c.ferr == nil {
		final, c.ferr = publish(tmp, c.tc.SpillDir, now, safeName(c.tc.Tool))
	}
	os.Remove(tmp)
	if c.ferr != nil {
		return nil
	}
	s := &Spill{
		Path: final, Bytes: c.total, Lines: c.lineCount(),
		SHA256:    sum,
		SessionID: c.tc.SessionID, CallID: c.tc.CallID, Tool: c.tc.Tool,
		InputDigest: c.tc.InputDigest, Time: now,
	}
	if c.tc.OnSpill != nil {
		c.tc.OnSpill(*s)
	}
	return s
}

// displayPath shows a spill path relative to the project when inside it.
func (c *Capture) displayPath(p string) string {
	if c.tc.WorkDir != "" {
		if rel, err := filepath.Rel(c.tc.WorkDir, p); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return p
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// safeName keeps a tool name usable in a file name (H14: no path is built
// from unchecked input).
func safeName(s string) string {
	s = unsafeChars.ReplaceAllString(s, "_")
	if len(s) > 40 {
		s = s[:40]
	}
	if s == "" {
		s = "output"
	}
	return s
}

// cutToRune trims a partial UTF-8 sequence from the end (head) or the start
// (tail) of b.
func cutToRune(b []byte, atEnd bool) []byte {
	if atEnd {
		for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
			r, size := utf8.DecodeLastRune(b)
			if r != utf8.RuneError || size > 1 {
				break
			}
			b = b[:len(b)-1]
		}
		return b
	}
	for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
		if utf8.RuneStart(b[0]) {
			break
		}
		b = b[1:]
	}
	return b
}

// CaptureText caps a finished text the same way a streamed output is capped.
func CaptureText(tc *Context, s string) (string, *Spill) {
	if len(s) <= tc.Cap() {
		return s, nil
	}
	c := NewCapture(tc)
	c.Write([]byte(s))
	return c.Finish()
}
