package markdown

import (
	"strings"

	east "github.com/yuin/goldmark/extension/ast"
)

// Column separators: between cells, and where a column border crosses a
// rule. The narrow form is used when the table cannot spare three cells
// per column.
const (
	sepWide    = " │ "
	ruleWide   = "─┼─"
	sepNarrow  = "│"
	ruleNarrow = "┼"
)

// cell is one table cell's inline content.
type cell struct {
	toks   []token
	natW   int // width on one line
	wordW  int // its widest word
	header bool
}

// table draws a GitHub table: columns as wide as their content where the
// width allows, otherwise the widest shrunk first and their cells wrapped;
// each column aligned as its delimiter row says; a rule under the header,
// and between rows once a row takes more than one line.
func (r *renderer) table(t *east.Table, width int) []string {
	cols := len(t.Alignments)
	if cols == 0 {
		return nil
	}
	var rows [][]cell
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		_, header := row.(*east.TableHeader)
		a := attr{}
		if header {
			a = a.with(r.style.TableHeader)
		}
		cells := make([]cell, cols)
		i := 0
		for c := row.FirstChild(); c != nil && i < cols; c = c.NextSibling() {
			var f flow
			r.inCell = true
			r.inlines(c, &f, a)
			r.inCell = false
			cells[i] = measure(f.done())
			i++
		}
		for j := range cells {
			cells[j].header = header
		}
		rows = append(rows, cells)
	}
	sep, rule := sepWide, ruleWide
	if width-(cols-1)*len(sepWide) < cols*3 {
		sep, rule = sepNarrow, ruleNarrow
	}
	sepW := cells(sep)
	widths := columnWidths(rows, cols, max(width-(cols-1)*sepW, cols))

	border := attr{}.with(r.style.TableBorder)
	var out []string
	var drawn [][][]piece // each row's lines
	tall := false
	for _, row := range rows {
		lines := r.rowLines(row, widths, t.Alignments, sep, border)
		tall = tall || len(lines) > 1 && !row[0].header
		drawn = append(drawn, lines)
	}
	ruleLine := func() string {
		var ps []piece
		for i, w := range widths {
			if i > 0 {
				ps = append(ps, piece{text: rule, a: border, w: cells(rule)})
			}
			ps = append(ps, piece{text: strings.Repeat("─", w), a: border, w: w})
		}
		return draw(ps)
	}
	for i, lines := range drawn {
		if i > 0 && (rows[i-1][0].header || tall) {
			out = append(out, ruleLine())
		}
		out = append(out, drawAll(lines)...)
	}
	return out
}

// measure finds a cell's natural and smallest sensible widths.
func measure(toks []token) cell {
	c := cell{toks: toks}
	for _, t := range toks {
		c.natW += t.w
		if t.kind == tokWord && t.w > c.wordW {
			c.wordW = t.w
		}
	}
	return c
}

// columnWidths gives each column its natural width when they all fit in
// avail; otherwise it caps the widest columns at one width, as high as
// fits, so narrow columns (a status, a number) keep their text whole and
// the wide ones wrap.
func columnWidths(rows [][]cell, cols, avail int) []int {
	nat := make([]int, cols)
	for _, row := range rows {
		for i, c := range row {
			nat[i] = max(nat[i], c.natW, 1)
		}
	}
	total := 0
	for _, w := range nat {
		total += w
	}
	if total <= avail {
		return nat
	}
	sum := func(limit int) int {
		s := 0
		for _, w := range nat {
			s += min(w, limit)
		}
		return s
	}
	lo, hi := 1, avail // the largest cap whose sum fits
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if sum(mid) <= avail {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	widths := make([]int, cols)
	left := avail
	for i, w := range nat {
		widths[i] = min(w, lo)
		left -= widths[i]
	}
	for i := range widths { // the cells the cap leaves over
		if left > 0 && nat[i] > widths[i] {
			widths[i]++
			left--
		}
	}
	return widths
}

// rowLines wraps each cell of a row to its column and lays the cells side
// by side, aligned; the last column is not padded on the right, so no
// line ends in spaces.
func (r *renderer) rowLines(row []cell, widths []int, align []east.Alignment, sep string, border attr) [][]piece {
	wrapped := make([][][]piece, len(row))
	height := 1
	for i, c := range row {
		wrapped[i] = wrap(c.toks, widths[i])
		height = max(height, len(wrapped[i]))
	}
	out := make([][]piece, height)
	for l := range height {
		var ps []piece
		for i := range row {
			if i > 0 {
				ps = append(ps, piece{text: sep, a: border, w: cells(sep)})
			}
			var content []piece
			if l < len(wrapped[i]) {
				content = wrapped[i][l]
			}
			pad := widths[i] - cellsOf(content)
			left := 0
			switch align[i] {
			case east.AlignRight:
				left = pad
			case east.AlignCenter:
				left = pad / 2
			}
			right := pad - left
			if i == len(row)-1 {
				right = 0
			}
			ps = appendSpaces(ps, left)
			ps = append(ps, content...)
			ps = appendSpaces(ps, right)
		}
		// A line whose last cells are empty ends in a separator and
		// padding; trailing spaces are dropped.
		out[l] = trimRight(ps)
	}
	return out
}

func appendSpaces(ps []piece, n int) []piece {
	if n <= 0 {
		return ps
	}
	return append(ps, piece{text: strings.Repeat(" ", n), w: n})
}

// trimRight drops trailing spaces, styled or not, unless their style
// shows on a space (an underline, a strikethrough, a marked escape).
func trimRight(ps []piece) []piece {
	for len(ps) > 0 {
		p := ps[len(ps)-1]
		if p.marked || p.a.underline || p.a.strike {
			break
		}
		t := strings.TrimRight(p.text, " ")
		if t != "" {
			ps[len(ps)-1] = piece{text: t, a: p.a, w: cells(t)}
			break
		}
		ps = ps[:len(ps)-1]
	}
	return ps
}
