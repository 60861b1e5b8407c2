package pty

import (
	"strconv"

	"github.com/hinshun/vt10x"
)

// A terminal made smaller and then larger again shows what it showed
// before, as xterm and tmux do: a shell's earlier output is still there
// when a pane that was narrowed to a side column gets the whole screen
// back. vt10x instead cuts every row to the new width and drops rows off
// the top when the cursor would fall below the new height, and widening
// brings back only blanks.
//
// So when a resize makes the screen smaller, the feeder keeps a copy of
// the whole screen (keptScreen). At every later resize it first brings the
// copy up to date with what the program drew in the meantime: a row whose
// visible part changed is taken as the program now has it, and the rest of
// it beyond the visible width is forgotten. When most rows changed, the
// screen scrolled or was cleared and the copy is dropped. After the
// emulator has the new size, the feeder draws back into it what the copy
// holds outside the old size: the cut-off ends of rows, rows cut off at the
// bottom, and rows that slid off the top (the screen moves down to make
// room for them, with the cursor, as a terminal pulls lines back from its
// scrollback). The program's pen, cursor and saved cursor are left as they
// were. The alternate screen is never kept: the programs that use it
// redraw everything when the size changes.

// keptScreen is the screen as it was before a resize made it smaller.
type keptScreen struct {
	rows, cols int
	cells      []vt10x.Glyph // rows*cols, row by row
	// shift is the row of cells shown in the emulator's top row: rows
	// above it slid off the top.
	shift int
}

func (k *keptScreen) row(i int) []vt10x.Glyph { return k.cells[i*k.cols : (i+1)*k.cols] }

// grid is the emulator's screen read in one pass.
type grid struct {
	rows, cols int
	cells      []vt10x.Glyph
	cur        vt10x.Cursor
	alt        bool
}

func (g *grid) row(r int) []vt10x.Glyph { return g.cells[r*g.cols : (r+1)*g.cols] }

func (f *feeder) readGrid() grid {
	f.vt.Lock()
	defer f.vt.Unlock()
	g := grid{rows: f.rows, cols: f.cols, cells: make([]vt10x.Glyph, f.rows*f.cols),
		cur: f.vt.Cursor(), alt: f.vt.Mode()&vt10x.ModeAltScreen != 0}
	for y := 0; y < f.rows; y++ {
		for x := 0; x < f.cols; x++ {
			g.cells[y*f.cols+x] = f.vt.Cell(x, y)
		}
	}
	return g
}

// blankRow reports whether a row shows nothing at all.
func blankRow(cells []vt10x.Glyph) bool {
	for _, c := range cells {
		if c.Char != 0 && c.Char != ' ' {
			return false
		}
	}
	return true
}

func sameCells(a, b []vt10x.Glyph) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// keep brings the kept screen up to date with g before a resize to rows x
// cols, making one when the resize cuts something off.
func (f *feeder) keep(g grid, rows, cols int) {
	if g.alt {
		f.kept = nil
		return
	}
	k := f.kept
	if k == nil {
		if rows >= g.rows && cols >= g.cols {
			return // nothing is cut off
		}
		f.kept = &keptScreen{rows: g.rows, cols: g.cols, cells: append([]vt10x.Glyph(nil), g.cells...)}
		return
	}
	// Compare what is visible with the copy, row by row.
	w := min(g.cols, k.cols)
	same, changed := 0, 0
	for r := 0; r < g.rows && r+k.shift < k.rows; r++ {
		kr := k.row(r + k.shift)
		if blankRow(kr[:w]) {
			continue
		}
		if sameCells(kr[:w], g.row(r)[:w]) {
			same++
		} else {
			changed++
		}
	}
	if changed > same {
		f.kept = nil // scrolled or cleared: start afresh
		f.keep(g, rows, cols)
		return
	}
	// Grow the copy to hold the whole visible screen.
	nr, nc := max(k.rows, k.shift+g.rows), max(k.cols, g.cols)
	if nr != k.rows || nc != k.cols {
		cells := make([]vt10x.Glyph, nr*nc)
		for i := 0; i < k.rows; i++ {
			copy(cells[i*nc:], k.row(i))
		}
		k.rows, k.cols, k.cells = nr, nc, cells
	}
	for r := 0; r < g.rows; r++ {
		kr, gr := k.row(r+k.shift), g.row(r)
		if !sameCells(kr[:w], gr[:w]) {
			clear(kr[g.cols:]) // the program redrew the row at this width
		}
		copy(kr, gr)
	}
}

// restore draws back what the kept screen holds outside the old screen
// after the emulator was resized from g's size; slide is how many rows the
// resize dropped off the top.
func (f *feeder) restore(g grid, slide int) {
	k := f.kept
	if k == nil {
		return
	}
	k.shift += slide
	rows, cols := f.rows, f.cols
	kept := min(g.rows-slide, rows) // rows that still hold old content
	curY := g.cur.Y - slide
	// Rows that slid off the top come back when there is room below the
	// rows the copy holds.
	pull := min(k.shift, max(0, rows-(k.rows-k.shift)))
	var seq []byte
	if pull > 0 {
		seq = append(seq, "\x1b[H\x1b["...)
		seq = strconv.AppendInt(seq, int64(pull), 10)
		seq = append(seq, 'L')
		k.shift -= pull
		curY += pull
	}
	if g.cur.Attr.Mode&vtGfx != 0 {
		seq = append(seq, "\x1b(B"...) // the copy holds the characters as drawn
	}
	for r := 0; r < rows; r++ {
		i := r + k.shift
		if i < 0 || i >= k.rows {
			continue
		}
		from := 0
		if old := r - pull; old >= 0 && old < kept {
			from = g.cols // the emulator kept this row up to the old width
		}
		to := min(k.cols, cols)
		kr := k.row(i)
		for to > from && kr[to-1].Char == 0 {
			to--
		}
		if to <= from {
			continue
		}
		seq = append(seq, 0x1b, '[')
		seq = strconv.AppendInt(seq, int64(r+1), 10)
		seq = append(seq, ';')
		seq = strconv.AppendInt(seq, int64(from+1), 10)
		seq = append(seq, 'H')
		var pen vt10x.Glyph
		for x := from; x < to; x++ {
			c := kr[x]
			if c.Char < 0x20 || c.Char == 0x7f || c.Char >= 0x80 && c.Char < 0xa0 {
				c = vt10x.Glyph{Char: ' ', FG: vt10x.DefaultFG, BG: vt10x.DefaultBG}
			}
			if a := drawnAs(c); x == from || a != pen {
				seq = appendSGR(seq, a)
				pen = a
			}
			seq = append(seq, string(c.Char)...)
		}
	}
	if len(seq) == 0 {
		return
	}
	if g.cur.Attr.Mode&vtGfx != 0 {
		seq = append(seq, "\x1b(0"...)
	}
	seq = append(seq, 0x1b, '[')
	seq = strconv.AppendInt(seq, int64(min(curY, rows-1)+1), 10)
	seq = append(seq, ';')
	seq = strconv.AppendInt(seq, int64(min(g.cur.X, cols-1)+1), 10)
	seq = append(seq, 'H')
	seq = appendSGR(seq, g.cur.Attr)
	f.writeVT(seq)
	if k.shift == 0 && k.rows <= rows && k.cols <= cols {
		f.kept = nil // everything is back on the screen
	}
}

// vtGfx is vt10x's DEC line-drawing bit of a glyph's mode.
const vtGfx = 1 << 3

// drawnAs is the pen that makes vt10x store c as it is: vt10x swaps the
// colours of reverse-video text when it stores a character.
func drawnAs(c vt10x.Glyph) vt10x.Glyph {
	p := vt10x.Glyph{Mode: c.Mode &^ vtGfx, FG: c.FG, BG: c.BG}
	if c.Mode&vtReverse != 0 {
		p.FG, p.BG = c.BG, c.FG
	}
	return p
}

// appendSGR appends the SGR sequence that sets the pen to p.
func appendSGR(b []byte, p vt10x.Glyph) []byte {
	b = append(b, "\x1b[0"...)
	for _, m := range [...]struct {
		bit  int16
		code string
	}{{vtBold, ";1"}, {vtItalic, ";3"}, {vtUnderline, ";4"}, {vtBlink, ";5"}, {vtReverse, ";7"}} {
		if p.Mode&m.bit != 0 {
			b = append(b, m.code...)
		}
	}
	b = appendColor(b, p.FG, 30, 90, 38)
	b = appendColor(b, p.BG, 40, 100, 48)
	return append(b, 'm')
}

func appendColor(b []byte, c vt10x.Color, base, bright, ext int) []byte {
	switch {
	case c >= vt10x.DefaultFG:
		return b // the default, which SGR 0 chose
	case c < 8:
		return strconv.AppendInt(append(b, ';'), int64(base)+int64(c), 10)
	case c < 16:
		return strconv.AppendInt(append(b, ';'), int64(bright)+int64(c)-8, 10)
	case c < 256:
		b = strconv.AppendInt(append(b, ';'), int64(ext), 10)
		return strconv.AppendInt(append(b, ";5;"...), int64(c), 10)
	}
	b = strconv.AppendInt(append(b, ';'), int64(ext), 10)
	b = strconv.AppendInt(append(b, ";2;"...), int64(c>>16&0xff), 10)
	b = strconv.AppendInt(append(b, ';'), int64(c>>8&0xff), 10)
	return strconv.AppendInt(append(b, ';'), int64(c&0xff), 10)
}
