package hooks

import (
	"context"
	"fmt"
	"strings"
)

// Context runs the hooks for in.HookEventName (SessionStart or
// UserPromptSubmit) and returns their context for the model, one hook per
// line. Blocks are ignored here; UserPrompt honours them. Failures only
// reach the host through Observe.
func (r *Registry) Context(ctx context.Context, in Input) string {
	var notes []string
	for _, o := range r.Run(ctx, in) {
		if o.Err == nil && o.AdditionalContext != "" {
			notes = append(notes, o.AdditionalContext)
		}
	}
	return strings.Join(notes, "\n")
}

// UserPrompt runs the UserPromptSubmit hooks for in.Prompt. The first hook
// that blocks (or ends the run) stops the chain and the prompt is not sent;
// reason says why. Otherwise extra is the hooks' text for the model, one
// hook per line, to go after the prompt. A failing hook is skipped, not a
// block: a broken script must not lock a person out of their session.
// Failures reach the host through Observe.
func (r *Registry) UserPrompt(ctx context.Context, in Input) (block bool, reason, extra string) {
	in.HookEventName = UserPromptSubmit
	var notes []string
	r.run(ctx, in, func(o Outcome) bool {
		switch {
		case o.Err != nil:
			return false
		case o.blocks() || o.Prevent:
			block = true
			reason = firstNonEmpty(o.Reason, o.StopReason, fmt.Sprintf("UserPromptSubmit hook %q blocked the prompt", o.Hook))
			return true
		}
		if o.AdditionalContext != "" {
			notes = append(notes, o.AdditionalContext)
		}
		return false
	})
	if block {
		return true, reason, ""
	}
	return false, "", strings.Join(notes, "\n")
}
