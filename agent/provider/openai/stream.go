package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/seed92b641c3/workbench/agent/provider"
)

// stream turns chat completion chunks into provider.Events.
//
// Chat Completions has no blocks: text, reasoning and tool calls arrive as
// fields of the chunks' deltas. Each gets a block index the first time it
// appears, so indexes count from zero in order of appearance, as they do for
// Anthropic.
type stream struct {
	ctx context.Context
	p   *Provider
	sdk *ssestream.Stream[sdk.ChatCompletionChunk]

	queue  []provider.Event
	cur    provider.Event
	err    error
	done   bool
	closed bool

	nextIndex int
	textIndex int // -1 until text arrives
	thinkIdx  int // -1 until reasoning arrives
	calls     []*toolCall
	byIndex   map[int64]*toolCall // the call each chunk index currently means
	finish    string
	usage     provider.Usage
}

// toolCall is a tool call whose arguments are still arriving.
type toolCall struct {
	index    int // block index
	id, name string
	args     strings.Builder
	started  bool // tool_use_start was emitted
	stopped  bool
}

func newStream(ctx context.Context, p *Provider, s *ssestream.Stream[sdk.ChatCompletionChunk]) *stream {
	return &stream{ctx: ctx, p: p, sdk: s, textIndex: -1, thinkIdx: -1, byIndex: map[int64]*toolCall{}}
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
		if s.sdk.Next() {
			s.handle(s.sdk.Current())
			continue
		}
		if err := s.sdk.Err(); err != nil {
			s.err = s.p.classify(s.ctx, err)
			return false
		}
		s.end()
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

func (s *stream) handle(c sdk.ChatCompletionChunk) {
	if c.JSON.Usage.Valid() {
		u := c.Usage
		cached := int(u.PromptTokensDetails.CachedTokens)
		written := int(u.PromptTokensDetails.CacheWriteTokens)
		s.usage = provider.Usage{
			// prompt_tokens counts cached tokens too; Usage keeps them apart.
			InputTokens:  max(int(u.PromptTokens)-cached-written, 0),
			OutputTokens: int(u.CompletionTokens),
			CacheRead:    cached,
			CacheWrite:   written,
		}
	}
	if len(c.Choices) == 0 || s.finish != "" {
		return
	}
	ch := c.Choices[0]
	d := ch.Delta
	if r := reasoning(d); r != "" {
		if s.thinkIdx < 0 {
			s.thinkIdx = s.newIndex()
		}
		s.emit(provider.Event{Kind: provider.EventThinkingDelta, Index: s.thinkIdx, Text: r})
	}
	if d.Content != "" {
		if s.textIndex < 0 {
			s.textIndex = s.newIndex()
		}
		s.emit(provider.Event{Kind: provider.EventTextDelta, Index: s.textIndex, Text: d.Content})
	}
	for _, tc := range d.ToolCalls {
		call := s.byIndex[tc.Index]
		// A call is new at first sight of its index, or when a server that
		// leaves out the index (so every call is index 0) sends a new id.
		if call == nil || (tc.ID != "" && call.id != "" && tc.ID != call.id) {
			call = &toolCall{index: s.newIndex()}
			s.calls = append(s.calls, call)
			s.byIndex[tc.Index] = call
		}
		if tc.ID != "" {
			call.id = tc.ID
		}
		if tc.Function.Name != "" {
			call.name = tc.Function.Name
		}
		call.args.WriteString(tc.Function.Arguments)
		// Start once the name is known; arguments that came first are sent
		// as one delta.
		switch {
		case !call.started && call.name != "":
			s.start(call)
			if call.args.Len() > 0 {
				s.emit(provider.Event{Kind: provider.EventToolUseDelta, Index: call.index, ToolUseID: call.id, ToolName: call.name, InputDelta: call.args.String()})
			}
		case call.started && tc.Function.Arguments != "":
			s.emit(provider.Event{Kind: provider.EventToolUseDelta, Index: call.index, ToolUseID: call.id, ToolName: call.name, InputDelta: tc.Function.Arguments})
		}
	}
	if ch.FinishReason != "" {
		s.finish = ch.FinishReason
		s.stopCalls()
	}
}

func (s *stream) newIndex() int {
	i := s.nextIndex
	s.nextIndex++
	return i
}

func (s *stream) start(call *toolCall) {
	if call.id == "" {
		call.id = fmt.Sprintf("call_%d", call.index)
	}
	call.started = true
	s.emit(provider.Event{Kind: provider.EventToolUseStart, Index: call.index, ToolUseID: call.id, ToolName: call.name})
}

// stopCalls ends every open tool call, in the order they started.
func (s *stream) stopCalls() {
	for _, call := range s.calls {
		if call.stopped {
			continue
		}
		if !call.started {
			s.start(call)
		}
		call.stopped = true
		input := json.RawMessage(call.args.String())
		if len(input) == 0 {
			input = json.RawMessage(`{}`)
		}
		if !json.Valid(input) {
			s.err = &provider.Error{Provider: Name, Kind: provider.ErrorStream,
				Message: fmt.Sprintf("the arguments of tool %s (%s) are not valid JSON", call.name, call.id)}
			return
		}
		s.emit(provider.Event{Kind: provider.EventToolUseStop, Index: call.index, ToolUseID: call.id, ToolName: call.name, Input: input})
	}
}

// end handles the end of the server's stream.
func (s *stream) end() {
	if s.finish == "" {
		s.err = &provider.Error{Provider: Name, Kind: provider.ErrorStream,
			Message: "the stream ended before the message was complete"}
		return
	}
	s.emit(provider.Event{Kind: provider.EventUsage, Usage: s.usage})
	s.emit(provider.Event{Kind: provider.EventMessageStop, StopReason: s.stopReason()})
	s.done = true
}

func (s *stream) stopReason() string {
	switch s.finish {
	case "stop":
		// Some compatible servers say "stop" after tool calls.
		if len(s.calls) > 0 {
			return provider.StopToolUse
		}
		return provider.StopEndTurn
	case "tool_calls", "function_call":
		return provider.StopToolUse
	case "length":
		return provider.StopMaxTokens
	case "content_filter":
		return provider.StopRefusal
	}
	return s.finish
}

// reasoning returns the reasoning text some compatible servers stream beside
// the content, as reasoning_content (vLLM, llama.cpp, DeepSeek) or reasoning
// (Ollama, OpenRouter).
func reasoning(d sdk.ChatCompletionChunkChoiceDelta) string {
	for _, key := range []string{"reasoning_content", "reasoning"} {
		f, ok := d.JSON.ExtraFields[key]
		if !ok {
			continue
		}
		var text string
		if json.Unmarshal([]byte(f.Raw()), &text) == nil && text != "" {
			return text
		}
	}
	return ""
}
