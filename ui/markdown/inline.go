package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// token is a unit of inline layout: a word (kept whole if it fits), the
// space between words (dropped where a line breaks), or a hard break.
type token struct {
	kind   tokenKind
	pieces []piece
	w      int
}

type tokenKind uint8

const (
	tokWord tokenKind = iota
	tokGap
	tokBreak
)

// flow collects the inline content of a block as tokens.
type flow struct {
	toks []token
	word []piece // the word being built: pieces of several styles join into one word
}

// text adds text: spaces separate words, everything else joins the word
// being built, so "**bold**." stays one word.
func (f *flow) text(s string, a attr) {
	for s != "" {
		i := strings.IndexAny(s, " \t\n")
		if i < 0 {
			f.word = appendSafe(f.word, s, a)
			return
		}
		if i > 0 {
			f.word = appendSafe(f.word, s[:i], a)
		}
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n') {
			j++
		}
		f.gap(j-i, a)
		s = s[j:]
	}
}

// gap ends the word being built and adds n spaces of attr a.
func (f *flow) gap(n int, a attr) {
	f.endWord()
	if k := len(f.toks); k > 0 && f.toks[k-1].kind == tokGap {
		return // a run of spaces is one gap
	}
	if len(f.toks) == 0 {
		return // no space at a block's start
	}
	f.toks = append(f.toks, token{kind: tokGap, pieces: []piece{{text: strings.Repeat(" ", n), a: a, w: n}}, w: n})
}

func (f *flow) hardBreak() {
	f.endWord()
	f.toks = append(f.toks, token{kind: tokBreak})
}

func (f *flow) endWord() {
	if len(f.word) == 0 {
		return
	}
	f.toks = append(f.toks, token{kind: tokWord, pieces: f.word, w: cellsOf(f.word)})
	f.word = nil
}

func (f *flow) done() []token {
	f.endWord()
	for len(f.toks) > 0 && f.toks[len(f.toks)-1].kind != tokWord {
		f.toks = f.toks[:len(f.toks)-1]
	}
	return f.toks
}

// inlines adds the inline children of n to f, styled over a.
func (r *renderer) inlines(n ast.Node, f *flow, a attr) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.inline(c, f, a)
	}
}

func (r *renderer) inline(n ast.Node, f *flow, a attr) {
	st := &r.style
	switch n := n.(type) {
	case *ast.Text:
		v := n.Segment.Value(r.src)
		if n.IsRaw() {
			f.text(string(v), a)
		} else {
			f.text(unescape(v), a)
		}
		switch {
		case n.HardLineBreak():
			f.hardBreak()
		case n.SoftLineBreak():
			f.gap(1, a) // CommonMark: a soft break shows as a space
		}
	case *ast.String:
		if n.IsCode() || n.IsRaw() {
			f.text(string(n.Value), a)
		} else {
			f.text(unescape(n.Value), a)
		}
	case *ast.CodeSpan:
		ca := a.with(st.Code)
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch t := c.(type) {
			case *ast.Text:
				v := string(t.Segment.Value(r.src))
				if r.inCell {
					// GitHub: a pipe in a table's code is written \|, and
					// shown without its backslash.
					v = strings.ReplaceAll(v, `\|`, "|")
				}
				f.text(v, ca)
				if t.SoftLineBreak() || t.HardLineBreak() {
					f.gap(1, ca) // line ends in code spans are spaces
				}
			case *ast.String:
				f.text(string(t.Value), ca)
			}
		}
	case *ast.Emphasis:
		m := st.Emphasis
		if n.Level >= 2 {
			m = st.Strong
		}
		r.inlines(n, f, a.with(m))
	case *east.Strikethrough:
		r.inlines(n, f, a.with(st.Strikethrough))
	case *ast.Link:
		la := a.with(st.Link)
		r.inlines(n, f, la)
		dest := unescape(n.Destination)
		if text := r.plain(n); dest != "" && dest != text && dest != "mailto:"+text {
			f.gap(1, a)
			f.text("("+dest+")", a.with(st.URL))
		}
	case *ast.AutoLink:
		f.text(string(n.Label(r.src)), a.with(st.Link))
	case *ast.Image:
		ia := a.with(st.Image)
		alt := strings.TrimSpace(r.plain(n))
		if alt == "" {
			f.text("[image]", ia)
		} else {
			f.text("[image: "+alt+"]", ia)
		}
		if dest := unescape(n.Destination); dest != "" {
			f.gap(1, a)
			f.text("("+dest+")", a.with(st.URL))
		}
	case *ast.RawHTML:
		ha := a.with(st.HTML)
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			f.text(string(seg.Value(r.src)), ha)
		}
	case *east.TaskCheckBox:
		if n == r.skipBox {
			return
		}
		f.word = append(f.word, r.box(n.IsChecked, a)...)
		f.gap(1, a)
	default:
		r.inlines(n, f, a)
	}
}

// box is a task's check box: [x] done, [ ] open.
func (r *renderer) box(checked bool, a attr) []piece {
	if checked {
		return []piece{{text: "[x]", a: a.with(r.style.TaskDone), w: 3}}
	}
	return []piece{{text: "[ ]", a: a.with(r.style.TaskOpen), w: 3}}
}

// plain is the text of an inline node without its markup, for comparing
// a link's text with its address and for an image's alt text.
func (r *renderer) plain(n ast.Node) string {
	var b strings.Builder
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch t := c.(type) {
			case *ast.Text:
				b.WriteString(unescape(t.Segment.Value(r.src)))
				if t.SoftLineBreak() || t.HardLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(t.Value)
			case *ast.AutoLink:
				b.Write(t.Label(r.src))
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}

// unescape turns Markdown text into what it says, in one pass as
// CommonMark reads it: a backslash before punctuation is dropped, entity
// and numeric references become their characters ("&amp;" is "&",
// "&#27;" is ESC, which the layout then shows as an escape), and NUL is
// the replacement character.
func unescape(v []byte) string {
	if !strings.ContainsAny(string(v), "\\&\x00") {
		return string(v)
	}
	var b strings.Builder
	b.Grow(len(v))
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v) && util.IsPunct(v[i+1]):
			b.WriteByte(v[i+1])
			i++
		case c == 0:
			b.WriteString("\uFFFD")
		case c == '&':
			if s, n := reference(v[i:]); n > 0 {
				b.WriteString(s)
				i += n - 1
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// reference reads an entity or numeric reference at the start of v and
// returns its characters and its length, or a length of 0.
func reference(v []byte) (string, int) {
	end := -1
	for j := 1; j < len(v) && j < 40; j++ {
		if v[j] == ';' {
			end = j
			break
		}
	}
	if end < 2 {
		return "", 0
	}
	body := string(v[1:end])
	if body[0] == '#' {
		num, base := body[1:], 10
		if num != "" && (num[0] == 'x' || num[0] == 'X') {
			num, base = num[1:], 16
		}
		if num == "" || len(num) > 7 {
			return "", 0
		}
		var r rune
		for _, d := range num {
			var x rune
			switch {
			case d >= '0' && d <= '9':
				x = d - '0'
			case base == 16 && d|0x20 >= 'a' && d|0x20 <= 'f':
				x = d | 0x20 - 'a' + 10
			default:
				return "", 0
			}
			r = r*rune(base) + x
		}
		r = util.ToValidRune(r)
		return string(r), end + 1
	}
	for _, d := range body {
		if !(d >= '0' && d <= '9' || d|0x20 >= 'a' && d|0x20 <= 'z') {
			return "", 0
		}
	}
	if e, ok := util.LookUpHTML5EntityByName(body); ok {
		return string(e.Characters), end + 1
	}
	return "", 0
}
