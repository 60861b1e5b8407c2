// Package conversation is the conversation view of the TUI: the person's
// messages, the model's replies rendered as Markdown, tool calls as one
// line each with their output collapsed under them, thinking, notices and
// errors.
//
// It has no event loop of its own. The root model calls its methods (add an
// item, scroll, select) and asks it for View; nothing here returns a
// tea.Cmd or does IO, so the whole component can be tested as plain
// function calls.
//
// It is built to stay fast however long a session runs. Every item caches
// its rendered lines for the current width and renders again only when its
// data changes; the scroll position is an item and a line within it, not an
// absolute line number, so View, scrolling and a resize only ever render
// the items on screen, and the cost of a frame does not grow with history.
// Replies stream without re-rendering what is already finished.
package conversation

import (
	"strings"
	"time"
)

// KeyHints names the keys the view mentions in its hints. The root model
// owns the key bindings, so it tells the view what to print; an empty name
// leaves the hint out.
type KeyHints struct {
	// Expand toggles the selected item's output (ToggleExpand).
	Expand string
	// Open opens the selected call's spill file (see Selected).
	Open string
}

// DefaultKeyHints are the hints used until SetKeyHints is called.
var DefaultKeyHints = KeyHints{Expand: "ctrl+o", Open: "enter"}

// pos is a place in the conversation: a line of one item, counting the
// blank line that separates it from the item before.
type pos struct{ idx, line int }

// View is the conversation component. The zero value is not ready; use New.
type View struct {
	width, height int
	entries       []entry
	md            *markdownRenderer
	hints         KeyHints

	// top is the first line on screen when follow is false. When follow
	// is true the view is pinned to the bottom and top is not used.
	top    pos
	follow bool

	sel        int   // the selected entry, or -1
	selectable []int // entries that can be selected, in order

	toolIdx map[string]int // tool call id -> entry
	// children are the calls made on behalf of a call, such as a
	// subagent's: ids with the parent's id and a "/" in front. They are
	// drawn inside the parent's entry, not as entries of their own.
	children  map[string]childRef
	stream    int // the reply being streamed, or -1
	think     int // the thinking being streamed, or -1
	durations map[string]time.Duration
	streamed  bool // a reply was streamed since the last finished message
	// turnStart is the number of entries when the model's turn began: a
	// discarded reply (DiscardReply) is never older than that.
	turnStart int
}

// New returns an empty conversation, pinned to the bottom.
func New() *View {
	v := &View{md: newMarkdown(), hints: DefaultKeyHints}
	v.reset()
	return v
}

func (v *View) reset() {
	v.entries = nil
	v.top, v.follow = pos{}, true
	v.sel, v.selectable = -1, nil
	v.toolIdx = map[string]int{}
	v.children = map[string]childRef{}
	v.durations = map[string]time.Duration{}
	v.stream, v.think, v.streamed = -1, -1, false
	v.turnStart = 0
}

// Clear empties the conversation, as /clear does.
func (v *View) Clear() { v.reset() }

// Len is the number of entries the view holds; a reply counts once per
// block (paragraph, list, code fence). It is for tests and diagnostics.
func (v *View) Len() int { return len(v.entries) }

// SetSize sets the area the view draws into. Items re-render for a new
// width only when they come on screen; the position of the first visible
// item is kept, so a resize does not jump through history.
func (v *View) SetSize(width, height int) {
	v.width, v.height = max(width, 0), max(height, 0)
}

// SetKeyHints sets the key names printed in hints and re-renders what
// mentions them.
func (v *View) SetKeyHints(h KeyHints) {
	if h == v.hints {
		return
	}
	v.hints = h
	// Only tool calls and thinking print hints.
	for _, i := range v.selectable {
		v.entries[i].invalidate()
	}
}

// View draws the visible part of the conversation: exactly height lines,
// none wider than width. Only the items on screen are rendered (and only if
// their cache is stale).
func (v *View) View() string {
	if v.width <= 0 || v.height <= 0 {
		return ""
	}
	out := make([]string, 0, v.height)
	if v.follow {
		out = v.draw(out, v.bottomTop())
	} else {
		out = v.draw(out, v.top)
		if len(out) < v.height && v.top != (pos{}) {
			// Items above shrank or the view grew: show the end instead
			// of blank lines under it.
			out = v.draw(out[:0], v.bottomTop())
		}
	}
	for len(out) < v.height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}

// draw appends the lines from p down until the screen is full.
func (v *View) draw(out []string, p pos) []string {
	for i, j := p.idx, p.line; i < len(v.entries) && len(out) < v.height; i, j = i+1, 0 {
		lines := v.lines(i)
		gap := v.gap(i, lines)
		for ; j < len(lines)+gap && len(out) < v.height; j++ {
			if j < gap {
				out = append(out, "")
			} else {
				out = append(out, lines[j-gap])
			}
		}
	}
	return out
}

// lines returns an entry's lines for the current width, rendering it if
// its cache is stale.
func (v *View) lines(i int) []string {
	e := &v.entries[i]
	if e.width != v.width {
		rc := renderCtx{width: v.width, md: v.md, hints: v.hints, selected: i == v.sel}
		e.lines = e.item.render(&rc)
		e.width = v.width
	}
	return e.lines
}

// gap is the blank line before an item, which separates it from the one
// above. An item with nothing to show has none.
func (v *View) gap(i int, lines []string) int {
	if i == 0 || len(lines) == 0 {
		return 0
	}
	return 1
}

// itemHeight is how many lines an item takes, its gap included.
func (v *View) itemHeight(i int) int {
	lines := v.lines(i)
	return len(lines) + v.gap(i, lines)
}

// bottomTop is the top of the screen when the last line of the
// conversation is at its bottom. It walks back only over the items that
// fit on screen.
func (v *View) bottomTop() pos {
	acc := 0
	for i := len(v.entries) - 1; i >= 0; i-- {
		acc += v.itemHeight(i)
		if acc >= v.height {
			return pos{i, acc - v.height}
		}
	}
	return pos{}
}

// currentTop is the first line on screen, whether or not the view is
// pinned.
func (v *View) currentTop() pos {
	if v.follow {
		return v.bottomTop()
	}
	return v.top
}

// reachesEnd reports whether the conversation from p fits on one screen,
// that is whether a view starting at p shows the last line.
func (v *View) reachesEnd(p pos) bool {
	n := -p.line
	for i := p.idx; i < len(v.entries); i++ {
		n += v.itemHeight(i)
		if n > v.height {
			return false
		}
	}
	return true
}

// AtBottom reports whether the last line of the conversation is on screen.
// While it is, new content keeps it there.
func (v *View) AtBottom() bool {
	return v.follow || v.reachesEnd(v.top)
}

// ScrollBy moves the view by n lines, up when n is negative. Scrolling up
// unpins the view from the bottom, so a person reading history is not
// pulled away by a streaming reply; scrolling back to the end pins it
// again.
func (v *View) ScrollBy(n int) {
	if n == 0 || v.width <= 0 || v.height <= 0 || len(v.entries) == 0 {
		return
	}
	if n > 0 && v.follow {
		return
	}
	p := v.currentTop()
	if n < 0 {
		p = v.moveUp(p, -n)
	} else {
		p = v.moveDown(p, n)
	}
	v.top = p
	v.follow = v.reachesEnd(p)
}

func (v *View) moveUp(p pos, n int) pos {
	for n > 0 {
		if p.line >= n {
			p.line -= n
			break
		}
		n -= p.line
		if p.idx == 0 {
			p.line = 0
			break
		}
		p.idx--
		p.line = v.itemHeight(p.idx)
	}
	if p.idx < len(v.entries) && p.line >= v.itemHeight(p.idx) {
		p = pos{p.idx + 1, 0}
	}
	return p
}

func (v *View) moveDown(p pos, n int) pos {
	p.line += n
	for p.idx < len(v.entries)-1 {
		h := v.itemHeight(p.idx)
		if p.line < h {
			break
		}
		p.line -= h
		p.idx++
		if v.reachesEnd(p) {
			// No need to walk further: the view is at the end.
			break
		}
	}
	return p
}

// PageUp scrolls up by a screen, keeping one line of the old screen for
// context.
func (v *View) PageUp() { v.ScrollBy(-max(v.height-1, 1)) }

// PageDown scrolls down by a screen, keeping one line of the old screen.
func (v *View) PageDown() { v.ScrollBy(max(v.height-1, 1)) }

// ScrollToTop shows the start of the conversation.
func (v *View) ScrollToTop() {
	v.top = pos{}
	v.follow = v.reachesEnd(v.top)
}

// ScrollToBottom shows the end of the conversation and pins the view there.
func (v *View) ScrollToBottom() { v.follow = true }

// visibleRange returns the first and last entries with a line on screen.
func (v *View) visibleRange() (first, last int) {
	p := v.currentTop()
	first, last = p.idx, p.idx
	n := -p.line
	for i := p.idx; i < len(v.entries) && n < v.height; i++ {
		last = i
		n += v.itemHeight(i)
	}
	return first, last
}

// ensureVisible scrolls as little as possible to show entry i whole, or
// its start when it is taller than the screen.
func (v *View) ensureVisible(i int) {
	if v.height <= 0 || v.width <= 0 {
		return
	}
	p := v.currentTop()
	h := v.itemHeight(i)
	gap := h - len(v.lines(i))
	if i < p.idx || (i == p.idx && p.line > gap) {
		v.top = pos{i, gap}
		v.follow = v.reachesEnd(v.top)
		return
	}
	// Where entry i starts, relative to the top of the screen.
	start := -p.line
	for k := p.idx; k < i && start < v.height; k++ {
		start += v.itemHeight(k)
	}
	if start+h <= v.height {
		return
	}
	if h-gap >= v.height {
		v.top = pos{i, gap}
		v.follow = v.reachesEnd(v.top)
		return
	}
	// Put the end of entry i at the bottom of the screen.
	acc, k := h, i
	for acc < v.height && k > 0 {
		k--
		acc += v.itemHeight(k)
	}
	v.top = pos{k, max(acc-v.height, 0)}
	v.follow = v.reachesEnd(v.top)
}
