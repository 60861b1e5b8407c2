package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// PreVerdict is what the PreToolUse hooks decided about one tool call,
// for the pipeline to act on and the transcript to record.
type PreVerdict struct {
	// Block means the call must not run; Reason says why for the model,
	// Hook names the hook that decided.
	Block bool
	// Ask means some hook wants a person to approve the call, whatever the
	// permission rules say. Reason and Hook name the first hook that asked
	// unless a later one blocked.
	Ask    bool
	Reason string
	Hook   string
	// Allow means a hook answered "allow" (or the older "approve") and none
	// asked or blocked: the call may skip the approval dialog the rules
	// would show. It never overrules a deny, and the pipeline decides which
	// asks a hook may answer. AllowedBy names the hook, AllowReason its
	// reason.
	Allow       bool
	AllowedBy   string
	AllowReason string
	// Prevent means a hook also asked to end the whole run
	// (`"continue": false`); the call is blocked too. StopReason is for the
	// person.
	Prevent    bool
	StopReason string
	// UpdatedInput replaces the call's input when not empty; the last hook
	// that rewrote it wins, and UpdatedBy names it. It is empty when the
	// call is blocked. The pipeline must re-check a rewritten input.
	UpdatedInput json.RawMessage
	UpdatedBy    string
	// AdditionalContext is every hook's context for the model, one per line.
	AdditionalContext string
	// Outcomes are the hooks' own verdicts, in the order they ran.
	Outcomes []Outcome
}

// PreToolUse runs the PreToolUse hooks matching in.ToolName and folds their
// verdicts. The first hook that blocks, denies, ends the run or fails ends
// the chain and blocks the call. A failure blocks because a hook that
// crashed, timed out or printed garbage has not approved anything (H6,
// fail closed). Of the rest, an ask wins over an allow, as in Claude
// Code: one hook's "ask" shows the dialog whatever another allowed.
func (r *Registry) PreToolUse(ctx context.Context, in Input) PreVerdict {
	in.HookEventName = PreToolUse
	v := PreVerdict{Outcomes: r.run(ctx, in, endsPreToolUse)}
	var notes []string
	for _, o := range v.Outcomes {
		if o.AdditionalContext != "" {
			notes = append(notes, o.AdditionalContext)
		}
		switch {
		case o.Err != nil:
			v.Block, v.Hook = true, o.Hook
			v.Reason = fmt.Sprintf("PreToolUse hook %q failed, so the call was blocked: %v", o.Hook, o.Err)
		case o.Prevent:
			v.Block, v.Prevent, v.StopReason, v.Hook = true, true, o.StopReason, o.Hook
			v.Reason = firstNonEmpty(o.Reason, o.StopReason, fmt.Sprintf("PreToolUse hook %q stopped the run", o.Hook))
		case o.blocks():
			v.Block, v.Hook = true, o.Hook
			v.Reason = firstNonEmpty(o.Reason, fmt.Sprintf("blocked by PreToolUse hook %q", o.Hook))
		default:
			if o.PermissionDecision == "ask" && !v.Ask {
				v.Ask, v.Hook = true, o.Hook
				v.Reason = firstNonEmpty(o.Reason, fmt.Sprintf("PreToolUse hook %q asks for approval", o.Hook))
			}
			if o.PermissionDecision == "allow" && !v.Allow {
				v.Allow, v.AllowedBy = true, o.Hook
				v.AllowReason = firstNonEmpty(o.Reason, fmt.Sprintf("PreToolUse hook %q allowed the call", o.Hook))
			}
			if len(o.UpdatedInput) > 0 {
				v.UpdatedInput, v.UpdatedBy = o.UpdatedInput, o.Hook
			}
		}
	}
	if v.Block {
		v.UpdatedInput, v.UpdatedBy = nil, ""
	}
	if v.Block || v.Ask {
		v.Allow, v.AllowedBy, v.AllowReason = false, "", ""
	}
	v.AdditionalContext = strings.Join(notes, "\n")
	return v
}

// endsPreToolUse reports whether a PreToolUse outcome blocks the call, so
// no later hook needs to run.
func endsPreToolUse(o Outcome) bool {
	return o.Err != nil || o.Prevent || o.blocks()
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
