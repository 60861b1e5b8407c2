package ptyview

import (
	"strconv"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/seed92b641c3/workbench/tasks/pty"
	"golang.org/x/text/unicode/norm"
)

// grid is what the renderer reads: *pty.View while the session's lock is
// held, or a copied screen in tests.
type grid interface {
	Size() (rows, cols int)
	Cell(row, col int) pty.Cell
	Cursor() (row, col int, visible bool)
}

// style is what one SGR sequence sets: the colours and attributes of a run
// of cells.
type style struct {
	fg, bg pty.Color
	attr   pty.Attr
}

var plainStyle = style{fg: pty.ColorDefault, bg: pty.ColorDefault}

// widthCacheMax bounds the per-pane cache of character widths; a screen
// uses a few hundred distinct characters at most, so a full cache is
// simply emptied.
const widthCacheMax = 4096

// renderer turns screen cells into the text of a pane: rows of exactly the
// pane's width, runs of equal style under one SGR sequence, every row that
// changed the style ending with a reset so nothing bleeds into the layout
// around it. It is kept from frame to frame, so a frame costs one
// allocation, the string it returns.
type renderer struct {
	buf    []byte
	row    []pty.Cell
	widths map[rune]int8

	// cursorRow and cursorCol are where the cursor was drawn in the last
	// frame, in pane cells; cursorRow is -1 when it was not drawn.
	cursorRow, cursorCol int
}

// render draws the screen into w columns and h rows. The cursor is drawn as
// a reverse-video cell when showCursor is set and the program shows it.
// A screen larger than the pane (the final screen of an exited program
// after the pane shrank) is cut to the rows that hold the cursor; a smaller
// one is padded.
func (r *renderer) render(g grid, w, h int, showCursor bool) string {
	r.buf = r.buf[:0]
	r.cursorRow = -1
	if w <= 0 || h <= 0 {
		return ""
	}
	rows, cols := g.Size()
	crow, ccol, visible := g.Cursor()
	top := 0
	if rows > h {
		top = min(max(crow-h+1, 0), rows-h)
	}
	if cap(r.row) < cols {
		r.row = make([]pty.Cell, cols)
	}
	r.row = r.row[:cols]
	for y := range h {
		if y > 0 {
			r.buf = append(r.buf, '\n')
		}
		sr := top + y
		if sr >= rows {
			r.buf = appendSpaces(r.buf, w)
			continue
		}
		for c := range r.row {
			r.row[c] = g.Cell(sr, c)
		}
		cursor := -1
		if showCursor && visible && sr == crow {
			cursor = ccol
		}
		if col := r.renderRow(w, cursor); col >= 0 {
			r.cursorRow, r.cursorCol = y, col
		}
	}
	return string(r.buf)
}

// renderRow appends r.row drawn into w columns and returns the column the
// cursor was drawn at, or -1.
//
// A wide character takes two columns and two cells: its own and the
// continuation after it (pty.Cell.Cont), for which nothing is drawn. A
// continuation whose character a program overwrote, and a wide character
// whose continuation it overwrote, are drawn as blanks, as a terminal does;
// a combining mark joins the character before it. A row is never longer
// than w.
func (r *renderer) renderRow(w, cursor int) int {
	start := len(r.buf)
	row := r.row
	end := len(row)
	for end > 0 && end-1 != cursor && isBlank(&row[end-1]) {
		end--
	}
	cur := plainStyle
	out := 0
	drawn := -1
	base := -1 // where the last character starts in r.buf
	wide := false
	for c := 0; c < end && out < w; c++ {
		cell := &row[c]
		ch := cell.Rune
		gw := 1
		if ch >= utf8.RuneSelf {
			wide = true
			gw = r.width(ch)
		}
		// Width, from the emulator's side, says which cells pair up; gw is
		// what the host terminal will take, which decides the drawing.
		if cell.Cont && c > 0 && row[c-1].Width == 2 && !row[c-1].Cont {
			if c == cursor {
				drawn = max(out-2, 0) // on a wide character's second half
			}
			continue // drawn with the character before
		}
		if cell.Width == 2 && (c+1 >= len(row) || !row[c+1].Cont) {
			ch, gw = ' ', 1 // a program overwrote the other half
		}
		switch {
		case gw == 0:
			// A combining mark joins the character before it when Unicode
			// has the two as one character; other zero-width characters
			// (joiners, variation selectors) are dropped: hosts disagree
			// on the width of what they form, and a row must not
			// overflow.
			if base >= 0 {
				r.buf = composeLast(r.buf, base, ch)
			}
			continue
		case gw == 2 && out+2 > w:
			ch, gw = ' ', 1 // a wide character does not fit in the last column
		case gw > 2:
			ch, gw = ' ', 1
		}
		isCursor := c == cursor
		cur = r.setStyle(cur, cellStyle(cell, isCursor))
		base = len(r.buf)
		r.buf = utf8.AppendRune(r.buf, ch)
		if isCursor {
			drawn = out
		}
		out += gw
	}
	if out < w {
		cur = r.setStyle(cur, plainStyle)
		r.buf = appendSpaces(r.buf, w-out)
	}
	if cur != plainStyle {
		r.buf = append(r.buf, "\x1b[0m"...)
	}
	if wide {
		r.fitRow(start, w)
	}
	return drawn
}

// isBlank reports a cell that draws nothing: a space in the default style.
func isBlank(c *pty.Cell) bool {
	return c.Rune == ' ' && c.FG == pty.ColorDefault && c.BG == pty.ColorDefault && c.Attr&^pty.AttrBold == 0
}

// composeLast joins a combining mark to the character at b[at:] when
// Unicode composes the two into one character (e and U+0301 are é), and
// drops it otherwise.
func composeLast(b []byte, at int, mark rune) []byte {
	prev, _ := utf8.DecodeRune(b[at:])
	var pair [2 * utf8.UTFMax]byte
	n := utf8.EncodeRune(pair[:], prev)
	n += utf8.EncodeRune(pair[n:], mark)
	composed := norm.NFC.Bytes(pair[:n])
	if r, size := utf8.DecodeRune(composed); size == len(composed) && r != utf8.RuneError {
		return utf8.AppendRune(b[:at], r)
	}
	return b
}

// fitRow makes a row holding characters other than ASCII exactly w columns
// as the host measures them: grapheme clusters such as flags and skin
// tones join cells the row counted one by one. Should a row still measure
// wider (no known case), it is drawn again without its colours and with
// a stand-in for every character that is not ASCII.
func (r *renderer) fitRow(start, w int) {
	line := string(r.buf[start:])
	n := ansi.StringWidth(line)
	switch {
	case n < w:
		r.buf = appendSpaces(r.buf, w-n)
	case n > w:
		r.buf = r.buf[:start]
		out := 0
		for _, ch := range ansi.Strip(line) {
			if out == w {
				break
			}
			if ch >= utf8.RuneSelf {
				ch = '?'
			}
			r.buf = utf8.AppendRune(r.buf, ch)
			out++
		}
		r.buf = appendSpaces(r.buf, w-out)
	}
}

// width is the number of columns the host gives a character, measured the
// way the UI measures its own text (x/ansi), so the pane and the layout
// around it agree.
func (r *renderer) width(ch rune) int {
	if w, ok := r.widths[ch]; ok {
		return int(w)
	}
	if r.widths == nil || len(r.widths) >= widthCacheMax {
		r.widths = make(map[rune]int8, 64)
	}
	w := ansi.StringWidth(string(ch))
	r.widths[ch] = int8(w)
	return w
}

func cellStyle(c *pty.Cell, cursor bool) style {
	s := style{fg: c.FG, bg: c.BG, attr: c.Attr}
	if cursor {
		s.attr ^= pty.AttrReverse
	}
	return s
}

// setStyle switches from style cur to s, writing one SGR sequence when
// they differ. Each sequence starts from a reset, so it never depends on
// what came before.
func (r *renderer) setStyle(cur, s style) style {
	if cur == s {
		return cur
	}
	r.buf = appendSGR(r.buf, s)
	return s
}

// appendSGR writes the SGR sequence of s.
func appendSGR(b []byte, s style) []byte {
	b = append(b, "\x1b[0"...)
	if s.attr&pty.AttrBold != 0 {
		b = append(b, ";1"...)
	}
	if s.attr&pty.AttrItalic != 0 {
		b = append(b, ";3"...)
	}
	if s.attr&pty.AttrUnderline != 0 {
		b = append(b, ";4"...)
	}
	if s.attr&pty.AttrBlink != 0 {
		b = append(b, ";5"...)
	}
	if s.attr&pty.AttrReverse != 0 {
		b = append(b, ";7"...)
	}
	b = appendColor(b, s.fg, 30, 90, 38)
	b = appendColor(b, s.bg, 40, 100, 48)
	return append(b, 'm')
}

// appendColor writes a colour parameter: the short forms for the 16 ANSI
// colours, so the host's own palette shows them, 5;n for the rest of the
// palette and 2;r;g;b for true colour.
func appendColor(b []byte, c pty.Color, normal, bright, extended int) []byte {
	if c == pty.ColorDefault {
		return b
	}
	b = append(b, ';')
	if n, ok := c.Palette(); ok {
		switch {
		case n < 8:
			return strconv.AppendInt(b, int64(normal+n), 10)
		case n < 16:
			return strconv.AppendInt(b, int64(bright+n-8), 10)
		}
		b = strconv.AppendInt(b, int64(extended), 10)
		b = append(b, ";5;"...)
		return strconv.AppendInt(b, int64(n), 10)
	}
	red, green, blue, _ := c.RGB()
	b = strconv.AppendInt(b, int64(extended), 10)
	b = append(b, ";2;"...)
	b = strconv.AppendInt(b, int64(red), 10)
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(green), 10)
	b = append(b, ';')
	return strconv.AppendInt(b, int64(blue), 10)
}

const spaces = "                                                                                "

func appendSpaces(b []byte, n int) []byte {
	for n > len(spaces) {
		b = append(b, spaces...)
		n -= len(spaces)
	}
	return append(b, spaces[:n]...)
}
