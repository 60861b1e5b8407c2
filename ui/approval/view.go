package approval

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/theme"
)

const (
	// dialogFrame is the columns the border and padding take.
	dialogFrame = 4
	// dialogBorderRows is the rows the top and bottom border take.
	dialogBorderRows = 2
	// dialogMaxWidth caps the dialog on very wide terminals, where lines
	// longer than this are hard to follow.
	dialogMaxWidth = 180
	// dialogMinInner is the narrowest content width laid out; a terminal
	// narrower than this gets a clipped dialog rather than a broken one.
	dialogMinInner = 16
	// messageMaxLines bounds the decision's explanation, so the body keeps
	// most of a small screen.
	messageMaxLines = 3
	// minBodyRows is the body height below which the decision's message,
	// the note on where Always writes and the spacing are given up, in that
	// order, to make room.
	minBodyRows = 6
	// editorMinRows is the smallest editor, so a one-line command still
	// looks like a place to type.
	editorMinRows = 3
)

// innerWidth is the content width of a dialog drawn in width columns.
func innerWidth(width int) int {
	return max(dialogMinInner, min(width, dialogMaxWidth)-dialogFrame)
}

// View draws the dialog to fit in width × height cells: a rounded border in
// the warning colour, then the part that never scrolls (the title, why it
// asks, a warning about invisible characters, the pins: what is asked
// about), the input under review (scrolling when it does not fit), the
// choices with their keys, and a help line. View records what it put on
// the screen: the body height, for paging, and the pins seen, which the
// approve keys wait for.
func (d *Dialog) View(width, height int) string {
	before := d.waitState()
	view := d.layout(width, height)
	if d.waitState() != before {
		// What this frame showed changed what the dialog says about
		// waiting (a first frame that shows everything): lay it out again,
		// so the screen never says the keys wait when they do not.
		view = d.layout(width, height)
	}
	return view
}

// waitState is what the dialog's text about waiting depends on.
func (d *Dialog) waitState() [3]int {
	state := [3]int{d.unseen(), 0, 0}
	if d.waitingFor(choiceSession) {
		state[1] = 1
	}
	for _, it := range d.pins.items {
		if it.partial && d.seen[it.key] {
			state[2]++
		}
	}
	return state
}

// layout draws the dialog once and records what it showed.
func (d *Dialog) layout(width, height int) string {
	w := innerWidth(width)
	rows := max(1, height-dialogBorderRows)
	d.pins, d.drawnW = d.body.pins(w), w
	pins := d.pins
	if d.mode == editing {
		pins = pinned{}
	}
	head := d.header(w)
	head = append(head, d.warnLines(w)...)
	head = append(head, d.unknownLines(w)...)
	reason, msg := d.whyLines(w)
	compact := false
	foot := d.footerLines(w, compact)
	gaps := 2 // blank lines around the body
	fixed := func() int {
		return len(head) + len(reason) + len(msg) + len(pins.head) + len(pins.tail) + len(foot) + gaps
	}
	items := d.itemLines(pins)
	bodyNeed := min(minBodyRows, len(d.bodyFor(w, false, nil).lines))
	for rows-fixed()-items < bodyNeed && len(msg) > 0 {
		msg = msg[:len(msg)-1]
	}
	if rows-fixed()-items < bodyNeed {
		compact = true
		foot = d.footerLines(w, compact)
	}
	if rows-fixed()-items < bodyNeed {
		gaps = 0
	}
	// What is left is shared by the pins and the body; the pins come first,
	// and when they do not all fit they take half, so the body keeps room
	// to scroll the rest through in.
	space := max(1, rows-fixed())
	pinRows := items
	if items > space-minPinnedBody {
		pinRows = max(minPinRows, space-max(space/2, min(minPinnedBody, len(d.bodyFor(w, true, nil).lines))))
	}
	pinLines, whole := d.fitPins(pins, w, pinRows)
	repeat := false
	for i, ok := range whole {
		repeat = repeat || !ok || pins.items[i].partial
	}
	d.cut = repeat
	b := d.bodyFor(w, repeat, whole)
	bodyRows := max(1, space-len(pinLines))

	var mid []string
	from, to := 0, 0
	if d.mode == editing {
		mid = d.editorLines(w, bodyRows)
	} else {
		mid, from, to = d.bodyWindow(b, w, bodyRows)
		// The help line offers scrolling only when the body overflows,
		// which is known now; the footer keeps its height.
		foot = d.footerLines(w, compact)
	}
	if len(mid) == 0 {
		gaps = 0
	}
	lines := append([]string{}, head...)
	lines = append(lines, reason...)
	lines = append(lines, msg...)
	lines = append(lines, pins.head...)
	pinAt := len(lines)
	lines = append(lines, pinLines...)
	lines = append(lines, pins.tail...)
	if gaps > 0 {
		lines = append(lines, "")
	}
	bodyAt := len(lines)
	lines = append(lines, mid...)
	if gaps > 0 {
		lines = append(lines, "")
	}
	lines = append(lines, foot...)

	// Only what survives the frame was seen: on a screen too small for
	// the layout, frame drops lines above the last one.
	kept := len(lines)
	if kept > rows {
		kept = max(0, rows-1)
	}
	if pinAt+len(pinLines) > kept {
		whole = make([]bool, len(whole))
	}
	if d.mode != editing {
		to = min(to, from+max(0, kept-bodyAt))
		d.markSeen(whole, b, from, to)
	}
	d.drawn = true
	return frame(lines, w, rows)
}

const (
	// minPinnedBody is the body height below which the pins no longer all
	// fit, so the ones left out can be scrolled through.
	minPinnedBody = 3
	// minPinRows is the least the pins get when they do not fit: one pin
	// and the line saying how many more there are.
	minPinRows = 2
)

// bodyID names one rendering of the body; progress through a pin's lines
// counts for that rendering only.
type bodyID struct {
	width   int
	sh      shape
	listing bool
	lines   int
}

// bodyFor is the body at width: the review, or, when listing, the pins
// not shown whole above (whole says which are).
func (d *Dialog) bodyFor(w int, repeat bool, whole []bool) body {
	if d.listing && d.mode != editing {
		return d.listBody(w, whole)
	}
	return d.withScope(d.body.render(w, shape{repeat: repeat, expanded: d.expanded}), w)
}

// footerLines is the part under the body; compact leaves out the note on
// where Always writes, for short screens.
func (d *Dialog) footerLines(w int, compact bool) []string {
	if d.mode == editing {
		return d.editFooter(w)
	}
	return d.footer(w, compact)
}

// frame pads every line to w, keeps at most rows of them (the last ones,
// which hold the choices, win over the top), and draws the border.
func frame(lines []string, w, rows int) string {
	if len(lines) > rows {
		lines = append(lines[:max(0, rows-1)], lines[len(lines)-1])[:rows]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			l = ansi.Truncate(l, w, "…")
		}
		lines[i] = pad(l, w)
	}
	return theme.Dialog.Render(strings.Join(lines, "\n"))
}

// header is the title line, with the queue position at the right.
func (d *Dialog) header(w int) []string {
	titleW := w
	if d.total > 1 {
		titleW -= len(fmt.Sprintf(" %d of %d", d.place, d.total))
	}
	lines := []string{titleLine(d.title(max(1, titleW)), d.place, d.total, w)}
	if d.req.Agent != "" {
		lines = append(lines, theme.Warn.Render(truncate(visible("Asked by the subagent "+d.req.Agent), w)))
	}
	return lines
}

func titleLine(title string, place, total, w int) string {
	pos := ""
	if total > 1 {
		pos = fmt.Sprintf("%d of %d", place, total)
	}
	t := truncate(visible(title), max(1, w-ansi.StringWidth(pos)-1))
	gap := max(1, w-ansi.StringWidth(t)-ansi.StringWidth(pos))
	if pos == "" {
		return theme.Title.Render(t)
	}
	return theme.Title.Render(t) + strings.Repeat(" ", gap) + theme.Dim.Render(pos)
}

// warnLines say that the input holds characters that would hide or
// reorder text, which the body shows as marked escapes.
func (d *Dialog) warnLines(w int) []string {
	if len(d.hidden) == 0 {
		return nil
	}
	var out []string
	for _, l := range wrapText(hiddenWarning(d.hidden), w) {
		out = append(out, theme.Err.Render(l))
	}
	return out
}

// unknownLines say what the tool itself could not see of the call with
// certainty (a shell line edited with keys that cannot be replayed): the
// person approves that too, so it stays in the fixed part.
func (d *Dialog) unknownLines(w int) []string {
	if d.req.Target.Unknown == "" {
		return nil
	}
	var out []string
	for _, l := range wrapText("⚠ Not known for certain: "+d.req.Target.Unknown, w) {
		out = append(out, theme.Err.Render(l))
	}
	return out
}

// whyLines say what asked and, when it adds something, the decision's own
// sentence; the second may be cut on a short screen, the first never is.
func (d *Dialog) whyLines(w int) (reason, message []string) {
	for i, l := range wrapText("Why: "+d.reason, w) {
		if i == 0 {
			l = theme.Warn.Render("Why: ") + theme.Base.Render(strings.TrimPrefix(l, "Why: "))
		} else {
			l = theme.Base.Render(l)
		}
		reason = append(reason, l)
	}
	if d.message == "" {
		return reason, nil
	}
	msg := wrapText(d.message, w)
	if len(msg) > messageMaxLines {
		msg = msg[:messageMaxLines]
		msg[messageMaxLines-1] = truncate(msg[messageMaxLines-1]+" …", w)
	}
	for _, l := range msg {
		message = append(message, theme.Dim.Render(l))
	}
	return reason, message
}

// bodyWindow is the visible part of the body, with a line saying where the
// window is when the body does not fit, and the range of body lines shown.
// Showing a different body restarts the progress through unseen pins,
// since their lines have moved; pins already seen stay seen.
func (d *Dialog) bodyWindow(b body, w, rows int) (out []string, from, to int) {
	id := bodyID{width: w, sh: d.body.shape, listing: d.listing, lines: len(b.lines)}
	if id != d.progressOf || d.progress == nil {
		d.progressOf, d.progress = id, map[string]map[int]bool{}
	}
	d.bodyLen = len(b.lines)
	if len(b.lines) <= rows {
		d.bodyRows, d.scroll = len(b.lines), 0
		return b.lines, 0, len(b.lines)
	}
	d.bodyRows = max(1, rows-1)
	d.scroll = max(0, min(d.scroll, len(b.lines)-d.bodyRows))
	end := d.scroll + d.bodyRows
	out = append([]string{}, b.lines[d.scroll:end]...)
	pos := fmt.Sprintf("lines %s–%s of %s · ↑/↓ pgup/pgdn scroll", thousands(d.scroll+1), thousands(end), thousands(len(b.lines)))
	return append(out, theme.Dim.Render(truncate(pos, w))), d.scroll, end
}

// footer holds the choices, the scope of the session choices, the feedback
// line when it is open, and the help line.
func (d *Dialog) footer(w int, compact bool) []string {
	out := buttons(d.choices, d.selected, w, d.waitingFor)
	switch {
	case d.plan:
	case d.scopeLong(w):
		text := fmt.Sprintf("%d rules, at the end of the input", len(d.scope))
		if d.waitingFor(choiceSession) {
			text += "; s/a wait"
		}
		indent := ansi.StringWidth(scopeLabel)
		for i, l := range wrapText(text, max(1, w-indent)) {
			head := strings.Repeat(" ", indent)
			if i == 0 {
				head = theme.Dim.Render(scopeLabel)
			}
			out = append(out, head+theme.Bold.Render(l))
		}
	case len(d.scope) > 0:
		out = append(out, scopeLines(d.scope, d.always, w, compact)...)
	case d.noScope != "":
		for _, l := range wrapText(d.noScope, w) {
			out = append(out, theme.Dim.Render(l))
		}
	}
	if d.mode == feedback {
		label := "Tell the agent why, or what to do instead:"
		if d.plan {
			label = "What should change in the plan?"
		}
		d.feedback.SetWidth(max(1, w-3))
		out = append(out, theme.Bold.Render(truncate(label, w)), d.feedback.View())
		return append(out, helpLine(w, d.fkeys.Send, d.fkeys.Back))
	}
	return append(out, helpLine(w, d.choiceHelp()...))
}

// choiceHelp lists the keys worth a hint while choosing; the choice keys
// are on the buttons already.
func (d *Dialog) choiceHelp() []key.Binding {
	k := d.keys
	var bs []key.Binding
	switch {
	case d.listing:
		bs = append(bs, key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "back to the input")))
	case d.cut || d.scopeLong(d.drawnW):
		bs = append(bs, k.List)
	}
	// Scrolling comes early: while the approve keys wait, it is how to
	// reach what they wait for.
	if d.bodyLen > d.bodyRows {
		bs = append(bs, k.Up)
	}
	if d.body.foldable() {
		ex := k.Expand
		if d.expanded {
			ex = key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "fold"))
		}
		bs = append(bs, ex)
	}
	if d.editable {
		bs = append(bs, k.Edit)
	}
	return append(bs, k.Deny, k.Next, k.Confirm)
}

// scopeLabel introduces the rules of the session choices.
const scopeLabel = "s/a allow: "

// scopeLines show the rules "Yes for this session" and "Always" would add,
// exactly and in full (wrapped, never cut), and, unless compact, where
// Always writes them.
func scopeLines(scope []string, always string, w int, compact bool) []string {
	indent := ansi.StringWidth(scopeLabel)
	var out []string
	for i, l := range wrapText(strings.Join(scope, ", "), max(1, w-indent)) {
		head := strings.Repeat(" ", indent)
		if i == 0 {
			head = theme.Dim.Render(scopeLabel)
		}
		out = append(out, head+theme.Bold.Render(l))
	}
	if compact {
		return out
	}
	for _, l := range wrapPath("(a also saves it in "+always+")", max(1, w-indent)) {
		out = append(out, strings.Repeat(" ", indent)+theme.Dim.Render(l))
	}
	return out
}

// buttons lays the choices out in rows that fit w, each with its key; the
// selected one is marked with › as well as colour. While waiting, the
// approve choices are dimmed: their keys do nothing yet.
func buttons(cs []choice, selected, w int, waiting func(choiceID) bool) []string {
	var rows []string
	line, lineW := "", 0
	for i, c := range cs {
		plain := c.key + " " + c.label
		b := "  " + theme.KeyHint.Render(c.key) + " " + theme.Base.Render(c.label)
		if i == selected {
			b = theme.KeyHint.Render("› ") + theme.Selected.Render(plain)
		}
		if waiting(c.id) {
			b = "  " + theme.Dim.Render(plain)
			if i == selected {
				b = theme.Dim.Render("› " + plain)
			}
		}
		bw := 2 + ansi.StringWidth(plain)
		if lineW > 0 && lineW+1+bw > w {
			rows = append(rows, line)
			line, lineW = "", 0
		}
		if lineW > 0 {
			line += " "
			lineW++
		}
		line += b
		lineW += bw
	}
	return append(rows, line)
}

// helpLine renders key hints on one line, cut with an ellipsis if they do
// not fit.
func helpLine(w int, bs ...key.Binding) string {
	h := help.New()
	h.ShortSeparator = " · "
	h.Styles.ShortKey = theme.KeyHint
	h.Styles.ShortDesc = theme.Dim
	h.Styles.ShortSeparator = theme.Dim
	h.Styles.Ellipsis = theme.Dim
	h.SetWidth(w)
	return h.ShortHelpView(bs)
}

// editFooter is the help of the editor and the reason the last save was
// refused.
func (d *Dialog) editFooter(w int) []string {
	var out []string
	for _, l := range wrapText(d.editErr, w) {
		if d.editErr != "" {
			out = append(out, theme.Err.Render(l))
		}
	}
	return append(out, helpLine(w, d.ekeys.Save, d.ekeys.Back))
}

// editorLines is the editor in place of the body, under a line saying what
// is being edited and that the result is checked again.
func (d *Dialog) editorLines(w, rows int) []string {
	what := "Edit the input (JSON). It is checked against the rules again before it runs."
	if d.editCommand {
		what = "Edit the command. It is checked against the rules again before it runs."
	}
	out := []string{}
	for _, l := range wrapText(what, w) {
		out = append(out, theme.Dim.Render(l))
	}
	d.editor.SetWidth(w)
	d.editor.SetHeight(max(1, min(rows-len(out), max(editorMinRows, d.editor.LineCount()+1))))
	return append(out, strings.Split(d.editor.View(), "\n")...)
}
