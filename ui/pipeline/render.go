package pipeline

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/spinner"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/ui/format"
	"github.com/seed92b641c3/workbench/ui/summary"
)

// spinnerFrames are the frames of a running call's header symbol; the
// frame shown depends only on how long the call has run, so a view at a
// given time is always the same text.
var spinnerFrames = spinner.MiniDot.Frames

// runningStyle is the colour the theme gives running things.
var runningStyle = lipgloss.NewStyle().Foreground(theme.Info)

// selectedStyle marks the selected call's header. Bold keeps the mark
// visible where colours are stripped (NO_COLOR, a dumb terminal).
var selectedStyle = theme.Selected.Bold(true)

// piece is a styled fragment and its width in cells, so lines can be laid
// out without measuring styled text again.
type piece struct {
	s string
	w int
}

func text(st lipgloss.Style, s string) piece {
	return piece{st.Render(s), ansi.StringWidth(s)}
}

func (a *piece) add(b piece) {
	a.s += b.s
	a.w += b.w
}

// then returns a followed by b.
func (a piece) then(b piece) piece {
	return piece{a.s + b.s, a.w + b.w}
}

func (a *piece) space() {
	a.s += " "
	a.w++
}

// lines returns the rendered lines of one call at a width, from the cache
// when nothing it shows has changed. A running call changes with time, so
// it is rendered every time; there are only ever a few of those.
func (p *Panel) lines(c *call, width int) []piece {
	sel := p.sel == c
	if !c.live() && c.cache != nil && c.cacheVer == c.version && c.cacheW == width && c.cacheSel == sel {
		return c.cache
	}
	out := p.render(c, width, sel)
	if !c.live() {
		c.cache, c.cacheVer, c.cacheW, c.cacheSel = out, c.version, width, sel
	}
	return out
}

// render draws a call as a header line (status, tool, input summary, time)
// and its stages, wrapped, below it. Nested calls are indented.
func (p *Panel) render(c *call, width int, sel bool) []piece {
	indent := min(2*c.depth, max(width-MinWidth/2, 0))
	pad := piece{strings.Repeat(" ", indent), indent}
	inner := max(width-indent, 1)
	out := []piece{pad.then(p.header(c, inner, sel))}
	if !c.begun {
		return out
	}
	// Only the last stage of a running call changes with time; the others
	// are kept from the last render until an event changes the call.
	if c.piecesVer != c.version || len(c.pieces) != len(c.items) {
		c.pieces = c.pieces[:0]
		for i := range c.items {
			c.pieces = append(c.pieces, p.item(c, i))
		}
		c.piecesVer = c.version
	} else if c.live() {
		c.pieces[len(c.items)-1] = p.item(c, len(c.items)-1)
	}
	items := c.pieces
	stagePad := pad.then(piece{"  ", 2})
	for _, l := range wrap(items, max(inner-2, 1)) {
		out = append(out, stagePad.then(l))
	}
	if c.progress != "" && !c.done {
		line := "↳ " + ansi.Truncate(oneLine(output(c.progress)), max(inner-4, 1), "")
		out = append(out, stagePad.then(text(theme.Dim, line)))
	}
	return out
}

// header lays out one line: symbol, tool name, summary cut to fit, and the
// time at the right edge. A selected header is drawn plain on the
// selection colour, since inner styles would break its background.
func (p *Panel) header(c *call, width int, sel bool) piece {
	style := func(st lipgloss.Style, s string) piece {
		if sel {
			return piece{s, ansi.StringWidth(s)}
		}
		return text(st, s)
	}
	var sym piece
	right := ""
	switch c.status() {
	case statusQueued:
		sym, right = style(theme.Dim, theme.SymbolSkipped), "queued"
	case statusWaiting:
		sym, right = style(theme.Warn, theme.SymbolAsk), fmtDur(p.now.Sub(c.start))
	case statusRunning:
		sym, right = style(runningStyle, p.frame(c)), fmtDur(p.now.Sub(c.start))
	default:
		mark := theme.SymbolOK
		if c.final != agent.OutcomeOK {
			mark = theme.SymbolError
		}
		sym, right = style(theme.Outcome(c.final), mark), fmtDur(c.total)
	}
	var left piece
	if c.depth > 0 {
		left.add(style(theme.Dim, "↳ "))
	}
	left.add(sym)
	left.space()
	name := clean(summary.Name(c.tool))
	rw := ansi.StringWidth(right)
	if left.w+ansi.StringWidth(name)+1+rw > width {
		right, rw = "", 0 // too narrow for the time: the name matters more
	}
	room := width - left.w
	if rw > 0 {
		room -= rw + 1
	}
	if w := ansi.StringWidth(name); w > room {
		name = ansi.Truncate(name, max(room, 0), "…")
	}
	left.add(style(theme.ToolName, name))
	if sumRoom := room - ansi.StringWidth(name) - 1; c.summary != "" && sumRoom >= 2 {
		left.space()
		left.add(style(theme.Base, ansi.Truncate(c.summary, sumRoom, "…")))
	}
	line := left
	if rw > 0 {
		gap := max(width-left.w-rw, 1)
		line.add(piece{strings.Repeat(" ", gap), gap})
		line.add(style(theme.Dim, right))
	}
	if sel {
		gap := max(width-line.w, 0)
		line = piece{selectedStyle.Render(line.s + strings.Repeat(" ", gap)), line.w + gap}
	}
	return line
}

// frame is the spinner frame of a running call at the panel's time.
func (p *Panel) frame(c *call) string {
	n := int(p.now.Sub(c.start) / spinnerStep)
	return spinnerFrames[max(n, 0)%len(spinnerFrames)]
}

// item renders one stage: its name, its outcomes joined by arrows (ask→
// approved), then what matters about it: who rewrote the input, the
// captured size, the duration, the deciding rule.
func (p *Panel) item(c *call, i int) piece {
	it := &c.items[i]
	out := text(theme.Base, string(it.stage))
	if it.who != "" {
		out.space()
		out.add(text(theme.Dim, "by "+clean(it.who)+":"))
	}
	shown := make([]string, 0, len(it.outcomes))
	for j, o := range it.outcomes {
		more := j < len(it.outcomes)-1
		switch {
		case o == agent.OutcomeStart && more:
			continue // the call's end says more than its start
		case o == agent.OutcomeRewrite && it.stage == agent.StageRecheck && (more || it.who != ""):
			continue // a re-check exists because of a rewrite; "by" says whose
		case o == agent.OutcomeStart && c.done:
			o = c.final // the call never reported its own end (a panic)
		}
		shown = append(shown, o)
	}
	for j, o := range shown {
		if j == 0 {
			out.space()
		} else {
			out.add(text(theme.Dim, "→"))
		}
		out.add(text(theme.Outcome(o), symbol(o)))
	}
	if (it.last() == agent.OutcomeSpilled || it.last() == agent.OutcomeTruncated) && it.bytes > 0 {
		out.space()
		out.add(text(theme.Dim, fmtBytes(it.bytes)))
	}
	d := it.dur
	waiting := i == len(c.items)-1 && c.live() && (it.last() == agent.OutcomeStart || it.last() == agent.OutcomeAsk)
	if waiting {
		d = p.now.Sub(it.start)
	}
	switch {
	case it.stage == agent.StageResult:
		// The header shows the whole call's time.
	case it.stage == agent.StageCall || d >= slowStage:
		out.space()
		out.add(text(theme.Dim, fmtDur(d)))
	}
	if it.rule != "" {
		out.space()
		out.add(text(theme.Dim, "("+clean(it.rule)+")"))
	}
	return out
}

// symbol is how an outcome reads on the compact line: the common ones as
// marks, the rest (deny, ask, approved, spilled...) as words, because those
// are the ones a person looks for.
func symbol(outcome string) string {
	switch outcome {
	case agent.OutcomeOK:
		return theme.SymbolOK
	case agent.OutcomeError:
		return theme.SymbolError
	case agent.OutcomeSkipped:
		// A dash, not the separator's dot: "pre_hook –" reads as "no hooks".
		return "–"
	case agent.OutcomeStart:
		return theme.SymbolRunning
	}
	return clean(outcome)
}

// separator goes between the stages of one line.
var separator = piece{" " + theme.Dim.Render(theme.SymbolSkipped) + " ", 3}

// wrap lays pieces out on lines of at most width cells, breaking between
// pieces. A piece wider than a line (a long rule on a narrow panel) starts
// a line and is wrapped at its spaces, so the rule is still there to read.
func wrap(items []piece, width int) []piece {
	var out []piece
	var cur piece
	for _, it := range items {
		if it.w > width {
			if cur.w > 0 {
				out = append(out, cur)
			}
			parts := strings.Split(lipgloss.Wrap(it.s, width, ""), "\n")
			for i, l := range parts {
				lw := ansi.StringWidth(l)
				if lw > width {
					l, lw = ansi.Truncate(l, width, "…"), width
				}
				if i < len(parts)-1 {
					out = append(out, piece{l, lw})
				} else {
					cur = piece{l, lw}
				}
			}
			continue
		}
		if cur.w > 0 && cur.w+separator.w+it.w > width {
			out = append(out, cur)
			cur = piece{}
		}
		if cur.w > 0 {
			cur.add(separator)
		}
		cur.add(it)
	}
	if cur.w > 0 {
		out = append(out, cur)
	}
	return out
}

// fmtDur and fmtBytes write times and sizes as the whole UI does.
func fmtDur(d time.Duration) string { return format.Duration(d) }

func fmtBytes(n int64) string { return format.Bytes(n) }
