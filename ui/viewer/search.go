package viewer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
)

// search is a pattern and, while one runs, a scan through the file in
// chunks. A search starts from the match on screen (n, N) or the top of the
// screen, goes to the end (or start) of the file and then wraps around once.
// Patterns are Go regular expressions, case-sensitive ((?i) for not); a
// pattern that is not a valid one is searched as plain text. Matching is
// against each row's visible text (colours removed, tabs expanded), so what
// is found is what is seen.
type search struct {
	re      *regexp.Regexp
	chunkRe *regexp.Regexp // re in multi-line mode, to skip a chunk at once
	pattern string
	literal bool // the pattern was not a valid regexp

	active     bool
	forward    bool
	pos, limit int64 // the part still to scan: [pos, limit) forward, [limit, pos) back
	origin     int64 // the row the search started from
	wrapped    bool
	looked     int64 // bytes scanned, for progress

	cur   match
	found bool
}

// match is one occurrence of the pattern: the row and the bytes of the
// row's visible text.
type match struct {
	row        int64
	start, end int
}

// setPattern compiles a new pattern.
func (s *search) setPattern(p string) error {
	if p == "" {
		return errors.New("empty pattern")
	}
	expr, literal := p, false
	if _, err := regexp.Compile(p); err != nil {
		expr, literal = regexp.QuoteMeta(p), true
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return err
	}
	*s = search{re: re, chunkRe: regexp.MustCompile("(?m)" + expr), pattern: p, literal: literal}
	return nil
}

// matches returns the non-empty matches in a row's visible text.
func (s *search) matches(vis string) [][]int {
	all := s.re.FindAllStringIndex(vis, -1)
	out := all[:0]
	for _, m := range all {
		if m[1] > m[0] {
			out = append(out, m)
		}
	}
	return out
}

// pick returns the first match that starts after after (forward) or the
// last that starts before it (back).
func (s *search) pick(row int64, vis string, after int, forward bool) (match, bool) {
	ms := s.matches(vis)
	if forward {
		for _, m := range ms {
			if m[0] > after {
				return match{row, m[0], m[1]}, true
			}
		}
		return match{}, false
	}
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i][0] < after {
			return match{row, ms[i][0], ms[i][1]}, true
		}
	}
	return match{}, false
}

// find starts a search for the next (forward) or previous match. The rest
// of the current row is looked at at once; the rest of the file in steps.
func (v *Viewer) find(forward bool) {
	s := &v.search
	s.wrapped = false
	origin, after := v.top, -1
	if !forward {
		after = 0
	}
	if s.found && v.onScreen(s.cur.row) {
		origin, after = s.cur.row, s.cur.start
	}
	vis, end := v.rowText(origin, false)
	if m, ok := s.pick(origin, vis, after, forward); ok {
		v.foundAt(m)
		return
	}
	s.active, s.forward, s.origin, s.wrapped, s.looked = true, forward, origin, false, 0
	if forward {
		s.pos, s.limit = end, v.size
	} else {
		s.pos, s.limit = origin, 0
	}
}

// searchChunk scans the next chunk of a running search.
func (v *Viewer) searchChunk() {
	s := &v.search
	if s.forward && s.pos >= s.limit || !s.forward && s.pos <= s.limit {
		if s.wrapped {
			s.active = false
			v.say(fmt.Sprintf("pattern not found: %s", s.pattern), true)
			return
		}
		// Wrap around once, ending with the row the search started from.
		s.wrapped = true
		if s.forward {
			s.pos, s.limit = 0, v.rowEnd(s.origin)
		} else {
			s.pos, s.limit = v.size, s.origin
		}
		return
	}
	var m match
	var ok bool
	if s.forward {
		var next int64
		m, next, ok = v.scanForward(s.pos, min(s.limit, s.pos+chunkSize))
		s.looked += next - s.pos
		s.pos = next
	} else {
		var start int64
		m, start, ok = v.scanBack(max(s.limit, s.pos-chunkSize), s.pos)
		s.looked += s.pos - start
		s.pos = start
	}
	if ok {
		v.foundAt(m)
	}
}

// chunk reads the file's bytes [lo, hi) into the scratch buffer.
func (v *Viewer) chunk(lo, hi int64) (span, bool) {
	lo, hi = max(lo, 0), min(hi, v.size)
	buf := v.scratch[:hi-lo]
	got, err := v.f.ReadAt(buf, lo)
	if err != nil && !errors.Is(err, io.EOF) {
		v.err = err
		v.search.active = false
		return span{}, false
	}
	return span{buf: buf[:got], off: lo, eof: lo+int64(got) >= v.size || got < len(buf)}, true
}

// rows lists the starts of the rows from first while they start before
// stop, and returns where the last one ends.
func rows(s span, first, stop int64, starts []int64) ([]int64, int64) {
	r := first
	for r < stop {
		end, ok := s.rowEnd(r)
		if !ok || end <= r {
			break
		}
		starts = append(starts, r)
		r = end
	}
	return starts, r
}

// scanForward looks for the first match in the rows that start in
// [from, to), and returns where the scanned rows end.
func (v *Viewer) scanForward(from, to int64) (match, int64, bool) {
	s, ok := v.chunk(from/rowCap*rowCap, to+rowReach)
	if !ok {
		return match{}, to, false
	}
	starts, end := rows(s, from, to, v.starts[:0])
	v.starts = starts
	if len(starts) == 0 {
		return match{}, max(to, from+1), false
	}
	m, found := v.scanRows(s, starts, end, true)
	return m, end, found
}

// scanBack looks for the last match in the rows from the one holding lo up
// to end, and returns where the first of them starts.
func (v *Viewer) scanBack(lo, end int64) (match, int64, bool) {
	s, ok := v.chunk(lo-backReach, end+rowReach)
	if !ok {
		return match{}, lo, false
	}
	first := lo
	if lo > v.search.limit {
		if b, ok := s.rowBefore(lo + 1); ok {
			first = max(b, v.search.limit)
		}
	}
	starts, _ := rows(s, first, end, v.starts[:0])
	v.starts = starts
	if len(starts) == 0 {
		return match{}, first, false
	}
	m, found := v.scanRows(s, starts, end, false)
	return m, first, found
}

// scanRows looks for the first (forward) or last match in the rows that
// start at starts and end at end. Runs of rows that sanitizing leaves as
// they are (no escapes, tabs or carriage returns) are skipped with one
// regexp call each when the pattern is nowhere in them: that is what makes
// a search through a big log fast. Other rows are matched one by one, as
// they are seen.
func (v *Viewer) scanRows(s span, starts []int64, end int64, forward bool) (match, bool) {
	n := len(starts)
	endOf := func(i int) int64 {
		if i+1 < n {
			return starts[i+1]
		}
		return end
	}
	// Mark the rows that hold a byte sanitizing changes.
	// The scratch slices are reused: a search through a big file must
	// not leave a chunk's worth of garbage per step (it raised the RSS).
	dirty := slices.Grow(v.dirty[:0], n)[:n]
	clear(dirty)
	v.dirty = dirty
	b := s.bytes(starts[0], end)
	for _, c := range dirtyBytes(b) {
		for off := 0; off < len(b); {
			k := bytes.IndexByte(b[off:], c)
			if k < 0 {
				break
			}
			pos := starts[0] + int64(off+k)
			i, _ := slices.BinarySearch(starts, pos+1)
			dirty[i-1] = true
			off = int(endOf(i-1) - starts[0])
		}
	}
	// Split the rows into runs of clean rows and single dirty rows.
	runs := v.runs[:0]
	defer func() { v.runs = runs[:0] }()
	for i := 0; i < n; {
		j := i + 1
		for !dirty[i] && j < n && !dirty[j] {
			j++
		}
		runs = append(runs, [2]int{i, j})
		i = j
	}
	after, step := -1, 1
	if !forward {
		after, step = math.MaxInt, -1
		slices.Reverse(runs)
	}
	for _, run := range runs {
		i, j := run[0], run[1]
		if !dirty[i] && !v.search.chunkRe.Match(s.bytes(starts[i], endOf(j-1))) {
			continue
		}
		if !forward {
			i, j = j-1, i-1
		}
		for ; i != j; i += step {
			if m, ok := v.search.pick(starts[i], visible(s.bytes(starts[i], endOf(i))), after, forward); ok {
				return m, true
			}
		}
	}
	return match{}, false
}

// cleanBytes are the bytes that make a row's visible text differ from its
// bytes in ASCII text: escape sequences, tabs, carriage returns.
var cleanBytes = []byte{esc, '\t', '\r'}

// invisibleLeads are the first bytes of the UTF-8 encodings of the
// characters shown as escapes (safetext.Invisible: U+00AD, U+034F,
// U+0600-U+0605, U+061C, U+06DD, U+070F, U+08E2, U+115F, U+1160, U+17B4,
// U+180E, U+200B-U+206F, U+3164, U+FEFF, U+FFA0, U+FFF9-U+FFFB, U+110BD,
// U+1BCA0, U+1D173, U+E0001-U+E007F); a row holding one is matched by its
// visible text, so "<U+200B>" is found where it is shown.
var invisibleLeads = []byte{esc, '\t', '\r', 0xc2, 0xcd, 0xd8, 0xdb, 0xdc, 0xe0, 0xe1, 0xe2, 0xe3, 0xef, 0xf0, 0xf3}

// dirtyBytes are the bytes to look for in a chunk: only those of ASCII
// text unless the chunk has other bytes, so a plain log is scanned three
// times, not fifteen.
func dirtyBytes(b []byte) []byte {
	if asciiOnly(b) {
		return cleanBytes
	}
	return invisibleLeads
}

// asciiOnly reports whether b has no byte above 0x7f, eight at a time.
func asciiOnly(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// visible is a raw row's visible text.
func visible(raw []byte) string {
	if n := len(raw); n > 0 && raw[n-1] == '\n' {
		raw = raw[:n-1]
	}
	return sanitize(raw, false)
}

// foundAt makes m the current match and brings it into view.
func (v *Viewer) foundAt(m match) {
	s := &v.search
	s.cur, s.found, s.active = m, true, false
	if s.wrapped {
		v.say("search wrapped around the file", false)
	}
	v.follow = false
	vis, _ := v.rowText(m.row, false)
	c0, c1 := colsOf(vis, m.start, m.end)
	sub := 0
	if v.wrap {
		styled, _ := v.rowText(m.row, true)
		sub = subAt(wrapRow(styled, v.width), c0)
	} else if c0 < v.xoff || c1 > v.xoff+v.width {
		v.xoff = max(0, c0-v.width/4)
	}
	if !v.shown(m.row, sub) {
		v.top, v.topSub = m.row, sub
		v.clampBottom()
	}
}

// searchProgress is how much of the file a running search has scanned.
func (v *Viewer) searchProgress() int {
	if v.size == 0 {
		return 100
	}
	return int(min(100, v.search.looked*100/v.size))
}
