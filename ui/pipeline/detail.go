package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/ui/format"
)

// maxInputLines bounds the pretty input in the detail view; a long input
// (a file being written) is clipped rather than pushing the trace away.
const maxInputLines = 40

// Detail renders the selected call's full trace: every stage event with its
// outcome, time, duration, rule and detail, then the input, the rewritten
// input, the capture and the head of the result. It fills exactly height
// lines of at most width cells; height 0 or less returns every line, for a
// root that scrolls the detail itself.
func (p *Panel) Detail(width, height int) string {
	var lines []string
	if p.sel == nil {
		lines = []string{theme.Dim.Render("No call selected.")}
	} else {
		lines = p.trace(p.sel, max(width, 1))
	}
	if height > 0 && len(lines) > height {
		more := len(lines) - height + 1
		lines = append(lines[:height-1], theme.Dim.Render("… "+format.Plural(more, "more line")))
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			lines[i] = ansi.Truncate(l, max(width, 0), "…")
		}
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// trace builds the detail lines of one call.
func (p *Panel) trace(c *call, width int) []string {
	var out []string
	add := func(s ...string) { out = append(out, s...) }
	label := func(s string) string { return theme.Dim.Render(fmt.Sprintf("%-9s", s)) }
	body := func(s string, indent int) {
		for _, l := range strings.Split(s, "\n") {
			l = strings.ReplaceAll(l, "\t", "  ")
			for _, w := range strings.Split(ansi.Wrap(clean(l), max(width-indent, 1), " /,"), "\n") {
				add(strings.Repeat(" ", indent) + w)
			}
		}
	}

	add(theme.ToolName.Render(clean(c.tool)) + "  " + theme.Dim.Render(clean(c.id)))
	add(label("status") + " " + p.statusText(c))
	if r := decidingRule(c); r != "" {
		add(label("rule") + " " + theme.Base.Render(clean(r)))
	}

	if len(c.events) > 0 {
		add("", theme.Title.Render("trace"))
		for _, ev := range c.events {
			line := eventLine(c, ev)
			if ev.Rule != "" {
				r := theme.Dim.Render("rule") + " " + clean(ev.Rule)
				if ansi.StringWidth(line)+1+ansi.StringWidth(r) <= width {
					line += " " + r
				} else {
					// Too narrow for both: the rule gets a line of its own
					// rather than being cut.
					add(line)
					line = "        " + r
				}
			}
			add(line)
			if ev.Detail != "" {
				body(ev.Detail, 8)
			}
		}
	}

	add("", theme.Title.Render("input"))
	if len(c.input) == 0 {
		add("  " + theme.Dim.Render("(not known: the call did not come from the model's stream)"))
	} else {
		out = append(out, pretty(c.input, width)...)
	}
	if len(c.rewritten) > 0 {
		title := "rewritten input"
		if who := whoRewrote(c); who != "" {
			title += " (by " + clean(who) + ")"
		}
		add("", theme.Title.Render(title))
		out = append(out, pretty(c.rewritten, width)...)
	}

	if ev, ok := captureOf(c); ok {
		add("", theme.Title.Render("capture"))
		add("  " + label("outcome") + " " + theme.Outcome(ev.Outcome).Render(ev.Outcome))
		if ev.Bytes > 0 {
			add("  " + label("bytes") + " " + format.Count(ev.Bytes) + " (" + fmtBytes(ev.Bytes) + ")")
		}
		if ev.SpillPath != "" {
			add("  " + label("spill") + " " + clean(ev.SpillPath))
		}
		if ev.SHA256 != "" {
			add("  " + label("sha256") + " " + clean(ev.SHA256))
		}
	}

	if r := c.result; r != nil {
		title := "result"
		if r.isError {
			title += " (error)"
		}
		add("", theme.Title.Render(title))
		body(output(r.text), 2)
		if len(r.text) < r.bytes {
			add("  " + theme.Dim.Render(fmt.Sprintf("… (%s in all)", fmtBytes(int64(r.bytes)))))
		}
	}
	return out
}

// statusText says where a call is and for how long.
func (p *Panel) statusText(c *call) string {
	switch c.status() {
	case statusQueued:
		return theme.Dim.Render("queued, no stage has run yet")
	case statusWaiting:
		return theme.Warn.Render("waiting for approval") + " " + fmtDur(p.now.Sub(c.start))
	case statusRunning:
		return theme.Outcome(agent.OutcomeStart).Render("running") + " " + fmtDur(p.now.Sub(c.start))
	}
	return theme.Outcome(c.final).Render(c.final) + " in " + fmtDur(c.total)
}

// eventLine is one stage event: when it ended after the call began, the
// stage, the outcome and how long it took.
func eventLine(c *call, ev agent.StageEvent) string {
	at := "+" + fmtDur(ev.Time.Sub(c.start))
	d := time.Duration(ev.DurationUS) * time.Microsecond
	line := theme.Dim.Render(fmt.Sprintf("%7s", at)) + " " +
		theme.Base.Render(fmt.Sprintf("%-10s", ev.Stage)) + " " +
		theme.Outcome(ev.Outcome).Render(fmt.Sprintf("%-9s", clean(ev.Outcome))) + " " +
		theme.Dim.Render(fmt.Sprintf("%6s", fmtDur(d)))
	return line
}

// decidingRule is the last rule a permission, re-check or hook event named:
// the one that let the call run or stopped it.
func decidingRule(c *call) string {
	rule := ""
	for _, ev := range c.events {
		switch ev.Stage {
		case agent.StagePermission, agent.StageRecheck, agent.StagePreHook:
			if ev.Rule != "" {
				rule = ev.Rule
			}
		}
	}
	return rule
}

func whoRewrote(c *call) string {
	who := ""
	for _, ev := range c.events {
		if w := rewriter(ev.Detail); ev.Stage == agent.StageRecheck && w != "" {
			who = w
		}
	}
	return who
}

func captureOf(c *call) (agent.StageEvent, bool) {
	for i := len(c.events) - 1; i >= 0; i-- {
		if c.events[i].Stage == agent.StageCapture {
			return c.events[i], true
		}
	}
	return agent.StageEvent{}, false
}

// pretty indents a JSON input and clips it to maxInputLines lines of the
// width, indented by two.
func pretty(in json.RawMessage, width int) []string {
	var buf bytes.Buffer
	if json.Indent(&buf, in, "", "  ") != nil {
		buf.Reset()
		buf.Write(in)
	}
	lines := strings.Split(buf.String(), "\n")
	clipped := len(lines) - maxInputLines
	if clipped > 0 {
		lines = lines[:maxInputLines]
	}
	out := make([]string, 0, len(lines)+1)
	for _, l := range lines {
		out = append(out, "  "+ansi.Truncate(clean(l), max(width-2, 1), "…"))
	}
	if clipped > 0 {
		out = append(out, "  "+theme.Dim.Render("… "+format.Plural(clipped, "more line")))
	}
	return out
}
