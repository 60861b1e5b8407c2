package script

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/seed92b641c3/workbench/agent/provider"
)

// Name is the provider's name in errors, settings and the UI.
const Name = "script"

// Provider plays a Script, one turn per Stream call. It is safe for
// concurrent use; the position in the script is shared by all callers.
type Provider struct {
	script *Script

	mu       sync.Mutex
	next     int // the turn the next Stream call plays
	pending  []string
	requests []provider.Request
}

// New returns a Provider that plays s from its first turn.
func New(s *Script) *Provider { return &Provider{script: s} }

// Name returns "script".
func (p *Provider) Name() string { return Name }

// Model returns the script's name: "demo" for the demo, the file name (no
// extension) for a loaded script.
func (p *Provider) Model() string { return p.script.name }

// Requests returns the requests received so far, for tests that check what
// the agent loop sent.
func (p *Provider) Requests() []provider.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]provider.Request(nil), p.requests...)
}

// Stream plays the next turn. When the previous turn made tool calls, req
// must carry a tool_result for each of them; otherwise Stream fails with a
// bad_request error, as the real APIs do, and the turn is not consumed.
func (p *Provider) Stream(ctx context.Context, req provider.Request) (provider.Stream, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests = append(p.requests, req)
	if missing := missingResults(p.pending, req); len(missing) > 0 {
		return nil, &provider.Error{Provider: Name, Kind: provider.ErrorBadRequest,
			Message: fmt.Sprintf("turn %d needs the results of tool calls %s first", p.next, strings.Join(missing, ", "))}
	}
	var turn Turn
	if p.next < len(p.script.Turns) {
		turn = p.script.Turns[p.next]
	}
	p.next++
	p.pending = p.pending[:0]
	for _, c := range turn.ToolCalls {
		p.pending = append(p.pending, c.ID)
	}
	return &stream{ctx: ctx, events: turnEvents(turn), delay: time.Duration(turn.DelayMS) * time.Millisecond}, nil
}

// missingResults returns the ids among want that have no tool_result in req.
// Only a request that continues the conversation holding those calls owes
// their results: a subagent's fresh conversation, played by the same script,
// does not.
func missingResults(want []string, req provider.Request) []string {
	if len(want) == 0 {
		return nil
	}
	// The results belong in the last message, right after the calls; only
	// those two messages need looking at, however long the conversation.
	tail := req.Messages
	if len(tail) > 2 {
		tail = tail[len(tail)-2:]
	}
	have, asked := map[string]bool{}, map[string]bool{}
	for _, m := range tail {
		for _, b := range m.Blocks {
			switch b.Type {
			case provider.BlockToolResult:
				have[b.ToolUseID] = true
			case provider.BlockToolUse:
				asked[b.ToolUseID] = true
			}
		}
	}
	if !slices.ContainsFunc(want, func(id string) bool { return asked[id] }) {
		return nil
	}
	var missing []string
	for _, id := range want {
		if !have[id] {
			missing = append(missing, id)
		}
	}
	return missing
}

// turnEvents lays a turn out as the events a model would stream.
func turnEvents(t Turn) []provider.Event {
	var evs []provider.Event
	index := 0
	paced := t.DelayMS > 0
	if t.Thinking != "" {
		for _, piece := range pieces(t.Thinking, paced) {
			evs = append(evs, provider.Event{Kind: provider.EventThinkingDelta, Index: index, Text: piece})
		}
		index++
	}
	if t.Text != "" {
		for _, piece := range pieces(t.Text, paced) {
			evs = append(evs, provider.Event{Kind: provider.EventTextDelta, Index: index, Text: piece})
		}
		index++
	}
	for _, c := range t.ToolCalls {
		evs = append(evs,
			provider.Event{Kind: provider.EventToolUseStart, Index: index, ToolUseID: c.ID, ToolName: c.Name},
			provider.Event{Kind: provider.EventToolUseDelta, Index: index, ToolUseID: c.ID, ToolName: c.Name, InputDelta: string(c.Input)},
			provider.Event{Kind: provider.EventToolUseStop, Index: index, ToolUseID: c.ID, ToolName: c.Name, Input: c.Input},
		)
		index++
	}
	stop := t.StopReason
	if stop == "" {
		stop = provider.StopEndTurn
		if len(t.ToolCalls) > 0 {
			stop = provider.StopToolUse
		}
	}
	return append(evs,
		provider.Event{Kind: provider.EventUsage, Usage: provider.Usage{InputTokens: t.PromptTokens}},
		provider.Event{Kind: provider.EventMessageStop, StopReason: stop},
	)
}

// pieces splits text into words, each with the space after it, when the
// turn is paced; otherwise the text is one piece.
func pieces(text string, paced bool) []string {
	if !paced {
		return []string{text}
	}
	var out []string
	start := 0
	inSpace := false
	for i, r := range text {
		space := unicode.IsSpace(r)
		if inSpace && !space {
			out = append(out, text[start:i])
			start = i
		}
		inSpace = space
	}
	return append(out, text[start:])
}

// stream hands out a turn's events, pausing before each one when the turn
// is paced.
type stream struct {
	ctx    context.Context
	events []provider.Event
	delay  time.Duration
	pos    int
	cur    provider.Event
	err    error
}

func (s *stream) Next() bool {
	if s.err != nil || s.pos >= len(s.events) {
		return false
	}
	if s.delay > 0 && s.pos > 0 {
		t := time.NewTimer(s.delay)
		select {
		case <-s.ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
	if err := s.ctx.Err(); err != nil {
		s.err = err
		return false
	}
	s.cur = s.events[s.pos]
	s.pos++
	return true
}

func (s *stream) Event() provider.Event { return s.cur }
func (s *stream) Err() error            { return s.err }
func (s *stream) Close() error          { s.pos = len(s.events); return nil }
