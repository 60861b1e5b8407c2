package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/seed92b641c3/workbench/agent/provider"
)

// bytesPerToken is the estimate's one rule: about four bytes of English or
// code make a token. Every estimate in Workbench uses it, so parts add up
// and compare; only a response's usage is a measurement.
const bytesPerToken = 4

func estimateTokens(bytes int) int { return (bytes + bytesPerToken - 1) / bytesPerToken }

// messageBytes splits a message's size into tool results and the rest.
func messageBytes(m provider.Message) (messages, results int) {
	for _, b := range m.Blocks {
		switch b.Type {
		case provider.BlockToolResult:
			results += len(b.Content) + len(b.ToolUseID)
		case provider.BlockToolUse:
			messages += len(b.Input) + len(b.ToolName) + len(b.ToolUseID)
		default:
			messages += len(b.Text) + len(b.Thinking)
		}
	}
	return messages, results
}

// estimateMessages estimates the tokens of a history.
func estimateMessages(h []provider.Message) int {
	n := 0
	for _, m := range h {
		a, b := messageBytes(m)
		n += a + b
	}
	return estimateTokens(n)
}

// fixedTokens estimates what every request carries besides the history:
// the system prompt and the tool schemas.
func (s *Session) fixedTokens() int {
	return estimateTokens(len(s.system()) + s.toolBytes())
}

func (s *Session) toolBytes() int {
	if s.cfg.Pipeline == nil || s.cfg.Pipeline.Tools == nil {
		return 0
	}
	b, _ := json.Marshal(s.toolDefs())
	return len(b)
}

// ContextPart is one line of /context: a part of the prompt and its
// estimated size.
type ContextPart struct {
	Name   string
	Tokens int
}

// ContextParts estimates what the next request will carry, by part: the
// system prompt (without the memory files), the tool schemas, the memory
// files, the messages and the tool results.
func (s *Session) ContextParts() []ContextPart {
	system := s.system()
	memory := 0
	for _, m := range s.cfg.Memory {
		if strings.Contains(system, strings.TrimSpace(m.Content)) {
			memory += len(strings.TrimSpace(m.Content))
		}
	}
	var msgs, results int
	for _, m := range s.History() {
		a, b := messageBytes(m)
		msgs += a
		results += b
	}
	return []ContextPart{
		{"System prompt", estimateTokens(len(system) - memory)},
		{"Tools", estimateTokens(s.toolBytes())},
		{"Memory files", estimateTokens(memory)},
		{"Messages", estimateTokens(msgs)},
		{"Tool results", estimateTokens(results)},
	}
}

// ContextReport is /context: the parts of the context with their estimated
// sizes and shares of the window, and what the last response measured.
func (s *Session) ContextReport() string {
	parts := s.ContextParts()
	used, window := s.ContextUsed()
	total := 0
	for _, p := range parts {
		total += p.Tokens
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Context of %s (estimate: about %d bytes a token)\n", s.Model(), bytesPerToken)
	for _, p := range parts {
		fmt.Fprintf(&b, "  %-14s %8s tokens%s\n", p.Name, humanTokens(p.Tokens), share(p.Tokens, window))
	}
	fmt.Fprintf(&b, "  %-14s %8s tokens%s\n", "Total", humanTokens(total), share(total, window))
	switch {
	case window > 0:
		fmt.Fprintf(&b, "Window: %s tokens; automatic compaction above %s.", humanTokens(window), humanTokens(s.autoThreshold()))
	default:
		b.WriteString("Window: unknown for this model (set contextWindow in settings or --context-window); no automatic compaction.")
	}
	s.mu.Lock()
	estimated := s.compacted
	s.mu.Unlock()
	switch {
	case used > 0 && estimated:
		fmt.Fprintf(&b, "\nSince the last compaction: about %s tokens%s (estimate, until the next request measures it).", humanTokens(used), share(used, window))
	case used > 0:
		fmt.Fprintf(&b, "\nLast request (measured): %s tokens%s.", humanTokens(used), share(used, window))
	}
	return b.String()
}

// share writes n as a percentage of window, or nothing when the window is
// unknown.
func share(n, window int) string {
	if window <= 0 {
		return ""
	}
	return fmt.Sprintf(" (%.1f%%)", 100*float64(n)/float64(window))
}
