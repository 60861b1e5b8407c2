package pty

import (
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// vt10x gives every character one cell, while a terminal gives a wide
// character (CJK, most emoji) two. A program that places text by column
// after wide characters on the same row (an editor, a table, a status
// bar) would then find its text one cell to the left per wide character.
// The feeder therefore follows every wide character with wideTail, which
// takes the second cell in the emulator as it does on a real terminal;
// cells holding it come back as continuation cells (Cell.Cont) that
// renderers skip and Screen.Line leaves out. A wide character that would
// start in the last column is moved to the next row first, as a terminal
// does, by a blank in that column.

// wideTail marks the second cell of a wide character. It is a Unicode
// noncharacter, which programs do not print.
const wideTail = '\U0010FFFE'

// hasWide reports whether text may hold a wide character: they all start
// at U+1100, whose UTF-8 form begins with a byte from 0xe1 up.
func hasWide(text []byte) bool {
	for _, c := range text {
		if c >= 0xe1 {
			return true
		}
	}
	return false
}

// column follows the cursor's column over plain text the way vt10x moves
// it, so the feeder knows where a wide character would land.
type column struct {
	x, cols        int
	wrapNext, wrap bool // a pending wrap; autowrap mode
	crlf           bool // line feed also returns the carriage
}

// put moves over one printed cell.
func (c *column) put() {
	if c.wrap && c.wrapNext {
		c.x, c.wrapNext = 0, false
	}
	if c.x+1 < c.cols {
		c.x++
		return
	}
	c.x, c.wrapNext = c.cols-1, true
}

// widen returns text with wideTail after every wide character, and a
// blank before one that would start in the last column, built in buf; col
// is the cursor before text and is moved over it.
func widen(text, buf []byte, col *column) []byte {
	out := buf[:0]
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\r':
			col.x, col.wrapNext = 0, false
			out = append(out, c)
			i++
			continue
		case c == '\n':
			if col.crlf {
				col.x = 0
			}
			col.wrapNext = false
			out = append(out, c)
			i++
			continue
		case c < utf8.RuneSelf:
			col.put()
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && size == 1 {
			out = append(out, c) // vt10x skips it
			i++
			continue
		}
		if widthRules.RuneWidth(r) != 2 {
			col.put()
			out = append(out, text[i:i+size]...)
			i += size
			continue
		}
		if col.wrap && !col.wrapNext && col.x == col.cols-1 && col.cols > 1 {
			out = append(out, ' ')
			col.put()
		}
		out = append(out, text[i:i+size]...)
		out = utf8.AppendRune(out, wideTail)
		col.put()
		col.put()
		i += size
	}
	return out
}

// cursorColumn returns where the next plain text starts: the followed
// cursor of an active run, or, with everything pending fed first, the
// emulator's own.
func (f *feeder) cursorColumn() column {
	if r := &f.run; r.active {
		return column{x: r.x, cols: f.cols, wrapNext: r.wrapNext, wrap: r.wrapMode, crlf: r.crlf}
	}
	f.flush()
	f.vt.Lock()
	cur, mode := f.vt.Cursor(), f.vt.Mode()
	f.vt.Unlock()
	return column{x: cur.X, cols: f.cols, wrapNext: cur.State&vtCursorWrapNext != 0,
		wrap: mode&vt10x.ModeWrap != 0, crlf: mode&vt10x.ModeCRLF != 0}
}
