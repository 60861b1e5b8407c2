package ptyview

import (
	"regexp"
	"slices"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// tabWidth is the distance between tab stops in a followed file, as on
// every terminal that has not been told otherwise.
const tabWidth = 8

// fileLine is one line of a followed file, ready to draw: text holds the
// printable characters and the SGR sequences of the line, nothing else;
// start is the style in effect where it begins.
type fileLine struct {
	start sgrState
	text  string
}

// clean turns the raw bytes of one line into what a FilePane can draw and
// follows the style through it. Colours stay; every other escape sequence
// (cursor moves, titles, hyperlinks, queries) is dropped, since it would
// act on the UI around the pane; control characters are dropped, tabs
// become spaces. A carriage return that does not end the line starts it
// over (a progress bar shows its latest state), keeping the style. It
// returns the line and the style at its start, which a CR moves.
func clean(dst []byte, st *sgrState, raw []byte) ([]byte, sgrState) {
	start := *st
	lineStart := len(dst)
	col := 0
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == 0x1b:
			n, params, isSGR := escapeLen(raw[i:])
			if isSGR {
				st.apply(params)
				dst = append(dst, raw[i:i+n]...)
			}
			i += n
		case c == '\r':
			if i == len(raw)-1 {
				i++ // CR LF: the end of the line
				continue
			}
			dst = dst[:lineStart]
			start = *st
			col = 0
			i++
		case c == '\t':
			n := tabWidth - col%tabWidth
			dst = appendSpaces(dst, n)
			col += n
			i++
		case c < 0x20 || c == 0x7f:
			i++
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			col++
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size <= 1 || r >= 0x80 && r < 0xa0 {
				dst = append(dst, '?') // not UTF-8, or a C1 control
				col++
				i += max(size, 1)
				continue
			}
			cluster, w := ansi.FirstGraphemeCluster(raw[i:], ansi.GraphemeWidth)
			dst = append(dst, cluster...)
			col += w
			i += len(cluster)
		}
	}
	return dst, start
}

// escapeLen measures the escape sequence at the start of b (which starts
// with ESC): its length, and for an SGR sequence its parameters. An
// unfinished sequence takes the rest of b.
func escapeLen[T string | []byte](b T) (n int, params string, isSGR bool) {
	if len(b) < 2 {
		return len(b), "", false
	}
	switch b[1] {
	case '[':
		for i := 2; i < len(b); i++ {
			if b[i] >= 0x40 && b[i] <= 0x7e {
				p := b[2:i]
				sgr := b[i] == 'm' && validSGR(p)
				return i + 1, string(p), sgr
			}
		}
		return len(b), "", false
	case ']', 'P', 'X', '^', '_':
		// A string: up to BEL or ST (ESC \).
		for i := 2; i < len(b); i++ {
			if b[i] == 0x07 {
				return i + 1, "", false
			}
			if b[i] == 0x1b && i+1 < len(b) && b[i+1] == '\\' {
				return i + 2, "", false
			}
		}
		return len(b), "", false
	case '(', ')', '*', '+', '#', '%':
		return min(3, len(b)), "", false
	}
	return 2, "", false
}

// validSGR accepts only digits and separators, so nothing but a style can
// pass through to the UI.
func validSGR[T string | []byte](p T) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}

// Highlight styles for Monitor pattern hits: bold reverse video shows on
// any theme and over any colours the output has.
const (
	hitOn = "\x1b[1;7m"
)

// lineRenderer draws fileLines into w columns.
type lineRenderer struct {
	highlights []*regexp.Regexp
	spans      [][2]int
}

// draw appends l cut to w columns and padded to exactly w, with the
// matches of the highlight patterns marked, ending in the default style.
func (lr *lineRenderer) draw(b []byte, l fileLine, w int) []byte {
	lr.match(l.text)
	st := l.start
	b = st.appendTo(b)
	styled := !st.zero()
	out, pos, next := 0, 0, 0
	inHit := false
	text := l.text
	for i := 0; i < len(text) && out < w; {
		if text[i] == 0x1b {
			n, params, _ := escapeLen(text[i:])
			st.apply(params)
			b = append(b, text[i:i+n]...)
			styled = true
			if inHit {
				b = append(b, hitOn...)
			}
			i += n
			continue
		}
		for next < len(lr.spans) && pos >= lr.spans[next][1] {
			next++
		}
		if inHit && (next >= len(lr.spans) || pos < lr.spans[next][0]) {
			b = append(b, "\x1b[0m"...)
			b = st.appendTo(b)
			inHit = false
		}
		if !inHit && next < len(lr.spans) && pos >= lr.spans[next][0] {
			b = append(b, hitOn...)
			inHit, styled = true, true
		}
		cluster, cw := ansi.FirstGraphemeCluster(text[i:], ansi.GraphemeWidth)
		if out+cw > w {
			break
		}
		b = append(b, cluster...)
		out += cw
		pos += len(cluster)
		i += len(cluster)
	}
	if styled {
		b = append(b, "\x1b[0m"...)
	}
	return appendSpaces(b, w-out)
}

// match finds the highlight spans of a line, in byte offsets of its plain
// text, sorted and merged.
func (lr *lineRenderer) match(text string) {
	lr.spans = lr.spans[:0]
	if len(lr.highlights) == 0 {
		return
	}
	plain := ansi.Strip(text)
	for _, re := range lr.highlights {
		for _, m := range re.FindAllStringIndex(plain, -1) {
			if m[1] > m[0] {
				lr.spans = append(lr.spans, [2]int{m[0], m[1]})
			}
		}
	}
	slices.SortFunc(lr.spans, func(a, b [2]int) int { return a[0] - b[0] })
	merged := lr.spans[:0]
	for _, s := range lr.spans {
		if n := len(merged); n > 0 && s[0] <= merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], s[1])
			continue
		}
		merged = append(merged, s)
	}
	lr.spans = merged
}
