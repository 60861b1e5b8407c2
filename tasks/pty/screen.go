package pty

import (
	"strings"

	"github.com/hinshun/vt10x"
	"github.com/mattn/go-runewidth"
)

// Color is a cell colour: ColorDefault, a palette index 0-255 (0-15 are the
// ANSI colours), or a 24-bit RGB value. vt10x stores RGB packed as
// r<<16|g<<8|b, so RGB colours with red and green zero and blue below 256
// read as palette indexes.
type Color uint32

// ColorDefault is the terminal's own foreground or background colour, which
// a renderer maps to the host terminal's defaults.
const ColorDefault Color = 1 << 24

// Palette returns the palette index of c, if it is one.
func (c Color) Palette() (int, bool) { return int(c), c < 256 }

// RGB returns the red, green and blue parts of c, if it is an RGB colour.
func (c Color) RGB() (r, g, b uint8, ok bool) {
	if c < 256 || c >= ColorDefault {
		return 0, 0, 0, false
	}
	return uint8(c >> 16), uint8(c >> 8), uint8(c), true
}

func colorOf(c vt10x.Color) Color {
	if c >= vt10x.DefaultFG {
		return ColorDefault
	}
	return Color(c)
}

// Attr holds the text attributes of a cell.
type Attr uint8

// The attributes vt10x keeps. Dim, hidden and strike-through are not kept.
const (
	AttrBold Attr = 1 << iota
	AttrUnderline
	AttrReverse
	AttrItalic
	AttrBlink
)

// vt10x's glyph mode bits, which it does not export.
const (
	vtReverse   = 1 << 0
	vtUnderline = 1 << 1
	vtBold      = 1 << 2
	vtItalic    = 1 << 4
	vtBlink     = 1 << 5
)

// Cell is one screen position. FG and BG are the colours as the program set
// them: with AttrReverse a renderer swaps them itself (vt10x stores them
// swapped; Cell undoes that). Bold text in colours 0-7 comes back as the
// bright colour 8-15, as most terminals draw it.
type Cell struct {
	// Rune is the character shown; a blank position holds a space.
	Rune rune
	// FG and BG are the foreground and background colours.
	FG Color
	BG Color
	// Attr holds bold, underline, reverse, italic and blink.
	Attr Attr
	// Width is how many columns Rune takes on a real terminal: 1, or 2 for
	// wide East Asian characters and most emoji, 0 for combining marks. A
	// wide character's second column is the next cell, a continuation.
	Width uint8
	// Cont marks the second cell of the wide character in the cell before
	// (see wide.go). A renderer draws nothing for it when that character
	// is there, and a blank when a program overwrote it.
	Cont bool
}

// blank is the cell of an empty screen position.
var blank = Cell{Rune: ' ', FG: ColorDefault, BG: ColorDefault, Width: 1}

// widthRules fixes the width table instead of reading the locale, which
// would make box drawing two columns wide in CJK locales.
var widthRules = &runewidth.Condition{EastAsianWidth: false}

func cellOf(g vt10x.Glyph) Cell {
	c := Cell{Rune: g.Char, FG: colorOf(g.FG), BG: colorOf(g.BG), Width: 1}
	if g.Mode&vtReverse != 0 {
		c.FG, c.BG = c.BG, c.FG
		c.Attr |= AttrReverse
	}
	if g.Mode&vtBold != 0 {
		c.Attr |= AttrBold
	}
	if g.Mode&vtUnderline != 0 {
		c.Attr |= AttrUnderline
	}
	if g.Mode&vtItalic != 0 {
		c.Attr |= AttrItalic
	}
	if g.Mode&vtBlink != 0 {
		c.Attr |= AttrBlink
	}
	switch r := c.Rune; {
	case r == wideTail:
		c.Rune, c.Width, c.Cont = ' ', 0, true
	case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
		// Never written, or a control code vt10x stored as a character.
		c.Rune = ' '
	case r >= 0xa0:
		c.Width = uint8(widthRules.RuneWidth(r))
	}
	return c
}

// Modes are the terminal modes a front end needs to encode input.
type Modes struct {
	// AppCursor: arrow keys send ESC O A instead of ESC [ A (DECCKM).
	AppCursor bool
	// AltScreen: a full-screen program is showing its own screen.
	AltScreen bool
	// BracketedPaste: the program wants pasted text inside
	// ESC[200~ ... ESC[201~ (mode 2004).
	BracketedPaste bool
	// Mouse: the program asked for mouse reports.
	Mouse bool
}

// View is the screen while a Session's lock is held; it is valid only inside
// the function given to Session.View. It reads cells in place, without
// the copy a Snapshot makes, which is what a renderer drawing every frame
// wants.
type View struct {
	vt         vt10x.Terminal
	rows, cols int
	modes      Modes
}

// Size returns the screen size.
func (v *View) Size() (rows, cols int) { return v.rows, v.cols }

// Cell returns the cell at row, col (from 0); outside the screen it
// returns a blank cell.
func (v *View) Cell(row, col int) Cell {
	if row < 0 || row >= v.rows || col < 0 || col >= v.cols {
		return blank
	}
	return cellOf(v.vt.Cell(col, row))
}

// Cursor returns the cursor position and whether the program shows it.
func (v *View) Cursor() (row, col int, visible bool) {
	c := v.vt.Cursor()
	return c.Y, c.X, v.vt.CursorVisible()
}

// Title returns the window title the program set.
func (v *View) Title() string { return v.vt.Title() }

// Modes returns the input-related terminal modes.
func (v *View) Modes() Modes { return v.modes }

// Screen is a copy of a session's screen, safe to keep and use anywhere.
type Screen struct {
	// Rows and Cols are the size; Cells holds Rows*Cols cells row by row.
	Rows, Cols int
	Cells      []Cell
	// CursorRow and CursorCol are the cursor position (from 0), and
	// CursorVisible whether the program shows the cursor.
	CursorRow     int
	CursorCol     int
	CursorVisible bool
	// Title is the window title the program set.
	Title string
	// Modes are the input-related modes at the time of the copy.
	Modes Modes
}

// At returns the cell at row, col; outside the screen a blank cell.
func (s *Screen) At(row, col int) Cell {
	if row < 0 || row >= s.Rows || col < 0 || col >= s.Cols {
		return blank
	}
	return s.Cells[row*s.Cols+col]
}

// Line returns the text of one row without trailing spaces.
func (s *Screen) Line(row int) string {
	if row < 0 || row >= s.Rows {
		return ""
	}
	var b strings.Builder
	cells := s.Cells[row*s.Cols : (row+1)*s.Cols]
	for i, c := range cells {
		if c.Cont && i > 0 && cells[i-1].Width == 2 {
			continue // the second half of the character before
		}
		b.WriteRune(c.Rune)
	}
	return strings.TrimRight(b.String(), " ")
}

// Text returns the screen as lines without trailing spaces, leaving out
// blank rows at the bottom: what a model reads of a terminal.
func (s *Screen) Text() string {
	lines := make([]string, s.Rows)
	for r := range lines {
		lines[r] = s.Line(r)
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// snapshot copies the screen; the caller holds the terminal's lock.
func snapshot(v *View) Screen {
	s := Screen{Rows: v.rows, Cols: v.cols, Cells: make([]Cell, v.rows*v.cols), Title: v.vt.Title(), Modes: v.modes}
	for r := 0; r < v.rows; r++ {
		for c := 0; c < v.cols; c++ {
			s.Cells[r*v.cols+c] = cellOf(v.vt.Cell(c, r))
		}
	}
	s.CursorRow, s.CursorCol, s.CursorVisible = v.Cursor()
	return s
}
