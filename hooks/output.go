package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// wireOutput is the JSON object a command hook may print on exit 0, in the
// field names existing hook scripts already print.
type wireOutput struct {
	Decision           string        `json:"decision"`
	Reason             string        `json:"reason"`
	Continue           *bool         `json:"continue"`
	StopReason         string        `json:"stopReason"`
	SuppressOutput     bool          `json:"suppressOutput"`
	HookSpecificOutput *wireSpecific `json:"hookSpecificOutput"`
}

// wireSpecific is the event-specific part of wireOutput.
type wireSpecific struct {
	HookEventName            string          `json:"hookEventName"`
	PermissionDecision       string          `json:"permissionDecision"`
	PermissionDecisionReason string          `json:"permissionDecisionReason"`
	UpdatedInput             json.RawMessage `json:"updatedInput"`
	AdditionalContext        string          `json:"additionalContext"`
}

// parseStdout reads the verdict of a hook that exited 0. Plain text is
// context for the model on the events that add context and is ignored on
// the others. Text that starts like a JSON object must be one, with values
// the protocol defines: a verdict we cannot read is a failure, never a
// silent approval.
func parseStdout(ev Event, stdout []byte, cut bool) Outcome {
	text := bytes.TrimSpace(stdout)
	if len(text) == 0 {
		return Outcome{}
	}
	if text[0] != '{' {
		if ev == UserPromptSubmit || ev == SessionStart {
			return Outcome{AdditionalContext: string(text)}
		}
		return Outcome{}
	}
	if cut {
		return Outcome{Err: fmt.Errorf("%w: more than %d bytes", ErrInvalidOutput, outputCap)}
	}
	var w wireOutput
	if err := json.Unmarshal(text, &w); err != nil {
		return Outcome{Err: fmt.Errorf("%w: %v", ErrInvalidOutput, err)}
	}
	o, err := w.outcome(ev)
	if err != nil {
		return Outcome{Err: fmt.Errorf("%w: %v", ErrInvalidOutput, err)}
	}
	return o
}

func (w wireOutput) outcome(ev Event) (Outcome, error) {
	o := Outcome{Reason: w.Reason, SuppressOutput: w.SuppressOutput}
	switch w.Decision {
	case "block":
		o.Block = true
	case "", "approve":
	default:
		return o, fmt.Errorf(`decision %q is not "block" or "approve"`, w.Decision)
	}
	if w.Continue != nil && !*w.Continue {
		o.Prevent, o.StopReason = true, w.StopReason
	}
	s := w.HookSpecificOutput
	if s == nil {
		return o, nil
	}
	if s.HookEventName != "" && Event(s.HookEventName) != ev {
		return o, fmt.Errorf("hookSpecificOutput is for %s, but the event is %s", s.HookEventName, ev)
	}
	switch s.PermissionDecision {
	case "", "allow", "deny", "ask":
		o.PermissionDecision = s.PermissionDecision
	default:
		return o, fmt.Errorf(`permissionDecision %q is not "allow", "deny" or "ask"`, s.PermissionDecision)
	}
	if s.PermissionDecisionReason != "" && !o.Block {
		o.Reason = s.PermissionDecisionReason
	}
	if u := bytes.TrimSpace(s.UpdatedInput); len(u) > 0 && string(u) != "null" {
		if u[0] != '{' {
			return o, fmt.Errorf("updatedInput must be a JSON object, not %s", clip(string(u), 40))
		}
		o.UpdatedInput = json.RawMessage(u)
	}
	o.AdditionalContext = s.AdditionalContext
	return o, nil
}

// clip shortens s for an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
