package agent

import "github.com/seed92b641c3/workbench/agent/provider"

// withMessage is h with m added: the one rule by which a conversation
// grows, live (appendMessage) and replayed from a transcript
// (replayHistory), so a resumed session has the history the live one had.
//
// A person's message that follows another user message (the request for
// it failed, or was interrupted, before the model answered) joins that
// message: the model is never sent two user messages in a row, which some
// APIs refuse, and it reads the unanswered prompt and the new one
// together. A prompt sent again as it was replaces its unanswered copy
// rather than repeating it. h is never changed in place (a request in
// flight may hold it), so a join copies.
func withMessage(h []provider.Message, m provider.Message) []provider.Message {
	n := len(h)
	if n == 0 || m.Role != provider.RoleUser || h[n-1].Role != provider.RoleUser {
		return append(h, m)
	}
	prev := h[n-1].Blocks
	if i := lastTextIndex(prev); i >= 0 && prev[i].Text == lastText(m) {
		prev = append(prev[:i:i], prev[i+1:]...)
	}
	blocks := append(append([]provider.Block(nil), prev...), m.Blocks...)
	return append(h[:n-1:n-1], provider.Message{Role: provider.RoleUser, Blocks: blocks})
}

// lastTextIndex is the index of a message's last non-empty text block
// (its prompt, after notifications and hook context), or -1.
func lastTextIndex(blocks []provider.Block) int {
	for i := len(blocks) - 1; i >= 0; i-- {
		if blocks[i].Type == provider.BlockText && blocks[i].Text != "" {
			return i
		}
	}
	return -1
}
