package hooks

import (
	"context"
	"fmt"
	"strings"
)

// StartVerdict is what the SessionStart or SubagentStart hooks said
// before the work they precede.
type StartVerdict struct {
	// Context is every hook's context for the model, one hook per line.
	Context string
	// Prevent means a hook answered `"continue": false`: the work does not
	// start and the run ends. StopReason is for the person.
	Prevent    bool
	StopReason string
}

// Begin runs the hooks for in.HookEventName (SessionStart or
// SubagentStart). The first hook that ends the run (`"continue": false`)
// stops the chain, as Claude Code's reference says that field does in
// every event. A failing hook is skipped (it reaches the host through
// Observe): a broken script must not keep a session from starting.
func (r *Registry) Begin(ctx context.Context, in Input) StartVerdict {
	var v StartVerdict
	var notes []string
	for _, o := range r.run(ctx, in, func(o Outcome) bool { return o.Err == nil && o.Prevent }) {
		switch {
		case o.Err != nil:
		case o.Prevent:
			v.Prevent = true
			v.StopReason = firstNonEmpty(o.StopReason, fmt.Sprintf("%s hook %q ended the run", in.HookEventName, o.Hook))
		case o.AdditionalContext != "":
			notes = append(notes, o.AdditionalContext)
		}
	}
	if !v.Prevent {
		v.Context = strings.Join(notes, "\n")
	}
	return v
}
