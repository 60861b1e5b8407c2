package pty

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// PlainText turns raw terminal output into the text a person would read in
// a scrolling log: escape sequences (colours, cursor moves, titles) are
// removed, CR LF becomes LF, a lone CR starts the line over (progress bars
// keep their last state) and BS steps back, so typed-and-erased input does
// not show. Positioning done with cursor-movement sequences is lost; read
// the screen for full-screen programs.
func PlainText(b []byte) string {
	var out strings.Builder
	out.Grow(len(b))
	var line []rune
	col := 0
	put := func(r rune) {
		if col < len(line) {
			line[col] = r
		} else {
			line = append(line, r)
		}
		col++
	}
	endLine := func() {
		out.WriteString(string(line))
		out.WriteByte('\n')
		line, col = line[:0], 0
	}
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == 0x1b:
			i = skipEscape(b, i)
			continue
		case c == '\n':
			endLine()
		case c == '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				i++
				endLine()
			} else {
				col = 0
			}
		case c == '\b':
			col = max(col-1, 0)
		case c == '\t':
			put('\t')
		case c < 0x20 || c == 0x7f:
			// other controls do not print
		case c < utf8.RuneSelf:
			put(rune(c))
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r != utf8.RuneError || size != 1 {
				if r >= 0xa0 || r < 0x80 {
					put(r)
				}
			}
			i += size
			continue
		}
		i++
	}
	out.WriteString(string(line))
	return out.String()
}

// skipEscape returns the index after the escape sequence that starts at
// b[i] (an ESC), or len(b) when it is cut off.
func skipEscape(b []byte, i int) int {
	i++
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '[': // CSI: parameters and intermediates, then a final byte
		for i++; i < len(b); i++ {
			if b[i] >= 0x40 && b[i] <= 0x7e {
				return i + 1
			}
		}
		return i
	case ']', 'P', '_', '^', 'X', 'k': // strings end at BEL or ESC \
		for i++; i < len(b); i++ {
			if b[i] == '\a' {
				return i + 1
			}
			if b[i] == 0x1b {
				if i+1 < len(b) && b[i+1] == '\\' {
					return i + 2
				}
				return i + 1
			}
		}
		return i
	case '(', ')', '*', '+', '#', '%', ' ': // one more character follows
		return min(i+2, len(b))
	}
	return i + 1
}

// CompleteLen returns the length of b without an escape sequence or a
// UTF-8 character cut off at its end, so a stream reader can stop its
// cursor before it and read the whole thing next time.
func CompleteLen(b []byte) int {
	n := len(b)
	if k := incompleteTail(b); k > 0 {
		n -= k
	}
	for i := 0; i < n; {
		j := bytes.IndexByte(b[i:n], 0x1b)
		if j < 0 {
			break
		}
		i += j
		end := skipEscape(b[:n], i)
		if end >= n && !escapeComplete(b[i:n]) {
			return i
		}
		i = end
	}
	return n
}

// escapeComplete reports whether seq (from its ESC to the end of the data)
// is a whole sequence.
func escapeComplete(seq []byte) bool {
	if len(seq) < 2 {
		return false
	}
	switch seq[1] {
	case '[':
		last := seq[len(seq)-1]
		return len(seq) > 2 && last >= 0x40 && last <= 0x7e
	case ']', 'P', '_', '^', 'X', 'k':
		return seq[len(seq)-1] == '\a' || len(seq) > 2 && seq[len(seq)-2] == 0x1b && seq[len(seq)-1] == '\\'
	case '(', ')', '*', '+', '#', '%', ' ':
		return len(seq) >= 3
	}
	return true
}
