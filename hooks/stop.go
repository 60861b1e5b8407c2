package hooks

import (
	"context"
	"fmt"
)

// StopVerdict is what the Stop hooks said when the model wanted to end its
// turn.
type StopVerdict struct {
	// Prevent ends the run now; Message is shown as its final word.
	Prevent bool
	Message string
	// Continue holds the reasons hooks gave for the model to keep working
	// (`"decision": "block"` or exit 2). The loop sends them to the model as
	// user messages and goes on, marking StopHookActive on the next Stop.
	Continue []string
	// Outcomes are the hooks' own verdicts, failures included. A failed
	// Stop hook does not keep the model going: that could loop forever.
	Outcomes []Outcome
}

// Stop runs the Stop hooks, or the SubagentStop hooks when
// in.HookEventName says so (a subagent's loop wants to stop). The first
// hook that ends the run (`"continue": false`) wins at once and later hooks
// do not run; otherwise every hook runs and each block adds a reason to
// Continue.
func (r *Registry) Stop(ctx context.Context, in Input) StopVerdict {
	if in.HookEventName != SubagentStop {
		in.HookEventName = Stop
	}
	var v StopVerdict
	v.Outcomes = r.run(ctx, in, func(o Outcome) bool { return o.Err == nil && o.Prevent })
	for _, o := range v.Outcomes {
		switch {
		case o.Err != nil:
		case o.Prevent:
			v.Prevent = true
			v.Message = firstNonEmpty(o.StopReason, o.Reason, fmt.Sprintf("%s hook %q ended the run", in.HookEventName, o.Hook))
		case o.blocks():
			v.Continue = append(v.Continue, firstNonEmpty(o.AdditionalContext, o.Reason,
				fmt.Sprintf("%s hook %q asks you to keep going", in.HookEventName, o.Hook)))
		}
	}
	return v
}
