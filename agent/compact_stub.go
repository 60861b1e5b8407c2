package agent

import (
	"fmt"

	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/tools"
)

// stubMinBytes is the smallest tool result worth clearing: below it the
// stub would save little or nothing.
const stubMinBytes = 1024

// stubRecord is one cleared tool result, as the transcript records it so a
// resumed session clears the same ones.
type stubRecord struct {
	ToolUseID string `json:"tool_use_id"`
	Content   string `json:"content"`
	SpillPath string `json:"spill_path,omitempty"`
	Bytes     int    `json:"bytes"`
}

// stubOldResults returns a copy of h in which every large tool result older
// than the latest keepMessages messages is replaced by one line naming the
// spill file that holds its text and its size: the model can Read it again
// if it needs it, and the context no longer carries it. The text goes to a
// spill file of its own (written like any capped output, its provenance in
// the transcript, H8); the original, when the result was already capped,
// is named inside it. h itself is not changed.
func (s *Session) stubOldResults(h []provider.Message) ([]provider.Message, []stubRecord) {
	names := map[string]string{}
	for _, m := range h {
		for _, u := range m.ToolUses() {
			names[u.ToolUseID] = u.ToolName
		}
	}
	out := append([]provider.Message(nil), h...)
	var stubs []stubRecord
	for i := 0; i < len(h)-keepMessages; i++ {
		m := h[i]
		var blocks []provider.Block
		for j, b := range m.Blocks {
			if b.Type != provider.BlockToolResult || len(b.Content) < stubMinBytes {
				continue
			}
			if blocks == nil {
				blocks = append([]provider.Block(nil), m.Blocks...)
			}
			st := s.stub(b, names[b.ToolUseID])
			blocks[j].Content = st.Content
			stubs = append(stubs, st)
		}
		if blocks != nil {
			out[i] = provider.Message{Role: m.Role, Blocks: blocks}
		}
	}
	return out, stubs
}

// stub saves one result's text and returns the line that replaces it.
func (s *Session) stub(b provider.Block, tool string) stubRecord {
	st := stubRecord{ToolUseID: b.ToolUseID, Bytes: len(b.Content)}
	lines := 1
	for _, c := range b.Content {
		if c == '\n' {
			lines++
		}
	}
	var spill *tools.Spill
	if p := s.cfg.Pipeline; p != nil && p.SpillDir != "" {
		if tool == "" {
			tool = "tool_result"
		}
		// A cap of one byte makes the capture spill the whole text; the
		// capped text it returns is not used.
		tc := &tools.Context{WorkDir: p.WorkDir, SessionID: s.id, CallID: b.ToolUseID, Tool: tool,
			MaxOutput: 1, SpillDir: p.SpillDir, OnSpill: p.OnSpill}
		_, spill = tools.CaptureText(tc, b.Content)
	}
	kind := "result"
	if b.IsError {
		kind = "error result"
	}
	if spill == nil {
		st.Content = fmt.Sprintf("[An earlier tool %s (%d bytes, %d lines) was cleared to save context; it could not be kept in a file.]", kind, st.Bytes, lines)
		return st
	}
	st.SpillPath = spill.Path
	st.Content = fmt.Sprintf("[An earlier tool %s was cleared to save context: %d bytes, %d lines, kept in %s; Read it if you need it again.]", kind, st.Bytes, lines, spill.Path)
	return st
}

// applyStubs clears the recorded tool results in a restored history.
func applyStubs(h []provider.Message, stubs []stubRecord) {
	if len(stubs) == 0 {
		return
	}
	by := make(map[string]string, len(stubs))
	for _, st := range stubs {
		by[st.ToolUseID] = st.Content
	}
	for i, m := range h {
		var blocks []provider.Block
		for j, b := range m.Blocks {
			c, ok := by[b.ToolUseID]
			if !ok || b.Type != provider.BlockToolResult {
				continue
			}
			if blocks == nil {
				blocks = append([]provider.Block(nil), m.Blocks...)
			}
			blocks[j].Content = c
		}
		if blocks != nil {
			h[i] = provider.Message{Role: m.Role, Blocks: blocks}
		}
	}
}
