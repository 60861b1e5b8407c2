package conversation

import (
	"strings"

	"github.com/seed92b641c3/workbench/theme"
)

// assistantItem is the open end of a reply being streamed. A reply is
// shown as a run of blocks (paragraphs, lists, code fences), each its own
// entry in the view, rendered as Markdown once and cached like any other
// item. The streaming item splits the incoming text into those blocks as
// they finish and hands them to the view; it draws only the block still
// being written, plainly and incrementally. So a delta costs about the same
// however long the reply is, finishing a reply renders only its last
// block, and a long reply that is scrolled or resized renders only the
// blocks on screen.
type assistantItem struct {
	text strings.Builder

	scanned    int      // bytes of text already split into lines
	blockStart int      // where the open block begins
	pending    int      // offset of a blank line that may end the block, or -1
	inFence    fence    // the code fence the open block is in, if any
	finished   []string // blocks finished by the current delta

	tail  plainTail
	width int
}

func newAssistant() *assistantItem { return &assistantItem{pending: -1} }

// appendText adds a delta and returns the Markdown of the blocks it
// finished, in order.
func (a *assistantItem) appendText(delta string) []string {
	a.text.WriteString(delta)
	s := a.text.String()
	for {
		nl := strings.IndexByte(s[a.scanned:], '\n')
		if nl < 0 {
			break
		}
		start, end := a.scanned, a.scanned+nl+1
		a.scanned = end
		a.scanLine(s, start, end)
	}
	// The first character of the line being written already tells
	// whether it continues the block before a blank line.
	if a.pending >= 0 && a.scanned < len(s) && !a.inFence.open {
		if c := s[a.scanned]; c != ' ' && c != '\t' {
			a.closeBlock(a.pending, a.scanned)
		}
	}
	done := a.finished
	a.finished = nil
	return done
}

// rest is the Markdown of the block still open.
func (a *assistantItem) rest() string { return a.text.String()[a.blockStart:] }

// scanLine advances the block splitter over one complete line. A block ends
// at a blank line, but only once the next line shows it is not an indented
// continuation (a list item's second paragraph); a fence ends a block where
// it opens and where it closes.
func (a *assistantItem) scanLine(s string, start, end int) {
	line := strings.TrimRight(s[start:end], "\r\n")
	if a.inFence.open {
		if a.inFence.closes(line) {
			a.inFence = fence{}
			a.closeBlock(end, end)
		}
		return
	}
	if strings.TrimSpace(line) == "" {
		if a.pending < 0 && strings.TrimSpace(s[a.blockStart:start]) != "" {
			a.pending = start
		}
		if a.pending < 0 {
			a.blockStart = end // blank lines before any content
		}
		return
	}
	if f, ok := opensFence(line); ok {
		switch {
		case a.pending >= 0:
			a.closeBlock(a.pending, start)
		case strings.TrimSpace(s[a.blockStart:start]) != "":
			a.closeBlock(start, start)
		}
		a.inFence = f
		return
	}
	if a.pending >= 0 {
		if line[0] != ' ' && line[0] != '\t' {
			a.closeBlock(a.pending, start)
		} else {
			a.pending = -1
		}
	}
}

// closeBlock finishes the block that ends at end; the next one starts at
// next.
func (a *assistantItem) closeBlock(end, next int) {
	s := a.text.String()
	if strings.TrimSpace(s[a.blockStart:end]) != "" {
		a.finished = append(a.finished, strings.Clone(s[a.blockStart:end]))
	}
	a.blockStart = next
	a.pending = -1
}

func (a *assistantItem) render(rc *renderCtx) []string {
	if rc.width != a.width {
		a.width = rc.width
		a.tail = plainTail{}
	}
	return a.tail.render(a.text.String(), a.blockStart, rc.width)
}

// splitBlocks splits a whole reply into the blocks streaming would have
// produced, so a reply added at once looks the same as one streamed.
func splitBlocks(text string) []string {
	a := newAssistant()
	blocks := a.appendText(text)
	if rest := a.rest(); strings.TrimSpace(rest) != "" {
		blocks = append(blocks, rest)
	}
	return blocks
}

// blockItem is one finished block of a reply, rendered as Markdown.
type blockItem struct{ md string }

func (b *blockItem) render(rc *renderCtx) []string { return rc.md.render(b.md, rc.width) }

// plainTail draws the open block of a streaming reply without Markdown
// rendering. Lines that are complete are wrapped once and kept; only the
// line being written is wrapped again on each delta.
type plainTail struct {
	start    int      // the block the cache is for
	valid    bool     // the cache matches start
	consumed int      // bytes of the block already in lines
	lines    []string // wrapped complete lines
	code     bool     // the block is a fenced code block
	blanks   int      // blank lines held back, so none trail the output
}

func (p *plainTail) render(s string, start, width int) []string {
	if !p.valid || p.start != start {
		*p = plainTail{start: start, valid: true}
	}
	block := s[start:]
	for {
		nl := strings.IndexByte(block[p.consumed:], '\n')
		if nl < 0 {
			break
		}
		line := block[p.consumed : p.consumed+nl]
		first := p.consumed == 0
		p.consumed += nl + 1
		p.addLine(line, first, width)
	}
	partial := sanitize(block[p.consumed:])
	if strings.TrimSpace(partial) == "" || looksLikeFence(partial) {
		// Fence lines are not shown, even while they are being written.
		return p.lines
	}
	out := p.lines[:len(p.lines):len(p.lines)]
	if p.blanks > 0 && len(out) > 0 {
		out = append(out, make([]string, p.blanks)...)
	}
	return p.wrap(out, partial, width)
}

func (p *plainTail) addLine(raw string, first bool, width int) {
	line := sanitize(strings.TrimRight(raw, "\r"))
	if first {
		if _, ok := opensFence(line); ok {
			// The fence line itself is not shown, as the rendered block does not show it.
			p.code = true
			return
		}
	}
	if strings.TrimSpace(line) == "" {
		p.blanks++
		return
	}
	if p.blanks > 0 && len(p.lines) > 0 {
		p.lines = append(p.lines, make([]string, p.blanks)...)
	}
	p.blanks = 0
	p.lines = p.wrap(p.lines, line, width)
}

func (p *plainTail) wrap(out []string, line string, width int) []string {
	if p.code {
		return appendWrapped(out, line, width, indent, theme.Base)
	}
	return appendWrapped(out, line, width, "", theme.Base)
}

// looksLikeFence reports whether an unfinished line may become a
// code fence.
func looksLikeFence(s string) bool {
	t := strings.TrimLeft(s, " ")
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}
