package markdown

import (
	"strings"
	"unicode/utf8"

	xansi "github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/ui/safetext"
)

// piece is text of one attr. A marked piece is the visible escape of a
// character of the input (safetext's <U+202E>, \x1b), drawn reversed.
type piece struct {
	text   string
	a      attr
	marked bool
	w      int // cells
}

// cells is the width of plain text on a terminal.
func cells(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return xansi.StringWidth(s)
		}
	}
	return len(s)
}

// appendSafe appends text as pieces of attr a, each character that would
// act on the terminal or hide itself replaced by its marked escape. This
// is the one way input text becomes output: nothing of the model's reaches
// the terminal without passing here.
func appendSafe(out []piece, s string, a attr) []piece {
	if s == "" {
		return out
	}
	if safetext.Escape(s) == s {
		return append(out, piece{text: s, a: a, w: cells(s)})
	}
	start := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		e := ""
		switch {
		case r == utf8.RuneError && n == 1:
			e = "\uFFFD" // invalid UTF-8 is shown as the replacement character
		case r == '\t' || r == '\n':
			e = " " // callers lay out lines and tabs; a stray one is a space
		default:
			if x := safetext.Escape(string(r)); x != string(r) {
				e = x
			}
		}
		if e == "" {
			i += n
			continue
		}
		if start < i {
			out = append(out, piece{text: s[start:i], a: a, w: cells(s[start:i])})
		}
		out = append(out, piece{text: e, a: a, marked: e != " " && e != "\uFFFD", w: cells(e)})
		i += n
		start = i
	}
	if start < len(s) {
		out = append(out, piece{text: s[start:], a: a, w: cells(s[start:])})
	}
	return out
}

// draw writes pieces as one line: each change of attr resets and sets the
// new one, and the line ends reset, so it can be drawn without its
// neighbours.
func draw(ps []piece) string {
	var b strings.Builder
	var cur attr
	open := false
	for _, p := range ps {
		if p.a != cur {
			if open {
				b.WriteString(reset)
				open = false
			}
			if p.a != (attr{}) {
				b.WriteString(p.a.sgr())
				open = true
			}
			cur = p.a
		}
		if p.marked {
			b.WriteString(markOn)
			b.WriteString(p.text)
			b.WriteString(markOff)
		} else {
			b.WriteString(p.text)
		}
	}
	if open {
		b.WriteString(reset)
	}
	return b.String()
}

// cellsOf is the width of pieces in cells.
func cellsOf(ps []piece) int {
	n := 0
	for _, p := range ps {
		n += p.w
	}
	return n
}

// cut splits pieces so the head is at most n cells, breaking inside a
// piece between characters if it must. At least one character goes into
// the head, so folding always advances.
func cut(ps []piece, n int) (head, tail []piece) {
	w := 0
	for i, p := range ps {
		if w+p.w <= n {
			w += p.w
			continue
		}
		left := n - w
		t := xansi.Truncate(p.text, left, "")
		if t == "" && i == 0 && w == 0 {
			_, size := utf8.DecodeRuneInString(p.text)
			t = p.text[:size]
		}
		head = append(head, ps[:i]...)
		if t != "" {
			head = append(head, piece{text: t, a: p.a, marked: p.marked, w: cells(t)})
		}
		if rest := p.text[len(t):]; rest != "" {
			tail = append(tail, piece{text: rest, a: p.a, marked: p.marked, w: cells(rest)})
		}
		return head, append(tail, ps[i+1:]...)
	}
	return ps, nil
}

// fold breaks pieces into lines of at most n cells, by cells, not words:
// how a code line too long for the view is shown.
func fold(ps []piece, n int) [][]piece {
	var out [][]piece
	for cellsOf(ps) > n {
		var head []piece
		head, ps = cut(ps, n)
		out = append(out, head)
	}
	return append(out, ps)
}
