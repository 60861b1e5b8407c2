package markdown

import (
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// tableTransformer turns a paragraph into a table where one of its lines
// is a delimiter row (| --- | :-: |) under a header row with as many
// cells. Lines before the header stay a paragraph; every line after the
// delimiter row is a row of the table.
type tableTransformer struct{}

func (tableTransformer) Transform(p *ast.Paragraph, reader text.Reader, _ parser.Context) {
	lines := p.Lines()
	src := reader.Source()
	for i := 1; i < lines.Len(); i++ {
		row := lines.At(i)
		align := delimiterRow(row.Value(src))
		if align == nil {
			continue
		}
		head := splitRow(src, lines.At(i-1))
		if len(head) != len(align) {
			return
		}
		t := east.NewTable()
		t.Alignments = align
		t.AppendChild(t, east.NewTableHeader(tableRow(head, align)))
		for j := i + 1; j < lines.Len(); j++ {
			t.AppendChild(t, tableRow(splitRow(src, lines.At(j)), align))
		}
		parent := p.Parent()
		parent.InsertAfter(parent, p, t)
		if i == 1 {
			parent.RemoveChild(parent, p)
			return
		}
		lines.SetSliced(0, i-1)
		last := lines.At(i - 2)
		last.Stop = trimNewline(src, last)
		lines.Set(i-2, last)
		return
	}
}

// trimNewline drops the line end of a paragraph's new last line.
func trimNewline(src []byte, s text.Segment) int {
	stop := s.Stop
	for stop > s.Start && (src[stop-1] == '\n' || src[stop-1] == '\r') {
		stop--
	}
	return stop
}

// tableRow makes a row of cells, cut or filled to the header's count.
func tableRow(cells []text.Segment, align []east.Alignment) *east.TableRow {
	row := east.NewTableRow(align)
	for i, a := range align {
		c := east.NewTableCell()
		c.Alignment = a
		if i < len(cells) {
			c.Lines().Append(cells[i])
		}
		row.AppendChild(row, c)
	}
	return row
}

// splitRow cuts a row at its unescaped pipes; a pipe at either end is a
// border, not a cell. Cells are trimmed of spaces.
func splitRow(src []byte, line text.Segment) []text.Segment {
	line = line.TrimLeftSpace(src)
	line = line.TrimRightSpace(src)
	b := line.Value(src)
	start, end := 0, len(b)
	if end > 0 && b[0] == '|' {
		start++
	}
	if end > start && b[end-1] == '|' && (end < 2 || b[end-2] != '\\') {
		end--
	}
	var cells []text.Segment
	from := start
	for k := start; k <= end; k++ {
		if k < end && (b[k] != '|' || k > 0 && b[k-1] == '\\') {
			continue
		}
		seg := text.NewSegment(line.Start+from, line.Start+k)
		seg = seg.TrimLeftSpace(src)
		cells = append(cells, seg.TrimRightSpace(src))
		from = k + 1
	}
	return cells
}

// delimiterRow reads a table's delimiter row: cells of dashes with an
// optional colon at either end, which sets the column's alignment. It
// returns nil for any other line.
func delimiterRow(b []byte) []east.Alignment {
	// Trim spaces and the line end.
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r' || b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	if len(b) > 0 && b[0] == '|' {
		b = b[1:]
	}
	if len(b) > 0 && b[len(b)-1] == '|' {
		b = b[:len(b)-1]
	}
	if len(b) == 0 {
		return nil
	}
	var out []east.Alignment
	for cell := range splitBytes(b, '|') {
		c := trimSpaces(cell)
		if len(c) == 0 {
			return nil
		}
		left, right := c[0] == ':', c[len(c)-1] == ':'
		dashes := c
		if left {
			dashes = dashes[1:]
		}
		if right && len(dashes) > 0 {
			dashes = dashes[:len(dashes)-1]
		}
		if len(dashes) == 0 {
			return nil
		}
		for _, d := range dashes {
			if d != '-' {
				return nil
			}
		}
		switch {
		case left && right:
			out = append(out, east.AlignCenter)
		case left:
			out = append(out, east.AlignLeft)
		case right:
			out = append(out, east.AlignRight)
		default:
			out = append(out, east.AlignNone)
		}
	}
	return out
}

func splitBytes(b []byte, sep byte) func(func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for {
			i := 0
			for i < len(b) && b[i] != sep {
				i++
			}
			if !yield(b[:i]) || i == len(b) {
				return
			}
			b = b[i+1:]
		}
	}
}

func trimSpaces(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}
