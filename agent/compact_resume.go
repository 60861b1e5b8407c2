package agent

import "encoding/json"

// EntryContextUsed records the prompt size a response measured, so a
// resumed session knows how full the context window was: its status line
// shows it at once, and its first request compacts first when the last one
// filled the window (a headless `--continue` is a new process every time).
const EntryContextUsed = "context"

// contextMark is the data of EntryContextUsed.
type contextMark struct {
	PromptTokens int `json:"prompt_tokens"`
}

// measured records the prompt size of a response in the transcript.
func (s *Session) measured(tokens int) {
	s.record(EntryContextUsed, contextMark{PromptTokens: tokens})
}

// ContextAtEnd is how full the context window was where a transcript
// ends: the last measured prompt size, or the estimate of the last
// compaction after it (Estimated), or nothing after a clear or a rewind.
type ContextAtEnd struct {
	Tokens    int
	Estimated bool
}

// replayContext applies one entry to the context a transcript ends with.
func replayContext(c ContextAtEnd, e Entry) ContextAtEnd {
	switch e.Type {
	case EntryContextUsed:
		var m contextMark
		if json.Unmarshal(e.Data, &m) == nil && m.PromptTokens > 0 {
			return ContextAtEnd{Tokens: m.PromptTokens}
		}
	case EntryCompact:
		var r compactRecord
		if json.Unmarshal(e.Data, &r) == nil {
			return ContextAtEnd{Tokens: r.TokensAfter, Estimated: true}
		}
	case EntryClear, EntryRewind:
		return ContextAtEnd{}
	}
	return c
}

// ResumeContext gives a resumed session the context size its transcript
// ended with. A measured size over the threshold makes the first request
// compact first; an estimate from a compaction waits for the next
// measurement, as it does in the session that compacted.
func (s *Session) ResumeContext(c ContextAtEnd) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lastPrompt == 0 && c.Tokens > 0 {
		s.lastPrompt, s.compacted = c.Tokens, c.Estimated
	}
}

// forgetMeasureLocked drops the last measure when the history is replaced
// by a shorter one that no response has measured (a clear, a rewind of the
// conversation): until the next response the estimate decides, and the
// status line shows nothing (s.mu held).
func (s *Session) forgetMeasureLocked() {
	s.lastPrompt, s.compacted = 0, false
}
