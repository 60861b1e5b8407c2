package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/seed92b641c3/workbench/ui/highlight"
)

// code draws a code block: indented, highlighted by its language, tabs
// expanded, and lines too long for the width folded, never wrapped at
// words, so the code reads as it was written.
func (r *renderer) code(n ast.Node, lang string, width int) []string {
	h := highlight.New(lang)
	avail := max(width-len(codeIndent), 1)
	lines := n.Lines()
	var out []string
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		line := strings.Repeat(" ", seg.Padding) + string(seg.Value(r.src))
		line = strings.TrimRight(expandTabs(strings.TrimRight(line, "\r\n")), " ")
		var ps []piece
		for _, s := range h.Line(line) {
			ps = appendSafe(ps, s.Text, attr{}.with(syntaxMark(&r.style.Syntax, s.Kind)))
		}
		if len(ps) == 0 {
			out = append(out, "")
			continue
		}
		for _, l := range fold(ps, avail) {
			out = append(out, codeIndent+draw(l))
		}
	}
	// A block's trailing blank lines are not part of its code.
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// expandTabs replaces tabs by spaces to the next tab stop, counting
// columns as characters (the code's own alignment is what matters).
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, c := range s {
		if c == '\t' {
			n := TabWidth - col%TabWidth
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(c)
		col++
	}
	return b.String()
}
