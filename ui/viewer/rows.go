package viewer

import (
	"bytes"
	"errors"
	"io"
	"unicode/utf8"
)

// A row is what the viewer draws as one line (or, wrapped, one block of
// lines). Rows are the file's lines, except that a line longer than rowCap
// is cut into several rows, so that no read, render or search step is ever
// unbounded, whatever the file holds (a minified bundle, a binary blob).
//
// Where a long line is cut must be found the same way whether the viewer
// walks down to it or up to it, and from a few KiB of the file around it,
// never from the line's distant start. So the cuts sit at absolute file
// offsets: a multiple k of rowCap cuts the line it falls in when the rowCap
// bytes before it hold no newline. A line shorter than rowCap is therefore
// never cut, a longer one gives rows of at most 2*rowCap bytes, and both
// rowEnd and rowBefore decide from a window of a few rowCaps.
const (
	// rowCap is the longest line shown as a single row. 16 KiB is far more
	// than any screen shows at once and small enough to render per frame.
	rowCap = 16 << 10
	// cutSlack is how far a cut may move forward so as not to split a
	// UTF-8 sequence or an escape sequence (an SGR is at most ~30 bytes).
	cutSlack = 32
	// rowReach is how many bytes from a row's rowCap-aligned base decide
	// where the row ends.
	rowReach = 3*rowCap + 2*cutSlack
	// backReach is how many bytes before a row's end decide where it starts.
	backReach = 4*rowCap + 2*cutSlack
)

const esc = 0x1b

// span is a stretch of the file held in memory: buf holds the bytes at
// [off, off+len(buf)), and eof says it reaches the end of the file.
type span struct {
	buf []byte
	off int64
	eof bool
}

func (s span) end() int64 { return s.off + int64(len(s.buf)) }

// covers reports whether the span holds [lo, hi), or all of it the file has.
func (s span) covers(lo, hi int64) bool {
	return lo >= s.off && (hi <= s.end() || s.eof)
}

// bytes returns the held bytes in [lo, hi), clamped to the span.
func (s span) bytes(lo, hi int64) []byte {
	lo = max(lo, s.off)
	hi = min(hi, s.end())
	if hi <= lo {
		return nil
	}
	return s.buf[lo-s.off : hi-s.off]
}

func (s span) hasNewline(lo, hi int64) bool {
	return bytes.IndexByte(s.bytes(lo, hi), '\n') >= 0
}

// isCut reports whether the multiple of rowCap k cuts a long line.
func (s span) isCut(k int64) bool {
	return k > 0 && !(s.eof && k >= s.end()) && !s.hasNewline(k-rowCap, k)
}

// rowEnd returns where the row that starts at r ends (just after its
// newline, at a cut, or at the end of the file). ok is false when the span
// does not hold enough of the file to tell.
func (s span) rowEnd(r int64) (end int64, ok bool) {
	base := r / rowCap * rowCap
	if !s.covers(base, base+rowReach) {
		return 0, false
	}
	nl := int64(-1)
	if i := bytes.IndexByte(s.bytes(r, base+rowReach), '\n'); i >= 0 {
		nl = r + int64(i)
	}
	for k := base + rowCap; k <= base+2*rowCap; k += rowCap {
		if nl >= 0 && nl < k {
			return nl + 1, true
		}
		if s.eof && k >= s.end() {
			return s.end(), true
		}
		if s.isCut(k) {
			return s.cut(k), true
		}
	}
	if nl >= 0 {
		return nl + 1, true
	}
	return s.end(), s.eof
}

// rowBefore returns where the row that ends at end starts: the last row
// boundary before end (end need not be a boundary itself).
func (s span) rowBefore(end int64) (start int64, ok bool) {
	if end <= 0 {
		return 0, true
	}
	lo := max(0, end-2*rowCap-2*cutSlack)
	kmin := max(rowCap, (lo-2*cutSlack)/rowCap*rowCap)
	if !s.covers(max(0, kmin-rowCap), end+2*cutSlack) {
		return 0, false
	}
	var best int64
	if i := bytes.LastIndexByte(s.bytes(lo, end-1), '\n'); i >= 0 {
		best = max(lo, s.off) + int64(i) + 1
	}
	for k := (end - 1) / rowCap * rowCap; k >= kmin; k -= rowCap {
		if s.isCut(k) {
			if c := s.cut(k); c < end && c > best {
				best = c
			}
		}
	}
	return best, true
}

// cut returns where a long line is cut near the multiple of rowCap k: at k,
// or a little after it so that an escape sequence or a UTF-8 sequence that
// straddles k stays whole. A cut that lands on the line's newline moves past
// it, so no empty row appears.
func (s span) cut(k int64) int64 {
	b := s.buf
	i := int(k - s.off)
	j := i
	for p := i - 1; p >= 0 && p >= i-cutSlack; p-- {
		if b[p] == '\n' {
			break
		}
		if b[p] == esc {
			if n, complete, _ := escapeLen(b[p:min(len(b), i+cutSlack)]); complete && p+n > i {
				j = p + n
			}
			break
		}
	}
	for n := 0; n < utf8.UTFMax-1 && j < len(b) && !utf8.RuneStart(b[j]); n++ {
		j++
	}
	if j < len(b) && b[j] == '\n' {
		j++
	}
	return s.off + int64(j)
}

// escapeLen measures the escape sequence at the start of b (b[0] is ESC):
// its length, whether it is complete within b, and whether it is an SGR
// (colours and text attributes), the only kind the viewer draws. An
// incomplete sequence's length is what was consumed of it.
func escapeLen(b []byte) (n int, complete, sgr bool) {
	if len(b) < 2 {
		return len(b), false, false
	}
	switch b[1] {
	case '[': // CSI: parameters, intermediates, one final byte
		j := 2
		for j < len(b) && b[j] >= 0x30 && b[j] <= 0x3f {
			j++
		}
		params := j
		for j < len(b) && b[j] >= 0x20 && b[j] <= 0x2f {
			j++
		}
		if j < len(b) && b[j] >= 0x40 && b[j] <= 0x7e {
			return j + 1, true, b[j] == 'm' && j == params && sgrParams(b[2:params])
		}
		return j, false, false
	case ']', 'P', '_', '^', 'X': // strings ended by BEL or ESC \
		for j := 2; j < len(b); j++ {
			switch {
			case b[j] == 0x07:
				return j + 1, true, false
			case b[j] == esc && j+1 < len(b) && b[j+1] == '\\':
				return j + 2, true, false
			case b[j] == '\n':
				return 2, false, false
			}
		}
		return 2, false, false
	default: // ESC, intermediates, one final byte
		j := 1
		for j < len(b) && b[j] >= 0x20 && b[j] <= 0x2f {
			j++
		}
		if j < len(b) && b[j] >= 0x30 && b[j] <= 0x7e {
			return j + 1, true, false
		}
		return j, false, false
	}
}

// sgrParams reports whether p is a plain SGR parameter list (digits, ';'
// and ':'), not a private sequence such as "?25".
func sgrParams(p []byte) bool {
	for _, c := range p {
		if (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}

// read fills the viewer's cache with a window around [lo, hi) and returns
// it. The span's bytes must not be kept across another read.
func (v *Viewer) read(lo, hi int64) span {
	lo, hi = max(lo, 0), min(hi, v.size)
	if hi < lo {
		hi = lo
	}
	if v.cache.buf != nil && v.cache.covers(lo, hi) {
		return v.cache
	}
	n := max(hi-lo, cacheWindow)
	start := max(0, lo-(n-(hi-lo))/2)
	start = max(0, min(start, v.size-n))
	end := min(v.size, start+n)
	buf := make([]byte, end-start)
	got, err := v.f.ReadAt(buf, start)
	if err != nil && !errors.Is(err, io.EOF) {
		v.err = err
	}
	v.cache = span{buf: buf[:got], off: start, eof: start+int64(got) >= v.size || got < len(buf)}
	return v.cache
}

// rowEnd returns where the row starting at r ends.
func (v *Viewer) rowEnd(r int64) int64 {
	base := r / rowCap * rowCap
	if end, ok := v.read(base, base+rowReach).rowEnd(r); ok && end > r {
		return end
	}
	return v.size
}

// rowBefore returns the last row boundary before end.
func (v *Viewer) rowBefore(end int64) int64 {
	if end <= 0 {
		return 0
	}
	if start, ok := v.read(end-backReach, end+2*cutSlack).rowBefore(end); ok {
		return start
	}
	return 0
}

// rowText returns the row at r, sanitized (with colours when styled), and
// where it ends.
func (v *Viewer) rowText(r int64, styled bool) (string, int64) {
	end := v.rowEnd(r)
	raw := v.read(r, end).bytes(r, end)
	if n := len(raw); n > 0 && raw[n-1] == '\n' {
		raw = raw[:n-1]
	}
	return sanitize(raw, styled), end
}
