package approval

import (
	"fmt"
	"strings"

	"github.com/seed92b641c3/workbench/theme"
)

// pin is one thing the person is asked to approve (a command part, a path,
// a URL, the argument names), shown in the part of the dialog that never
// scrolls. A pin that does not fit there must be seen in the body before
// the approve keys work: a person approves what they have seen.
type pin struct {
	// key names the pin independently of the width, so what was seen
	// stays seen when the terminal is resized.
	key string
	// lines are the pin as the fixed part shows it.
	lines []string
	// full is the pin in full, for the list of everything (p).
	full []string
	// partial is set when lines do not show the whole pin (a command that
	// does not parse has no parts to show): it counts as seen only once
	// its place in the body has been on screen, and until then wait, a
	// line saying so, follows it.
	partial bool
	wait    string
}

// pinLines are the lines a pin takes in the fixed part now: its own and,
// while a partial pin is unseen, the line saying the approve keys wait.
func (d *Dialog) pinLines(it pin) []string {
	if it.partial && it.wait != "" && !d.seen[it.key] {
		return append(append([]string{}, it.lines...), it.wait)
	}
	return it.lines
}

// pinned is the fixed part of a review: lines before the pins (a count),
// the pins, lines after them (a size, the host), and how to say how many
// pins did not fit.
type pinned struct {
	head, tail []string
	items      []pin
	// more names the hidden pins after their number: "need approval".
	more string
	// all heads the list of every pin: "Every command that needs approval".
	all string
}

// itemLines is how many rows the pins take when all are shown.
func (d *Dialog) itemLines(p pinned) int {
	n := 0
	for _, it := range p.items {
		n += len(d.pinLines(it))
	}
	return n
}

// body is a review rendered at one width: its lines, and for each pin the
// lines that show it in full, which are what scrolling through means.
type body struct {
	lines   []string
	anchors map[string][]int
}

// anchor records that lines [from, to) of b show the pin key.
func (b *body) anchor(key string, from, to int) {
	if b.anchors == nil {
		b.anchors = map[string][]int{}
	}
	for i := from; i < to; i++ {
		b.anchors[key] = append(b.anchors[key], i)
	}
}

// shape is what, besides the width, a review's body depends on.
type shape struct {
	// repeat is set when some pin is not shown whole in the fixed part, so
	// the body must show every pin in full.
	repeat bool
	// expanded shows the blank runs and here-documents a command body
	// folds into markers.
	expanded bool
}

// fitPins chooses the pins shown in rows lines: all of them when they fit,
// otherwise as many as fit above one line saying how many more there are.
// A single pin taller than rows is shown in part. It returns the lines and,
// for each pin, whether it is shown whole.
func (d *Dialog) fitPins(p pinned, w, rows int) (lines []string, whole []bool) {
	whole = make([]bool, len(p.items))
	if d.itemLines(p) <= rows {
		for i, it := range p.items {
			lines = append(lines, d.pinLines(it)...)
			whole[i] = !it.partial
		}
		return lines, whole
	}
	shown := 0
	for i, it := range p.items {
		more := d.moreLines(p, len(p.items)-i-1, 0, w)
		if len(lines)+len(d.pinLines(it))+len(more) > rows {
			break
		}
		lines = append(lines, d.pinLines(it)...)
		whole[i] = !it.partial
		shown++
	}
	cut := 0
	if shown == 0 && len(p.items) > 0 {
		// Not even the first pin fits whole: show what fits of it.
		it := p.items[0]
		more := d.moreLines(p, len(p.items)-1, 1, w)
		keep := max(1, rows-len(more))
		lines = append(lines, it.lines[:min(keep, len(it.lines))]...)
		cut, shown = len(it.lines)-keep, 1
	}
	return append(lines, d.moreLines(p, len(p.items)-shown, cut, w)...), whole
}

// moreLines says how many pins (and lines of a pin cut short) are not in
// the fixed part, and while they have not been seen, that the approve keys
// wait for them.
func (d *Dialog) moreLines(p pinned, items, cutLines, w int) []string {
	var what []string
	if cutLines > 0 {
		what = append(what, fmt.Sprintf("%s more %s", thousands(cutLines), plural(cutLines, "line", "lines")))
	}
	if items > 0 {
		what = append(what, fmt.Sprintf("%d more %s", items, p.more))
	}
	if len(what) == 0 {
		return nil
	}
	text := "⋯ " + strings.Join(what, " and ")
	if d.unseen() > 0 {
		text += " · y/s/a wait: scroll or p"
	} else {
		text += " (seen)"
	}
	var out []string
	for _, l := range wrapText(text, w) {
		out = append(out, theme.Warn.Render(l))
	}
	return out
}

// unseen counts the pins not seen yet at the last View's width; before the
// first View every pin is unseen, since nothing was shown.
func (d *Dialog) unseen() int {
	if !d.drawn {
		return 1
	}
	n := 0
	for _, it := range d.pins.items {
		if !d.seen[it.key] {
			n++
		}
	}
	return n
}

// waiting reports whether the approve keys wait for pins not seen yet.
func (d *Dialog) waiting() bool { return !d.plan && d.unseen() > 0 }

// waitingFor reports whether choice id waits: every approve choice waits
// for the pins, and the session choices also for their rules when those
// were too many for the footer and have not been scrolled through.
func (d *Dialog) waitingFor(id choiceID) bool {
	switch id {
	case choiceNo:
		return false
	case choiceSession, choiceAlways:
		if d.scopeLong(d.drawnW) && !d.seen[scopeKey] {
			return true
		}
	}
	return d.waiting()
}

// markSeen records what a View put on the screen: the pins shown whole in
// the fixed part, and the body lines in the window. A pin is seen once
// every line the body shows it on has been on screen.
func (d *Dialog) markSeen(whole []bool, b body, from, to int) {
	if d.seen == nil {
		d.seen = map[string]bool{}
	}
	for i, ok := range whole {
		if ok {
			d.seen[d.pins.items[i].key] = true
		}
	}
	for key, lines := range b.anchors {
		if d.seen[key] || len(lines) == 0 {
			continue
		}
		progress := d.progress[key]
		if progress == nil {
			progress = map[int]bool{}
			d.progress[key] = progress
		}
		all := true
		for _, l := range lines {
			if l >= from && l < to {
				progress[l] = true
			}
			all = all && progress[l]
		}
		if all {
			d.seen[key] = true
		}
	}
}

// listBody is the body the p key shows instead of the review: in full,
// every pin the fixed part does not show whole (whole is nil when that is
// not known yet), under a heading, and the session rules when the footer
// cannot hold them.
func (d *Dialog) listBody(w int, whole []bool) body {
	p := d.pins
	var items []pin
	for i, it := range p.items {
		if whole == nil || i >= len(whole) || !whole[i] {
			items = append(items, it)
		}
	}
	heading := p.all
	if len(items) < len(p.items) {
		heading = fmt.Sprintf("%d more %s, after those above:", len(items), p.more)
	}
	b := body{lines: []string{theme.Bold.Render(truncate(heading, w))}}
	for _, it := range items {
		from := len(b.lines)
		b.lines = append(b.lines, it.full...)
		b.anchor(it.key, from, len(b.lines))
	}
	return d.withScope(b, w)
}

// scopeKey is the seen key of the session rules shown in the body.
const scopeKey = "session rules"

// scopeMaxLines is the most lines the session rules take in the footer;
// more go to the end of the body, so a command of forty parts leaves room
// for the parts.
const scopeMaxLines = 2

// scopeLong reports whether the session rules are too many for the footer
// at width w.
func (d *Dialog) scopeLong(w int) bool {
	if len(d.scope) == 0 || d.plan {
		return false
	}
	indent := len(scopeLabel)
	return len(wrapText(strings.Join(d.scope, ", "), max(1, w-indent))) > scopeMaxLines
}

// withScope appends the session rules to a body when the footer cannot
// hold them: exact and in full, as everything granted is.
func (d *Dialog) withScope(b body, w int) body {
	if !d.scopeLong(w) {
		return b
	}
	out := body{lines: append(append([]string{}, b.lines...), ""), anchors: map[string][]int{}}
	for k, v := range b.anchors {
		out.anchors[k] = v
	}
	out.lines = append(out.lines, theme.Bold.Render(truncate(fmt.Sprintf("s and a allow these %d rules:", len(d.scope)), w)))
	from := len(out.lines)
	for _, l := range wrapText(strings.Join(d.scope, ", "), w) {
		out.lines = append(out.lines, theme.Bold.Render(l))
	}
	out.anchor(scopeKey, from, len(out.lines))
	return out
}

// plural picks the singular or plural form for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
