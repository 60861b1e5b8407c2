package search

import (
	"bytes"
	"io"
	"slices"
)

// hit is one line of content output, a span of its file's data.
type hit struct {
	num        int // 1-based line number
	start, end int // the line's text in fileHits.data, without the line break
	match      bool
}

// fileHits is what an engine found in one file: its display path and, by
// mode, the number of matches or the lines to show.
type fileHits struct {
	path  string
	count int
	data  []byte
	lines []hit
}

// size estimates the memory a result holds.
func (h *fileHits) size() int64 {
	return int64(len(h.path) + cap(h.data) + 32*len(h.lines) + 64)
}

func (h *fileHits) add(line []byte, num int, match bool) {
	start := len(h.data)
	h.data = append(h.data, line...)
	h.lines = append(h.lines, hit{num: num, start: start, end: len(h.data), match: match})
}

// lineSpan is a line that holds a match: its bytes, without the line break,
// and its number.
type lineSpan struct{ start, end, num int }

const (
	// firstRead is the size of the first read of a file. A NUL byte in it
	// marks the file binary before the rest is read.
	firstRead = 64 << 10
	// keepBuffer bounds the read buffer a worker keeps between files, so one
	// huge file does not pin its size for the rest of the search.
	keepBuffer = 8 << 20
)

// scanner searches files one at a time with a reused buffer. Each walker
// worker owns one.
type scanner struct {
	q     *query
	m     *matcher
	buf   []byte
	found []lineSpan
}

// scan searches one file. ok is false when the file is binary, unreadable or
// has no match.
func (s *scanner) scan(path, display string) (h fileHits, ok bool) {
	defer func() {
		if cap(s.buf) > keepBuffer {
			s.buf = nil
		}
	}()
	text, err := s.read(path)
	if err != nil || !text {
		return h, false
	}
	buf := s.buf
	first := s.q.mode == modeFiles
	found, matches := s.m.lines(buf, s.found[:0], first)
	s.found = found
	if len(found) == 0 {
		return h, false
	}
	h.path = display
	switch s.q.mode {
	case modeCount:
		h.count = matches
	case modeContent:
		s.collect(&h, buf, found)
	}
	return h, true
}

// read loads a whole file into the scanner's buffer. It reports false for a
// binary file: one with a NUL byte anywhere, which is what ripgrep skips
// (it stops at the first NUL and drops the file).
func (s *scanner) read(path string) (bool, error) {
	f, err := openRaw(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	if cap(s.buf) < firstRead {
		s.buf = make([]byte, 0, firstRead)
	}
	b := s.buf[:0]
	checked := 0
	for {
		if len(b) == cap(b) {
			// A large file: size the buffer once instead of doubling it.
			want := len(b) + 1
			if n := f.size(); n >= int64(want) {
				want = int(n) + 1
			}
			b = slices.Grow(b, want-len(b))
		}
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if bytes.IndexByte(b[checked:], 0) >= 0 {
			s.buf = b[:0]
			return false, nil
		}
		checked = len(b)
		if err == io.EOF {
			break
		}
		if err != nil {
			s.buf = b[:0]
			return false, err
		}
	}
	s.buf = b
	return true, nil
}

// lines appends to dst the lines of buf that hold a match, in order, and
// returns them with the number of matches: the number of lines, or, when
// matches may span lines, the number of matches. With first it stops at the
// first matching line.
func (m *matcher) lines(buf []byte, dst []lineSpan, first bool) ([]lineSpan, int) {
	if len(buf) == 0 {
		return dst, 0
	}
	if m.spans {
		return m.spanLines(buf, dst)
	}
	var cache [maxNeedles]int
	var next []int
	if m.filter != nil {
		next = cache[:len(m.filter.scan)]
		for i := range next {
			next[i] = -2
		}
	}
	num, counted := 1, 0
	for pos := 0; pos < len(buf); {
		var at int
		if m.filter != nil {
			if at = m.filter.scan.find(buf, pos, next); at < 0 {
				break
			}
		} else {
			loc := m.re.FindIndex(buf[pos:])
			if loc == nil {
				break
			}
			at = pos + loc[0]
			if at == len(buf) && buf[at-1] == '\n' {
				break // an empty match after the last line break is not on a line
			}
		}
		// pos is always the start of a line, so the line holding at starts
		// at or after it.
		ls := pos + bytes.LastIndexByte(buf[pos:at], '\n') + 1
		le := lineEnd(buf, at)
		if m.filter == nil || (m.filter.accepts(buf[ls:le]) && m.re.Match(buf[ls:le])) {
			num += bytes.Count(buf[counted:ls], newline)
			counted = ls
			dst = append(dst, lineSpan{start: ls, end: le, num: num})
			if first {
				break
			}
		}
		pos = le + 1
	}
	return dst, len(dst)
}

// spanLines handles matches that may cross line breaks: every line a match
// touches is a matching line, and each match counts once.
func (m *matcher) spanLines(buf []byte, dst []lineSpan) ([]lineSpan, int) {
	num, counted, next, matches := 1, 0, 0, 0
	for _, loc := range m.re.FindAllIndex(buf, -1) {
		s, e := loc[0], loc[1]
		if s == len(buf) && buf[s-1] == '\n' {
			break
		}
		matches++
		last := max(s, e-1) // the last byte the match covers
		ls := bytes.LastIndexByte(buf[:s], '\n') + 1
		for ls <= last && ls <= len(buf) {
			le := lineEnd(buf, ls)
			if ls >= next {
				num += bytes.Count(buf[counted:ls], newline)
				counted = ls
				dst = append(dst, lineSpan{start: ls, end: le, num: num})
				next = le + 1
			}
			ls = le + 1
		}
	}
	return dst, matches
}

var newline = []byte{'\n'}

// lineEnd returns the offset of the line break ending the line that holds
// i, or len(buf).
func lineEnd(buf []byte, i int) int {
	if j := bytes.IndexByte(buf[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(buf)
}

// collect copies the matching lines and their context into h. Context
// windows that touch or overlap merge, so no line appears twice.
func (s *scanner) collect(h *fileHits, buf []byte, found []lineSpan) {
	before, after := s.q.before, s.q.after
	size := 0
	for _, f := range found {
		size += f.end - f.start + 1
	}
	h.data = make([]byte, 0, size*(1+min(before+after, 4)))
	h.lines = make([]hit, 0, len(found)*(1+min(before+after, 4)))
	next, nextNum := 0, 1 // the first line not yet shown
	lastAfter := 0        // the last line number of the pending after-context
	for _, f := range found {
		for next < len(buf) && nextNum <= lastAfter && nextNum < f.num {
			le := lineEnd(buf, next)
			h.add(buf[next:le], nextNum, false)
			next, nextNum = le+1, nextNum+1
		}
		start, num := f.start, f.num
		for i := 0; i < before && start > next; i++ {
			start = next + bytes.LastIndexByte(buf[next:start-1], '\n') + 1
			num--
		}
		for start < f.start {
			le := lineEnd(buf, start)
			h.add(buf[start:le], num, false)
			start, num = le+1, num+1
		}
		h.add(buf[f.start:f.end], f.num, true)
		next, nextNum = f.end+1, f.num+1
		lastAfter = f.num + after
	}
	for next < len(buf) && nextNum <= lastAfter {
		le := lineEnd(buf, next)
		h.add(buf[next:le], nextNum, false)
		next, nextNum = le+1, nextNum+1
	}
}
