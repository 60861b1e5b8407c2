package pipeline

import (
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/ui/safetext"
	"github.com/seed92b641c3/workbench/ui/summary"
)

// call is what the panel knows of one tool call, updated event by event.
type call struct {
	id, tool string
	group    *group
	depth    int // nesting under the group's top-level call
	member   int // position in group.calls

	input     json.RawMessage // as the model asked (ToolUse)
	rewritten json.RawMessage // as it ran after the last rewrite (recheck)
	summary   string

	events []agent.StageEvent // the full trace, for Detail
	items  []item             // the compact stages, for View
	start  time.Time          // when the first stage began
	begun  bool
	done   bool
	total  time.Duration // the result stage's duration: the whole call
	final  string        // the result stage's outcome

	result *resultHead
	// progress is the last progress line the running tool reported (an
	// MCP server's notification, a command's output), shown under it.
	progress string

	// version changes with every change to what the call shows; the
	// render cache is valid while version, width and selection match.
	version  int
	cache    []piece
	cacheVer int
	cacheW   int
	cacheSel bool
	// pieces are the rendered stages, valid while piecesVer is version.
	pieces    []piece
	piecesVer int
}

// resultHead is the start of a call's result text, as the root gave it.
type resultHead struct {
	text    string
	isError bool
	bytes   int
}

// item is one stage as the compact view shows it. Events that belong
// together become one item: a call's start and its end, a permission ask
// and the person's answer, a rewrite and its re-check.
type item struct {
	stage    agent.Stage
	outcomes []string
	start    time.Time
	dur      time.Duration // the sum of the events' durations
	rule     string        // the last rule an event named
	bytes    int64
	who      string // recheck: who rewrote the input
}

func (it *item) last() string {
	return it.outcomes[len(it.outcomes)-1]
}

// absorbs reports whether ev continues it rather than starting a new item.
// The person's answer to an ask is a permission event even when the ask
// came from a re-check, so it joins whichever item asked.
func (it *item) absorbs(ev agent.StageEvent) bool {
	if ev.Stage == agent.StageRecheck && ev.Outcome == agent.OutcomeRewrite {
		return false
	}
	return it.stage == ev.Stage || (ev.Stage == agent.StagePermission && it.last() == agent.OutcomeAsk)
}

func (c *call) add(ev agent.StageEvent) {
	c.version++
	if ev.Outcome == agent.OutcomeProgress {
		// Progress is a note on the running call, not a stage.
		if !c.done {
			c.progress = ev.Detail
		}
		return
	}
	c.events = append(c.events, ev)
	d := time.Duration(ev.DurationUS) * time.Microsecond
	began := ev.Time.Add(-d)
	if len(c.events) == 1 {
		c.start = began
	}
	if c.tool == "" {
		c.tool = ev.Tool
	}
	if n := len(c.items); n > 0 && c.items[n-1].absorbs(ev) {
		it := &c.items[n-1]
		it.outcomes = append(it.outcomes, ev.Outcome)
		it.dur += d
		if ev.Rule != "" {
			it.rule = ev.Rule
		}
		if ev.Bytes != 0 {
			it.bytes = ev.Bytes
		}
	} else {
		c.items = append(c.items, item{
			stage: ev.Stage, outcomes: []string{ev.Outcome}, start: began, dur: d,
			rule: ev.Rule, bytes: ev.Bytes,
		})
	}
	if ev.Stage == agent.StageRecheck {
		it := &c.items[len(c.items)-1]
		if who := rewriter(ev.Detail); who != "" && it.who == "" {
			it.who = who
		}
		if len(ev.Input) > 0 {
			c.rewritten = ev.Input
			c.summary = summarize(c.tool, ev.Input)
		}
	}
	if ev.Stage == agent.StageResult {
		c.done, c.total, c.final = true, d, ev.Outcome
	}
}

func (c *call) setInput(in json.RawMessage) {
	if len(in) == 0 {
		return
	}
	c.input = append(json.RawMessage(nil), in...)
	if len(c.rewritten) == 0 {
		c.summary = summarize(c.tool, in)
	}
	c.version++
}

// status is where a call is, as its header shows it.
type status int

const (
	statusQueued  status = iota // asked for, no stage yet
	statusWaiting               // stopped at an ask, waiting for a person
	statusRunning
	statusDone
)

func (c *call) status() status {
	switch {
	case c.done:
		return statusDone
	case !c.begun:
		return statusQueued
	case c.waiting():
		return statusWaiting
	default:
		return statusRunning
	}
}

// waiting reports a call stopped at an ask: its last permission verdict
// is ask and after it only PreToolUse hooks that have finished, since the
// dialog opens after them.
func (c *call) waiting() bool {
	for i := len(c.items) - 1; i >= 0; i-- {
		it := c.items[i]
		switch {
		case it.stage == agent.StagePreHook && it.last() != agent.OutcomeStart:
			continue
		case it.stage == agent.StagePermission:
			return it.last() == agent.OutcomeAsk
		default:
			return false
		}
	}
	return false
}

// live reports whether the call's rendering changes with time alone.
func (c *call) live() bool {
	return c.begun && !c.done
}

// rewriter reads who rewrote an input from a re-check detail ("input
// rewritten by hook fmt; checking ..."). It is a label for the person; the
// full detail stays in the trace.
func rewriter(detail string) string {
	const prefix = "input rewritten by "
	rest, ok := strings.CutPrefix(detail, prefix)
	if !ok {
		return ""
	}
	for _, end := range []string{";", " is invalid"} {
		if i := strings.Index(rest, end); i >= 0 {
			rest = rest[:i]
		}
	}
	return strings.TrimSpace(rest)
}

// summarize turns an input into one short line for the call's header,
// the same line the conversation shows (summary.Of).
func summarize(tool string, in json.RawMessage) string {
	return oneLine(summary.Of(tool, in))
}

// oneLine makes model-supplied text safe and single-line for the header:
// newlines become a visible mark, and control characters (escape
// sequences among them) become spaces so they cannot restyle the screen.
func oneLine(s string) string {
	const limit = 512 // no header is wider; longer text is cut before it is cleaned
	s = cut(s, limit)
	s = strings.ReplaceAll(strings.TrimSpace(s), "\n", " ⏎ ")
	return clean(s)
}

// clean shows control characters (a carriage return as \r, a backspace as
// \x08, ESC as \x1b), bidi controls and zero-width characters as marked
// escapes (safetext.Mark), so a call's summary reads as what it is: a
// space in place of a backspace or a CR would hide that the text is not
// what it looks like. Tabs and newlines become spaces. Every text from
// outside that the panel draws comes through here. The result may carry
// style sequences: measure and cut it with ANSI-aware functions.
func clean(s string) string {
	return safetext.Mark(strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' {
			return ' '
		}
		return r
	}, s))
}

// output is a program's output as the panel shows it, as the conversation
// and a terminal show it: escape sequences removed (colours are not the
// panel's) and, on a line a carriage return rewrote, only what came after
// the last one (a progress bar's latest state). clean then marks what is
// left. Commands and paths are not output: they go to clean whole, so a
// CR in them shows as \r.
func output(s string) string {
	if strings.ContainsRune(s, '\x1b') {
		s = ansi.Strip(s)
	}
	if !strings.ContainsRune(s, '\r') {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		if j := strings.LastIndexByte(l, '\r'); j >= 0 {
			l = l[j+1:]
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

// head keeps the first lines of a result text.
func head(s string) string {
	s = cut(s, resultHeadBytes)
	lines := strings.SplitN(s, "\n", resultHeadLines+1)
	if len(lines) > resultHeadLines {
		lines = lines[:resultHeadLines]
	}
	return strings.Join(lines, "\n")
}

// cut shortens s to at most n bytes without splitting a UTF-8 sequence.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
