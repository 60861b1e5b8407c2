package markdown

// minFill is the room, in cells, a word too long for any line needs left
// on the current line to start there; with less it starts a line of its
// own, so a long address is not split after one or two characters.
const minFill = 8

// wrap lays tokens out in lines of at most width cells: words are kept
// whole where they fit, the space where a line breaks is dropped, and a
// word wider than a line is broken between characters.
func wrap(toks []token, width int) [][]piece {
	width = max(width, 1)
	var lines [][]piece
	var cur []piece
	w := 0
	var gap *token
	newline := func() {
		lines = append(lines, cur)
		cur, w, gap = nil, 0, nil
	}
	for i := range toks {
		t := &toks[i]
		switch t.kind {
		case tokBreak:
			newline()
		case tokGap:
			if w > 0 {
				gap = t
			}
		case tokWord:
			gw := 0
			if gap != nil {
				gw = gap.w
			}
			switch {
			case w == 0 && t.w <= width:
				cur, w = append(cur, t.pieces...), t.w
			case w > 0 && w+gw+t.w <= width:
				cur = append(cur, gap.pieces...)
				cur, w = append(cur, t.pieces...), w+gw+t.w
			case t.w <= width:
				newline()
				cur, w = append(cur, t.pieces...), t.w
			default:
				ps := t.pieces
				if w > 0 && width-w-gw >= minFill {
					cur = append(cur, gap.pieces...)
					var head []piece
					head, ps = cut(ps, width-w-gw)
					cur = append(cur, head...)
				}
				if w > 0 {
					newline()
				}
				for cellsOf(ps) > width {
					var head []piece
					head, ps = cut(ps, width)
					lines = append(lines, head)
				}
				cur, w = ps, cellsOf(ps)
			}
			gap = nil
		}
	}
	if len(cur) > 0 || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}
