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
	outs := r.run(ctx, in, func(o Outcome) bool { return o.Err == nil && (o.blocks() || o.Prevent) })
	for _, o := range outs {
		switch {
		case o.Err != nil:
		case o.blocks() || o.Prevent:
			block = true
			reason = firstNonEmpty(o.Reason, o.StopReason, fmt.Sprintf("UserPromptSubmit hook %q blocked the prompt", o.Hook))
			if o.Prevent && o.StopReason != "" {
				// "continue": false wins over a decision, and its
				// stopReason is what the person is shown.
				reason = o.StopReason
			}
		case o.AdditionalContext != "":
			notes = append(notes, o.AdditionalContext)
		}
	}
	if block {
		return true, reason, ""
	}
	return false, "", strings.Join(notes, "\n")
}
