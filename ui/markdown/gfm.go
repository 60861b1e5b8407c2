package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// GitHub's extensions to CommonMark, written here rather than taken from
// goldmark's extension package: that package compiles its regular
// expressions (the bare-link ones are large) when the program starts,
// which cost about 3 ms before the first frame whether or not a reply
// ever held a table. These parsers build the same nodes (the extension's
// ast package, which costs nothing at start) with plain scanning.

// gfm is the parser options for tables, strikethrough, task list items and
// bare links. The priorities place them as GitHub reads them: a task box
// before a link could claim its bracket, a bare link after everything
// else.
func gfm() []parser.Option {
	return []parser.Option{
		parser.WithParagraphTransformers(util.Prioritized(tableTransformer{}, 200)),
		parser.WithInlineParsers(
			util.Prioritized(taskParser{}, 0),
			util.Prioritized(strikeParser{}, 500),
			util.Prioritized(bareLinkParser{}, 999),
		),
	}
}

// strikeParser reads ~text~ and ~~text~~.
type strikeParser struct{}

func (strikeParser) Trigger() []byte { return []byte{'~'} }

func (strikeParser) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	before := block.PrecendingCharacter()
	line, seg := block.PeekLine()
	d := parser.ScanDelimiter(line, before, 1, strikeDelims{})
	if d == nil || d.OriginalLength > 2 || before == '~' {
		return nil // three or more tildes are text (or a fence)
	}
	d.Segment = seg.WithStop(seg.Start + d.OriginalLength)
	block.Advance(d.OriginalLength)
	pc.PushDelimiter(d)
	return d
}

// strikeDelims pairs runs of tildes of the same length.
type strikeDelims struct{}

func (strikeDelims) IsDelimiter(b byte) bool { return b == '~' }
func (strikeDelims) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char && opener.OriginalLength == closer.OriginalLength
}
func (strikeDelims) OnMatch(int) ast.Node { return east.NewStrikethrough() }

// taskParser reads the [ ], [x] or [X] that starts a list item's first
// paragraph.
type taskParser struct{}

func (taskParser) Trigger() []byte { return []byte{'['} }

func (taskParser) Parse(parent ast.Node, block text.Reader, _ parser.Context) ast.Node {
	item, ok := parent.Parent().(*ast.ListItem)
	if !ok || item.FirstChild() != parent || parent.HasChildren() {
		return nil
	}
	line, _ := block.PeekLine()
	if len(line) < 3 || line[0] != '[' || line[2] != ']' || !bytes.ContainsAny(line[1:2], " xX") {
		return nil
	}
	n := 3
	if n < len(line) && !util.IsSpace(line[n]) {
		return nil // [x]y is text
	}
	for n < len(line) && util.IsSpace(line[n]) && line[n] != '\n' {
		n++
	}
	block.Advance(n)
	return east.NewTaskCheckBox(line[1] != ' ')
}

// bareLinkParser makes a link of an address written out in text
// (https://go.dev, www.example.com), as GitHub does.
type bareLinkParser struct{}

// Trigger: the parser runs at a line's start and after a space or the
// characters that may stand right before an address.
func (bareLinkParser) Trigger() []byte { return []byte{' ', '*', '_', '~', '('} }

func (bareLinkParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if pc.IsInLinkLabel() {
		return nil
	}
	line, seg := block.PeekLine()
	skip := 0
	if len(line) > 0 && bytes.IndexByte([]byte(" *_~("), line[0]) >= 0 {
		skip = 1
	}
	rest := line[skip:]
	var proto []byte
	switch {
	case hasPrefixFold(rest, "https://"), hasPrefixFold(rest, "http://"), hasPrefixFold(rest, "ftp://"):
	case hasPrefixFold(rest, "www."):
		proto = []byte("http")
	default:
		return nil
	}
	n := addressLen(rest)
	host := rest[:n]
	if i := bytes.Index(host, []byte("://")); i >= 0 {
		host = host[i+3:]
	}
	if n == 0 || !bytes.Contains(host, []byte(".")) {
		return nil
	}
	if skip > 0 {
		// The character before the address stays text of the parent.
		ast.MergeOrAppendTextSegment(parent, seg.WithStop(seg.Start+skip))
	}
	start := seg.Start + skip
	link := ast.NewAutoLink(ast.AutoLinkURL, ast.NewTextSegment(text.NewSegment(start, start+n)))
	link.Protocol = proto
	block.Advance(skip + n)
	return link
}

func hasPrefixFold(b []byte, p string) bool {
	return len(b) >= len(p) && bytes.EqualFold(b[:len(p)], []byte(p))
}

// addressLen is how much of b is the address: up to a space or <, without
// the punctuation that ends a sentence after it, and without a closing
// parenthesis that has no opening one in the address ("(see https://x.y)").
func addressLen(b []byte) int {
	n := 0
	for n < len(b) && !util.IsSpace(b[n]) && b[n] != '<' && b[n] < 0x80 {
		n++
	}
	for n > 0 {
		c := b[n-1]
		if bytes.IndexByte([]byte(`?!.,:*_~'"`), c) >= 0 {
			n--
			continue
		}
		if c == ')' && bytes.Count(b[:n], []byte("(")) < bytes.Count(b[:n], []byte(")")) {
			n--
			continue
		}
		break
	}
	return n
}
