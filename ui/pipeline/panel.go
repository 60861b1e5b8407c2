// Package pipeline is the live tool pipeline panel: every tool call with its
// stages (lookup, schema, permission, hooks, call, capture, result) as they
// happen. It is a view of agent.StageEvents and nothing else, so what a
// person sees is exactly what ran. The root model owns a Panel, feeds it
// events and ticks, and asks it for text; the Panel has no event loop, does
// no IO and returns no commands, so it can be tested as plain functions.
package pipeline

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/seed92b641c3/workbench/agent"
)

// MinWidth is the narrowest width the panel is designed for. The root hides
// the panel below its own threshold; between that and MinWidth the panel
// still renders, with more truncation.
const MinWidth = 36

// Tuning numbers of the panel.
const (
	// columnWidth is the narrowest column a parallel call gets; calls sit
	// side by side only when at least two such columns fit.
	columnWidth = 38
	// slowStage is the duration from which a stage other than call shows
	// how long it took: fast stages stay quiet so the line stays short,
	// while a slow hook or a wait for a person stands out.
	slowStage = 100 * time.Millisecond
	// spinnerStep is how long one spinner frame lasts; it matches the
	// root's tick of about 100 ms so every tick moves the spinner.
	spinnerStep = 100 * time.Millisecond
	// maxGroups bounds how many top-level calls the panel remembers; past
	// it the oldest finished ones are forgotten in one step (down to
	// keepGroups), so memory stays bounded in a long session and the cost
	// of forgetting is spread over many calls.
	maxGroups  = 2000
	keepGroups = 1000
	// resultHeadLines and resultHeadBytes bound what SetResult keeps: the
	// detail view shows the head of a result, never a whole large output.
	resultHeadLines = 12
	resultHeadBytes = 4096
)

// Panel is the state of the pipeline panel. Per-call state is kept
// incrementally as events arrive, and View renders only the blocks that
// are visible, so its cost does not grow with the number of calls.
// A Panel belongs to the root model's Update and is not safe for
// concurrent use. The zero value is not ready; use New.
type Panel struct {
	w, h int
	now  time.Time // the latest of Tick's time and the newest event's

	groups []*group
	byID   map[string]*call // the newest call with each id
	live   int              // calls begun and not finished
	sel    *call
}

// group is a top-level call and the calls nested under it (ids with a
// "/" prefix of its id, such as ExecuteExtraTool's target), in arrival
// order; the first member is the top-level call.
type group struct {
	idx   int // position in Panel.groups
	calls []*call
	batch *batch
}

// batch is a set of consecutive top-level calls that ran at the same time;
// the layout puts the members of a batch side by side when there is room.
// Membership is decided once, when a call begins, so blocks do not jump
// between columns as calls finish.
type batch struct {
	live int // members begun and not finished
}

// New returns an empty panel. Starting over (after /clear) is making a
// new one, since the panel holds nothing but what it was shown.
func New() *Panel {
	return &Panel{byID: make(map[string]*call)}
}

// SetSize sets the size View fills: exactly h lines of at most w cells.
func (p *Panel) SetSize(w, h int) {
	p.w, p.h = max(w, 0), max(h, 0)
}

// Tick moves time forward for the spinner and the elapsed times of running
// calls. The root sends it about every 100 ms, and only while Running.
func (p *Panel) Tick(now time.Time) {
	if now.After(p.now) {
		p.now = now
	}
}

// Running reports whether any call has begun and not finished, which is
// when the root should keep sending ticks: outside of that, nothing on the
// panel changes with time.
func (p *Panel) Running() bool {
	return p.live > 0
}

// ToolUse records a call the model asked for, before its stages run, so
// the panel can show it queued and the detail view can show its input.
func (p *Panel) ToolUse(id, name string, input json.RawMessage) {
	c := p.byID[id]
	if c == nil || c.done {
		c = p.newCall(id, name)
	}
	if name != "" {
		c.tool = name
	}
	c.setInput(input)
}

// Observe records one stage event (the Stage of an agent.Event of kind
// stage). Events of one call arrive in pipeline order; events of
// different calls may interleave.
func (p *Panel) Observe(ev agent.StageEvent) {
	if ev.Time.After(p.now) {
		p.now = ev.Time
	}
	c := p.byID[ev.CallID]
	// A finished call that sees a new lookup is a new call reusing the id
	// (ExecuteExtraTool running the same target twice).
	if c == nil || (c.done && ev.Stage == agent.StageLookup) {
		c = p.newCall(ev.CallID, ev.Tool)
	}
	if !c.begun {
		p.begin(c)
	}
	wasDone := c.done
	c.add(ev)
	if c.done && !wasDone {
		p.live--
		if c.depth == 0 {
			c.group.batch.live--
		}
	}
}

// SetResult gives the panel the result text of a call (from an agent.Event
// of kind tool_result), so the detail view can show its head. Only the head
// is kept, so a large output costs the panel nothing.
func (p *Panel) SetResult(id string, text string, isError bool) {
	c := p.byID[id]
	if c == nil {
		return
	}
	c.result = &resultHead{text: head(text), isError: isError, bytes: len(text)}
	c.version++
}

// newCall adds a call in arrival order: under its parent's group when its
// id nests under a known call, as a new top-level group otherwise.
func (p *Panel) newCall(id, tool string) *call {
	c := &call{id: id, tool: tool}
	if i := strings.LastIndexByte(id, '/'); i > 0 {
		if parent := p.byID[id[:i]]; parent != nil {
			g := parent.group
			c.group, c.depth, c.member = g, parent.depth+1, len(g.calls)
			g.calls = append(g.calls, c)
			p.byID[id] = c
			return c
		}
	}
	g := &group{idx: len(p.groups), calls: []*call{c}, batch: &batch{}}
	c.group = g
	p.groups = append(p.groups, g)
	p.byID[id] = c
	if len(p.groups) > maxGroups {
		p.forget()
	}
	return c
}

// begin marks a call as running. A top-level call that begins while the
// calls of the batch before it are still running joins that batch.
func (p *Panel) begin(c *call) {
	c.begun = true
	p.live++
	if c.depth > 0 {
		return
	}
	g := c.group
	if g.idx > 0 {
		if prev := p.groups[g.idx-1].batch; prev.live > 0 {
			g.batch = prev
		}
	}
	g.batch.live++
}

// forget drops the oldest groups down to keepGroups, stopping at the first
// one still running so a live call is never lost.
func (p *Panel) forget() {
	n := 0
	for n < len(p.groups)-keepGroups && !p.groups[n].running() {
		n++
	}
	if n == 0 {
		return
	}
	for _, g := range p.groups[:n] {
		for _, c := range g.calls {
			if p.byID[c.id] == c {
				delete(p.byID, c.id)
			}
			if p.sel == c {
				p.sel = nil
			}
		}
	}
	p.groups = append(p.groups[:0:0], p.groups[n:]...)
	for i, g := range p.groups {
		g.idx = i
	}
}

func (g *group) running() bool {
	for _, c := range g.calls {
		if c.begun && !c.done {
			return true
		}
	}
	return false
}
