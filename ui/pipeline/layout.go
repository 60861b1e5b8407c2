package pipeline

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/theme"
)

// columnGap separates calls shown side by side.
var columnGap = piece{" " + theme.Dim.Render("│") + " ", 3}

// View renders the panel: exactly h lines of at most w cells. Calls are in
// arrival order with the newest at the bottom; older ones scroll off the
// top. When a call is selected that would be scrolled off, the view scrolls
// back to keep it in sight. Only the rows that fit are rendered, and lines
// carry their widths, so nothing is measured again here.
func (p *Panel) View() string {
	if p.h == 0 {
		return ""
	}
	var lines []piece
	if len(p.groups) == 0 {
		lines = []piece{text(theme.Dim, "No tool calls yet.")}
	} else {
		lines = p.visible()
	}
	var sb strings.Builder
	size := p.h
	for _, l := range lines {
		size += len(l.s)
	}
	sb.Grow(size)
	for i := range p.h {
		if i > 0 {
			sb.WriteByte('\n')
		}
		if i < len(lines) {
			l := lines[i]
			if l.w > p.w {
				l.s = ansi.Truncate(l.s, p.w, "")
			}
			sb.WriteString(l.s)
		}
	}
	return sb.String()
}

// visible returns at most h lines: the rows ending with the newest call,
// or ending with the selected call's row when that one would not fit.
func (p *Panel) visible() []piece {
	rows, top := p.rowsUpTo(len(p.groups)-1, p.h)
	if p.sel == nil || p.sel.group.idx >= top {
		return tail(rows, p.h)
	}
	rows, _ = p.rowsUpTo(p.sel.group.idx, p.h)
	if last := rows[len(rows)-1]; len(last) > p.h {
		// The selected row alone is taller than the panel: show its top,
		// where the headers are.
		return last[:p.h]
	}
	return tail(rows, p.h)
}

// rowsUpTo renders rows backwards, starting with the row holding group
// `last`, until they fill need lines. It returns them top first, with the
// index of the first group of the topmost row that is wholly in view.
func (p *Panel) rowsUpTo(last, need int) (rows [][]piece, top int) {
	cols := max(1, (p.w+columnGap.w)/(columnWidth+columnGap.w))
	total := 0
	top = last + 1
	for i := last; i >= 0 && total < need; {
		first, end := p.run(i)
		k := min(cols, end-first+1)
		start := first + (i-first)/k*k
		stop := min(start+k-1, end)
		row := p.row(start, stop, k)
		rows = append(rows, row)
		total += len(row)
		if total <= need {
			top = start
		}
		i = start - 1
	}
	for a, b := 0, len(rows)-1; a < b; a, b = a+1, b-1 {
		rows[a], rows[b] = rows[b], rows[a]
	}
	return rows, top
}

// run finds the consecutive groups that share group i's batch.
func (p *Panel) run(i int) (first, end int) {
	b := p.groups[i].batch
	first, end = i, i
	for first > 0 && p.groups[first-1].batch == b {
		first--
	}
	for end < len(p.groups)-1 && p.groups[end+1].batch == b {
		end++
	}
	return first, end
}

// row renders groups start..stop side by side in k columns (one column:
// stacked at full width). Columns keep the width of a full row so the
// columns of a batch line up from row to row.
func (p *Panel) row(start, stop, k int) []piece {
	if k == 1 {
		return p.block(p.groups[start], p.w)
	}
	colW := (p.w - (k-1)*columnGap.w) / k
	blocks := make([][]piece, 0, k)
	height := 0
	for gi := start; gi <= stop; gi++ {
		b := p.block(p.groups[gi], colW)
		blocks = append(blocks, b)
		height = max(height, len(b))
	}
	out := make([]piece, height)
	for y := range out {
		var l piece
		for x, b := range blocks {
			if x > 0 {
				gap := max(colW*x+columnGap.w*(x-1)-l.w, 0)
				l.add(piece{strings.Repeat(" ", gap), gap})
				l.add(columnGap)
			}
			if y < len(b) {
				l.add(b[y])
			}
		}
		out[y] = l
	}
	return out
}

// block is a group's lines: the top-level call, then its nested calls.
func (p *Panel) block(g *group, width int) []piece {
	if len(g.calls) == 1 {
		return p.lines(g.calls[0], width)
	}
	var out []piece
	for _, c := range g.calls {
		out = append(out, p.lines(c, width)...)
	}
	return out
}

// tail joins rows and keeps the last n lines.
func tail(rows [][]piece, n int) []piece {
	total := 0
	for _, r := range rows {
		total += len(r)
	}
	out := make([]piece, 0, total)
	for _, r := range rows {
		out = append(out, r...)
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}
