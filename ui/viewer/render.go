package viewer

import (
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/ui/format"
	"github.com/seed92b641c3/workbench/ui/safetext"
)

// tabWidth is the distance between tab stops, as terminals and less set it.
const tabWidth = 8

// reset ends every drawn line that carries colours, so a file's colours
// never leak into the next line or the rest of the UI.
const reset = "\x1b[m"

// sanitize turns a row's bytes (without its newline) into text that is safe
// to draw: SGR sequences (colours, bold...) are kept when keepSGR is set and
// every other escape sequence (cursor moves, screen clears, titles) is
// dropped; tabs become spaces; other control characters are shown in caret
// notation (^M) as less does; bidi controls, zero-width and other invisible
// characters as escapes (<U+202E>, safetext); a carriage return before the
// newline (CRLF) is dropped; each invalid UTF-8 byte becomes U+FFFD. Without keepSGR the
// result is the row's visible text, which search matches against, so what is
// found is exactly what is seen.
func sanitize(raw []byte, keepSGR bool) string {
	if len(raw) > 0 && raw[len(raw)-1] == '\r' {
		raw = raw[:len(raw)-1]
	}
	if plainASCII(raw) {
		return string(raw)
	}
	var b strings.Builder
	b.Grow(len(raw) + len(reset))
	styled := false
	// Tab stops need the visible column; it is measured only when a tab
	// comes, from the text written since the previous one.
	col, measured := 0, 0
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == esc:
			n, complete, sgr := escapeLen(raw[i:])
			if complete && sgr && keepSGR {
				b.Write(raw[i : i+n])
				styled = true
			}
			i += max(n, 1)
		case c == '\t':
			s := b.String()
			col += ansi.StringWidth(s[measured:])
			pad := tabWidth - col%tabWidth
			b.WriteString("        "[:pad])
			col += pad
			measured = b.Len()
			i++
		case c < 0x20 || c == 0x7f:
			b.WriteByte('^')
			b.WriteByte(c ^ 0x40)
			i++
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			switch {
			case r == utf8.RuneError && size == 1 || r >= 0x80 && r < 0xa0:
				// Invalid bytes and C1 controls (which terminals obey).
				b.WriteRune(utf8.RuneError)
			case safetext.Invisible(r):
				// A bidi control or zero-width character would reorder
				// or hide the text around it: it is shown as its escape,
				// in reverse video when drawn, as everywhere else.
				if keepSGR {
					b.WriteString(safetext.Mark(string(r)))
					styled = true
				} else {
					b.WriteString(safetext.Escape(string(r)))
				}
			default:
				b.Write(raw[i : i+size])
			}
			i += size
		}
	}
	if styled {
		b.WriteString(reset)
	}
	return b.String()
}

// plainASCII reports whether b is printable ASCII only, the common case
// that needs no cleaning.
func plainASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// wrapRow cuts a sanitized row into lines of at most width cells. Each line
// starts with the colours in force where it begins, so every line can be
// drawn on its own.
func wrapRow(s string, width int) []string {
	if s == "" || ansi.StringWidth(s) <= width {
		return []string{s}
	}
	lines := strings.Split(ansi.Hardwrap(s, width, true), "\n")
	if strings.IndexByte(s, esc) < 0 {
		return lines
	}
	var carry string
	for i, l := range lines {
		if carry != "" {
			lines[i] = carry + l
		}
		carry = carrySGR(carry, l)
	}
	return lines
}

// carrySGR appends the SGR sequences of s to carry, starting again after a
// reset: the result, written first, restores the colours in force at the end
// of s.
func carrySGR(carry, s string) string {
	for {
		i := strings.IndexByte(s, esc)
		if i < 0 {
			return carry
		}
		n, complete, sgr := escapeLen([]byte(s[i:min(len(s), i+64)]))
		if complete && sgr {
			seq := s[i : i+n]
			if seq == reset || seq == "\x1b[0m" {
				carry = ""
			} else {
				carry += seq
			}
		}
		s = s[i+max(n, 1):]
	}
}

// span of columns [a, b) to paint with style.
type paintRange struct {
	a, b  int
	style lipgloss.Style
}

// paint draws ranges of columns of a line (already cut to the screen) in
// their styles, keeping the line's own colours around them.
func paint(line string, ranges []paintRange) string {
	if len(ranges) == 0 {
		return line
	}
	var b strings.Builder
	col := 0
	for _, r := range ranges {
		if r.a > col {
			b.WriteString(ansi.Cut(line, col, r.a))
		}
		b.WriteString(r.style.Render(ansi.Strip(ansi.Cut(line, r.a, r.b))))
		col = r.b
	}
	b.WriteString(ansi.TruncateLeft(line, col, ""))
	return b.String()
}

// fit makes a drawn line at most width cells and closes its colours.
func fit(line string, width int) string {
	if ansi.StringWidth(line) > width {
		line = ansi.Truncate(line, width, "")
	}
	if strings.IndexByte(line, esc) >= 0 && !strings.HasSuffix(line, reset) {
		line += reset
	}
	return line
}

// humanBytes and thousands write sizes and counts as the whole UI does
// (package format).
func humanBytes(n int64) string { return format.Bytes(n) }

func thousands(n int64) string { return format.Count(n) }
