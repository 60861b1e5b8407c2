// Package markdown draws the Markdown of model replies and plans in the
// terminal. It exists so that Workbench does not link a general Markdown
// renderer whose style and syntax-highlighting registries cost more than a
// third of the start before the first frame: here goldmark parses, with
// GitHub's tables, strikethrough, task lists and bare links parsed by this
// package (gfm.go says why), and a small layout draws the tree in the theme's colours, highlighting code with
// package highlight.
//
// What it promises: every line is at most the width asked for; prose is
// word-wrapped, code is folded, tables shrink to fit; no colour has a
// background; and no character of the input reaches the terminal raw when
// it could act on it or hide (each is shown as safetext shows it, in
// reverse video).
package markdown

import (
	"fmt"
	"strings"
	"sync"

	xansi "github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/seed92b641c3/workbench/theme"
)

// TabWidth is how many columns apart the tab stops in code are. Terminals
// put them every 8 columns, which a layout measuring cells cannot know, so
// tabs are expanded before anything is measured; 4 reads as code is
// usually indented.
const TabWidth = 4

// minWidth is the narrowest width Render lays out: one wide character.
const minWidth = 2

// codeIndent sets code blocks off from the prose around them without a
// background.
const codeIndent = "  "

// markdownParser is built the first time something is rendered, not at
// start: the start is what this package exists to keep short. It is
// goldmark's parser alone: goldmark's HTML renderer is not linked.
var markdownParser = sync.OnceValue(func() parser.Parser {
	opts := []parser.Option{
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	}
	return parser.NewParser(append(opts, gfm()...)...)
})

// renderer holds what one Render call needs.
type renderer struct {
	src     []byte
	style   theme.MarkdownStyle
	depth   int                // lists the current block is nested in
	skipBox *east.TaskCheckBox // drawn as the list item's marker
	inCell  bool               // laying out a table cell
}

// Render draws Markdown src as lines at most width cells wide, each line
// styled on its own (it can be drawn without its neighbours), with no
// blank lines at either end. It uses the current theme's colours. The
// narrowest layout is two cells, a wide character's width; a smaller
// width is taken as two.
func Render(src string, width int) []string {
	width = max(width, minWidth)
	src = strings.ReplaceAll(src, "\r\n", "\n")
	if strings.TrimSpace(src) == "" {
		return nil
	}
	r := &renderer{src: []byte(src), style: theme.Markdown()}
	doc := markdownParser().Parse(text.NewReader(r.src))
	lines := r.blocks(doc, width, false)
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return fit(lines, width)
}

// fit is the last guard of the width promise, for a layout too narrow for
// its own indents: a line still too wide is cut into lines that fit.
func fit(lines []string, width int) []string {
	for i, l := range lines {
		if xansi.StringWidth(l) > width {
			out := append([]string(nil), lines[:i]...)
			for _, l := range lines[i:] {
				if xansi.StringWidth(l) > width {
					out = append(out, strings.Split(xansi.Hardwrap(l, width, true), "\n")...)
				} else {
					out = append(out, l)
				}
			}
			return out
		}
	}
	return lines
}

// blocks draws the block children of n, one blank line between them, or
// none in a tight list item.
func (r *renderer) blocks(n ast.Node, width int, tight bool) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines := r.block(c, width)
		if len(lines) == 0 {
			continue
		}
		if len(out) > 0 && !tight {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

func (r *renderer) block(n ast.Node, width int) []string {
	st := &r.style
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return r.paragraph(n, width, attr{})
	case *ast.Heading:
		return r.heading(n, width)
	case *ast.ThematicBreak:
		return []string{draw([]piece{{text: strings.Repeat("─", width), a: attr{}.with(st.Rule), w: width}})}
	case *ast.FencedCodeBlock:
		return r.code(n, string(n.Language(r.src)), width)
	case *ast.CodeBlock:
		return r.code(n, "", width)
	case *ast.Blockquote:
		return r.quote(n, width)
	case *ast.List:
		return r.list(n, width)
	case *ast.HTMLBlock:
		return r.html(n, width)
	case *east.Table:
		return r.table(n, width)
	default:
		return r.blocks(n, width, false)
	}
}

// paragraph word-wraps a block's inline content.
func (r *renderer) paragraph(n ast.Node, width int, a attr) []string {
	var f flow
	r.inlines(n, &f, a)
	return drawAll(wrap(f.done(), width))
}

func drawAll(lines [][]piece) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = draw(l)
	}
	return out
}

// heading writes the level's marks ("## ") before the text, in the
// level's style and as one run with it, and indents wrapped lines under
// the text.
func (r *renderer) heading(n *ast.Heading, width int) []string {
	level := min(max(n.Level, 1), 6)
	a := attr{}.with(r.style.Headings[level-1])
	prefix := strings.Repeat("#", level) + " "
	var f flow
	r.inlines(n, &f, a)
	lines := wrap(f.done(), width-len(prefix))
	pad := piece{text: strings.Repeat(" ", len(prefix)), w: len(prefix)}
	for i, l := range lines {
		p := pad
		if i == 0 {
			p = piece{text: prefix, a: a, w: len(prefix)}
		}
		lines[i] = append([]piece{p}, l...)
	}
	return drawAll(lines)
}

// indent puts first before the first line and rest before the others,
// leaving blank lines blank.
func indent(lines []string, first, rest string) []string {
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		if l == "" && i > 0 {
			continue
		}
		lines[i] = p + l
	}
	return lines
}

// quote draws a block quote with a bar before each line; quotes inside
// quotes get a bar each.
func (r *renderer) quote(n *ast.Blockquote, width int) []string {
	inner := r.blocks(n, width-2, false)
	bar := attr{}.with(r.style.QuoteBar)
	full, blank := draw([]piece{{text: "│ ", a: bar, w: 2}}), draw([]piece{{text: "│", a: bar, w: 1}})
	for i, l := range inner {
		if l == "" {
			inner[i] = blank
		} else {
			inner[i] = full + l
		}
	}
	return inner
}

// bullets are the marks of unordered lists by depth.
var bullets = []string{"•", "◦", "▪", "▫"}

// list draws a list: bullets by depth, or numbers kept from the source
// and right-aligned; each item's blocks indented under its text.
func (r *renderer) list(n *ast.List, width int) []string {
	r.depth++
	defer func() { r.depth-- }()
	count := 0
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		count++
	}
	numW := len(fmt.Sprint(n.Start + count - 1))
	ma := attr{}.with(r.style.Bullet)
	var out []string
	i := 0
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		var marker []piece
		if n.IsOrdered() {
			m := fmt.Sprintf("%*d%c ", numW, n.Start+i, n.Marker)
			marker = []piece{{text: m, a: ma, w: len(m)}}
		} else if box := taskBox(c); box != nil {
			r.skipBox = box
			marker = append(r.box(box.IsChecked, attr{}), piece{text: " ", w: 1})
		} else {
			b := bullets[(r.depth-1)%len(bullets)] + " "
			marker = []piece{{text: b, a: ma, w: 2}}
		}
		mw := cellsOf(marker)
		body := r.blocks(c, width-mw, n.IsTight)
		r.skipBox = nil
		if len(body) == 0 {
			body = []string{""}
		}
		if len(out) > 0 && !n.IsTight {
			out = append(out, "")
		}
		out = append(out, indent(body, draw(marker), strings.Repeat(" ", mw))...)
		i++
	}
	return out
}

// taskBox returns the check box a list item starts with, if it is a task.
func taskBox(item ast.Node) *east.TaskCheckBox {
	first := item.FirstChild()
	if first == nil {
		return nil
	}
	box, _ := first.FirstChild().(*east.TaskCheckBox)
	return box
}

// html shows an HTML block as the text it is, line by line, its
// indentation kept and long lines folded like code.
func (r *renderer) html(n *ast.HTMLBlock, width int) []string {
	a := attr{}.with(r.style.HTML)
	var out []string
	add := func(seg text.Segment) {
		line := strings.TrimRight(expandTabs(strings.TrimRight(string(seg.Value(r.src)), "\r\n")), " ")
		if line == "" {
			out = append(out, "")
			return
		}
		out = append(out, drawAll(fold(appendSafe(nil, line, a), width))...)
	}
	for i := 0; i < n.Lines().Len(); i++ {
		add(n.Lines().At(i))
	}
	if n.HasClosure() {
		add(n.ClosureLine)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}
