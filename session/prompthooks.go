package session

import (
	"context"
	"errors"
	"strings"

	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/hooks"
)

// promptHookSystem is the system prompt of a prompt hook's question: the
// model judges one condition and answers in the shape the hooks package
// reads, nothing else.
const promptHookSystem = "You judge one condition for a hook of a coding agent's session. " +
	"You do not work on the task and you call no tools. Read the condition and the event, " +
	"then answer with exactly one JSON object: {\"ok\": true, \"reason\": \"...\"} when the condition " +
	"is met and the action may go on, {\"ok\": false, \"reason\": \"...\"} when it must not."

// promptHookMaxTokens bounds a prompt hook's answer: a JSON object with a
// reason needs little, and a runaway answer must not cost a long wait.
const promptHookMaxTokens = 1024

// modelAsker is how prompt hooks ask the session's model: one request of
// one user message without tools, the text of the reply returned. The
// hooks package reads the decision and fails closed on anything else (a
// PreToolUse call is blocked when the model errs or answers nonsense). The
// built-in demo is no model to ask, so it gets none: a prompt hook then
// fails with "no model to ask" rather than reading a demo line.
func modelAsker(p provider.Provider, model string) hooks.Asker {
	if p.Name() == "script" && p.Model() == "demo" {
		return nil
	}
	return func(ctx context.Context, question string) (string, error) {
		stream, err := p.Stream(ctx, provider.Request{
			Model: model, System: promptHookSystem, MaxTokens: promptHookMaxTokens,
			Messages: []provider.Message{{Role: provider.RoleUser, Blocks: []provider.Block{provider.TextBlock(question)}}},
		})
		if err != nil {
			return "", err
		}
		resp, err := provider.Collect(stream)
		if err != nil {
			return "", err
		}
		var text strings.Builder
		for _, b := range resp.Message.Blocks {
			if b.Type == provider.BlockText {
				text.WriteString(b.Text)
			}
		}
		if strings.TrimSpace(text.String()) == "" {
			return "", errors.New("the model gave no text answer")
		}
		return text.String(), nil
	}
}
