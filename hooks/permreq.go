package hooks

import (
	"context"
	"encoding/json"
	"fmt"
)

// PermissionVerdict is what the PermissionRequest hooks answered for a
// call that would ask a person.
type PermissionVerdict struct {
	// Allow answers the ask for the person; Deny refuses the call. Neither
	// set means no hook decided and the dialog is shown.
	Allow, Deny bool
	// Reason is the deciding hook's message (for the model on a deny);
	// Hook names that hook.
	Reason string
	Hook   string
	// Prevent means the deny also ends the run (`"interrupt": true` or
	// `"continue": false`); StopReason is for the person.
	Prevent    bool
	StopReason string
	// UpdatedInput replaces the call's input with an allow; the pipeline
	// re-checks it (H2). UpdatedBy names the hook.
	UpdatedInput json.RawMessage
	UpdatedBy    string
	// Outcomes are the hooks' own verdicts, in the order they ran.
	Outcomes []Outcome
}

// PermissionRequest runs the PermissionRequest hooks matching in.ToolName
// when a call is about to ask. A deny wins and ends the chain; otherwise
// an allow from any hook answers the ask. A hook that fails decides
// nothing: the person is asked, since a broken hook has approved nothing
// and must not lock the call out either.
func (r *Registry) PermissionRequest(ctx context.Context, in Input) PermissionVerdict {
	in.HookEventName = PermissionRequest
	var v PermissionVerdict
	v.Outcomes = r.run(ctx, in, func(o Outcome) bool { return o.Err == nil && (o.blocks() || o.Prevent) })
	for _, o := range v.Outcomes {
		switch {
		case o.Err != nil:
		case o.blocks() || o.Prevent:
			v.Allow, v.Deny, v.Hook = false, true, o.Hook
			v.Prevent, v.StopReason = o.Prevent, o.StopReason
			v.Reason = firstNonEmpty(o.Reason, o.StopReason, fmt.Sprintf("denied by PermissionRequest hook %q", o.Hook))
			v.UpdatedInput, v.UpdatedBy = nil, ""
		case o.PermissionDecision == "allow":
			v.Allow, v.Hook = true, o.Hook
			v.Reason = firstNonEmpty(o.Reason, fmt.Sprintf("allowed by PermissionRequest hook %q", o.Hook))
			if len(o.UpdatedInput) > 0 {
				v.UpdatedInput, v.UpdatedBy = o.UpdatedInput, o.Hook
			}
		}
	}
	return v
}

// Notify runs the Notification hooks for a notification of kind typ
// ("permission_prompt", "idle_prompt") with message msg. Notification
// hooks cannot decide anything; their outcomes reach the host through
// Observe and the return value.
func (r *Registry) Notify(ctx context.Context, in Input, typ, msg string) []Outcome {
	in.HookEventName = Notification
	in.NotificationType, in.Message = typ, msg
	return r.Run(ctx, in)
}
