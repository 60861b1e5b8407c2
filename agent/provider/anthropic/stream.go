package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"

	"github.com/seed92b641c3/workbench/agent/provider"
)

// stream turns the SDK's server-sent events into provider.Events. One SDK
// event becomes zero or more provider events, held in a queue.
type stream struct {
	ctx context.Context
	p   *Provider
	sdk *ssestream.Stream[sdk.MessageStreamEventUnion]

	queue  []provider.Event
	cur    provider.Event
	err    error
	done   bool // message_stop was seen
	closed bool

	tools map[int]*toolBlock // tool_use blocks whose input is still arriving
	usage provider.Usage
	stop  string
}

type toolBlock struct {
	id, name string
	input    strings.Builder
}

func newStream(ctx context.Context, p *Provider, s *ssestream.Stream[sdk.MessageStreamEventUnion]) *stream {
	return &stream{ctx: ctx, p: p, sdk: s, tools: map[int]*toolBlock{}}
}

func (s *stream) Next() bool {
	for {
		if len(s.queue) > 0 {
			s.cur, s.queue = s.queue[0], s.queue[1:]
			return true
		}
		if s.err != nil || s.done || s.closed {
			return false
		}
		if !s.sdk.Next() {
			if err := s.sdk.Err(); err != nil {
				s.err = s.p.classify(s.ctx, err)
			} else {
				s.err = &provider.Error{Provider: Name, Kind: provider.ErrorStream,
					Message: "the stream ended before the message was complete"}
			}
			return false
		}
		s.handle(s.sdk.Current())
	}
}

func (s *stream) Event() provider.Event { return s.cur }
func (s *stream) Err() error            { return s.err }

func (s *stream) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	return s.sdk.Close()
}

func (s *stream) emit(ev provider.Event) { s.queue = append(s.queue, ev) }

func (s *stream) handle(ev sdk.MessageStreamEventUnion) {
	idx := int(ev.Index)
	switch ev.Type {
	case "message_start":
		u := ev.Message.Usage
		s.usage = provider.Usage{
			InputTokens:  int(u.InputTokens),
			OutputTokens: int(u.OutputTokens),
			CacheRead:    int(u.CacheReadInputTokens),
			CacheWrite:   int(u.CacheCreationInputTokens),
		}
	case "content_block_start":
		b := ev.ContentBlock
		switch b.Type {
		case "text":
			if b.Text != "" {
				s.emit(provider.Event{Kind: provider.EventTextDelta, Index: idx, Text: b.Text})
			}
		case "thinking":
			if b.Thinking != "" || b.Signature != "" {
				s.emit(provider.Event{Kind: provider.EventThinkingDelta, Index: idx, Text: b.Thinking, Signature: b.Signature})
			}
		case "tool_use":
			s.tools[idx] = &toolBlock{id: b.ID, name: b.Name}
			s.emit(provider.Event{Kind: provider.EventToolUseStart, Index: idx, ToolUseID: b.ID, ToolName: b.Name})
		}
		// Other blocks (redacted thinking, server tools) are not used by
		// Workbench and are skipped.
	case "content_block_delta":
		d := ev.Delta
		switch d.Type {
		case "text_delta":
			s.emit(provider.Event{Kind: provider.EventTextDelta, Index: idx, Text: d.Text})
		case "thinking_delta":
			s.emit(provider.Event{Kind: provider.EventThinkingDelta, Index: idx, Text: d.Thinking})
		case "signature_delta":
			s.emit(provider.Event{Kind: provider.EventThinkingDelta, Index: idx, Signature: d.Signature})
		case "input_json_delta":
			t := s.tools[idx]
			if t == nil {
				s.fail("input for block %d arrived before the block started", idx)
				return
			}
			t.input.WriteString(d.PartialJSON)
			s.emit(provider.Event{Kind: provider.EventToolUseDelta, Index: idx, ToolUseID: t.id, ToolName: t.name, InputDelta: d.PartialJSON})
		}
	case "content_block_stop":
		t := s.tools[idx]
		if t == nil {
			return
		}
		delete(s.tools, idx)
		input := json.RawMessage(t.input.String())
		if len(input) == 0 {
			input = json.RawMessage(`{}`)
		}
		if !json.Valid(input) {
			s.fail("the input of tool %s (%s) is not valid JSON", t.name, t.id)
			return
		}
		s.emit(provider.Event{Kind: provider.EventToolUseStop, Index: idx, ToolUseID: t.id, ToolName: t.name, Input: input})
	case "message_delta":
		if ev.Delta.StopReason != "" {
			s.stop = string(ev.Delta.StopReason)
		}
		// The counts in message_delta are totals for the message; a count
		// the server leaves out stays as message_start gave it.
		u := ev.Usage
		for _, f := range []struct {
			dst *int
			v   int64
		}{
			{&s.usage.InputTokens, u.InputTokens},
			{&s.usage.OutputTokens, u.OutputTokens},
			{&s.usage.CacheRead, u.CacheReadInputTokens},
			{&s.usage.CacheWrite, u.CacheCreationInputTokens},
		} {
			if f.v > 0 {
				*f.dst = int(f.v)
			}
		}
	case "message_stop":
		s.emit(provider.Event{Kind: provider.EventUsage, Usage: s.usage})
		stop := s.stop
		if stop == "" {
			stop = provider.StopEndTurn
		}
		s.emit(provider.Event{Kind: provider.EventMessageStop, StopReason: stop})
		s.done = true
	}
}

func (s *stream) fail(format string, args ...any) {
	s.err = &provider.Error{Provider: Name, Kind: provider.ErrorStream, Message: fmt.Sprintf(format, args...)}
}
