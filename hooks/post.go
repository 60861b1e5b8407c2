package hooks

import "context"

// Post runs the PostToolUse hooks matching in.ToolName and, when the call
// failed, the PostToolUseFailure hooks after them. The tool has already
// run, so nothing here can undo it: a hook's failure is an Outcome with Err
// for the caller to report, never an error of the call (H6). Blocks and
// context in the outcomes are feedback for the model.
func (r *Registry) Post(ctx context.Context, in Input, isError bool) []Outcome {
	in.IsError = isError
	in.HookEventName = PostToolUse
	out := r.Run(ctx, in)
	if isError {
		in.HookEventName = PostToolUseFailure
		out = append(out, r.Run(ctx, in)...)
	}
	return out
}
