package conversation

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	xansi "github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/ui/format"
	"github.com/seed92b641c3/workbench/ui/summary"
)

// deniedText is what a call the person denied shows under it, in their
// words; the model's result says it in the model's ("The person declined
// this tool call ...").
func deniedText(d agent.PersonDenial) string {
	switch {
	case d.StoppedTurn:
		return "You denied it and stopped the turn; the agent waits for what you say next."
	case d.Feedback != "":
		return "You denied it and told the agent: " + d.Feedback
	}
	return "You denied it; the agent goes on."
}

// collapsedLines is how many output lines a tool call shows until it is
// expanded: enough to see whether it worked, few enough that a long build
// log does not push the conversation off the screen.
const collapsedLines = 4

// toolState is where a tool call is, as far as the conversation knows.
type toolState int

const (
	toolRunning toolState = iota // queued or running
	toolAsking                   // waiting for the person's approval
	toolOK                       // finished
	toolFailed                   // finished with an error result
)

// toolItem is one tool call: a header line and, once it finished, its
// output under it.
type toolItem struct {
	id, name string
	input    json.RawMessage
	r        toolRenderer
	state    toolState
	res      tools.Result
	dur      time.Duration
	expanded bool
	output   []string  // sanitized output lines, computed once per result
	diff     *editDiff // the change a file edit made, drawn instead of output
	// children are calls made on this call's behalf (a subagent's), drawn
	// as one line each under the header.
	children []*toolItem
}

// collapsedChildren is how many child calls a collapsed entry lists: the
// latest ones, which say what the subagent is doing now.
const collapsedChildren = 5

func (t *toolItem) toggle() { t.expanded = !t.expanded }

func (t *toolItem) setResult(res tools.Result, dur time.Duration) {
	t.res, t.dur = res, dur
	t.state = toolOK
	if res.IsError {
		t.state = toolFailed
	}
	t.diff = nil
	if ds, ok := t.r.(diffSource); ok {
		t.diff = ds.Diff(t.input, res)
	}
	text := strings.TrimRight(sanitize(t.r.Body(t.input, res)), "\n ")
	if d, ok := agent.DeniedByPerson(res); ok {
		text = deniedText(d)
	}
	t.output = nil
	if strings.TrimSpace(text) != "" {
		t.output = strings.Split(text, "\n")
	}
}

// hiddenLines is how many output lines the collapsed view leaves out.
func (t *toolItem) hiddenLines() int {
	if t.expanded {
		return 0
	}
	return max(len(t.output)-collapsedLines, 0)
}

func (t *toolItem) render(rc *renderCtx) []string {
	lines := []string{t.header(rc)}
	lines = t.renderChildren(lines, rc)
	if t.state != toolOK && t.state != toolFailed {
		return lines
	}
	gutter := theme.Dim.Render(indent + "│ ")
	avail := max(rc.width-len(indent)-2, 1)
	style := theme.Base
	if t.state == toolFailed {
		style = theme.Err
	}
	switch {
	case t.diff != nil:
		lines = t.renderDiff(lines, rc, gutter, avail)
	case len(t.output) == 0 && t.res.Spill == nil:
		lines = append(lines, gutter+theme.Dim.Render("(no output)"))
	case t.expanded:
		for _, l := range t.output {
			lines = appendWrapped(lines, l, rc.width, gutter, style)
		}
	default:
		for _, l := range t.output[:min(len(t.output), collapsedLines)] {
			lines = append(lines, gutter+style.Render(clip(l, avail)))
		}
		if n := t.hiddenLines(); n > 0 {
			lines = append(lines, gutter+theme.Dim.Render(clip(moreHint(n, rc), avail)))
		}
	}
	if sp := t.res.Spill; sp != nil {
		msg := fmt.Sprintf("full output: %s, %s", format.Bytes(sp.Bytes), plural(int(sp.Lines), "line"))
		if rc.hints.Open != "" {
			msg += fmt.Sprintf(" (%s to open)", rc.hints.Open)
		}
		lines = append(lines, gutter+theme.Warn.Render(clip(msg, avail)))
		// The path gets its own lines and is wrapped, never clipped: the
		// person may need all of it.
		for _, part := range strings.Split(xansi.Hardwrap(sanitizeName(sp.Path), avail, true), "\n") {
			lines = append(lines, gutter+theme.Dim.Render(part))
		}
	}
	return lines
}

// renderDiff draws a file edit's change under its header: how many lines
// went and came, then the diff, a few rows of it until the call is
// expanded.
func (t *toolItem) renderDiff(lines []string, rc *renderCtx, gutter string, avail int) []string {
	lines = append(lines, gutter+clip(t.diff.summary(), avail))
	rows, shown := t.diff.rows, t.diff.lines()
	if !t.expanded {
		rows, shown = t.diff.collapsed()
	}
	for _, l := range t.diff.draw(rows, avail, t.expanded) {
		lines = append(lines, gutter+l)
	}
	if n := t.diff.lines() - shown; n > 0 {
		lines = append(lines, gutter+theme.Dim.Render(clip(moreHint(n, rc), avail)))
	}
	return lines
}

// moreHint says how many lines the collapsed view leaves out and which key
// shows them.
func moreHint(n int, rc *renderCtx) string {
	hint := "… +" + plural(n, "more line")
	if rc.hints.Expand != "" {
		hint += fmt.Sprintf(" (%s to expand)", rc.hints.Expand)
	}
	return hint
}

// renderChildren lists the child calls under the header, one line each:
// the latest few when collapsed, all of them when expanded.
func (t *toolItem) renderChildren(lines []string, rc *renderCtx) []string {
	shown := t.children
	if !t.expanded && len(shown) > collapsedChildren {
		hidden := len(shown) - collapsedChildren
		shown = shown[hidden:]
		hint := "⎿ … " + plural(hidden, "earlier call")
		if rc.hints.Expand != "" {
			hint += fmt.Sprintf(" (%s to expand)", rc.hints.Expand)
		}
		lines = append(lines, theme.Dim.Render(clip(indent+hint, rc.width)))
	}
	inner := *rc
	inner.width, inner.selected = max(rc.width-len(indent)-2, 1), false
	for _, c := range shown {
		lines = append(lines, theme.Dim.Render(indent+"⎿ ")+c.header(&inner))
	}
	return lines
}

// header is the call's one line: status, tool, a short form of its input,
// and how long it took.
func (t *toolItem) header(rc *renderCtx) string {
	sym, symStyle := theme.SymbolRunning, theme.ToolName
	switch t.state {
	case toolAsking:
		sym, symStyle = theme.SymbolAsk, theme.Warn
	case toolOK:
		sym, symStyle = theme.SymbolOK, theme.OK
	case toolFailed:
		sym, symStyle = theme.SymbolError, theme.Err
	}
	dur := ""
	if t.dur > 0 && (t.state == toolOK || t.state == toolFailed) {
		dur = " " + format.Duration(t.dur)
	}
	sum := oneLine(sanitizeName(summary.Of(t.name, t.input)))
	title := oneLine(sanitizeName(summary.Name(t.name)))
	// Room for the summary: the symbol and its space, the name, the
	// parentheses and the duration.
	room := rc.width - 2 - xansi.StringWidth(title) - 2 - len(dur)
	call := title
	if room > 0 {
		call += "(" + clip(sum, room) + ")"
	}
	name, args := theme.ToolName, theme.Base
	if rc.selected {
		name, args = theme.Selected.Bold(true), theme.Selected
	}
	out := symStyle.Render(sym) + " " + name.Render(clip(title, rc.width-2))
	if len(call) > len(title) {
		out += args.Render(call[len(title):])
	}
	if dur != "" {
		out += theme.Dim.Render(dur)
	}
	return clip(out, rc.width)
}
