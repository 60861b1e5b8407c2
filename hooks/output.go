package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// wireOutput is the JSON object a command hook may print on exit 0, in the
// field names Claude Code's hooks reference documents.
type wireOutput struct {
	Decision           string        `json:"decision"`
	Reason             string        `json:"reason"`
	Continue           *bool         `json:"continue"`
	StopReason         string        `json:"stopReason"`
	SuppressOutput     bool          `json:"suppressOutput"`
	SystemMessage      string        `json:"systemMessage"`
	HookSpecificOutput *wireSpecific `json:"hookSpecificOutput"`
}

// wireSpecific is the event-specific part of wireOutput.
type wireSpecific struct {
	HookEventName            string          `json:"hookEventName"`
	PermissionDecision       string          `json:"permissionDecision"`
	PermissionDecisionReason string          `json:"permissionDecisionReason"`
	UpdatedInput             json.RawMessage `json:"updatedInput"`
	AdditionalContext        string          `json:"additionalContext"`
	// CustomInstructions is a PreCompact hook's instructions for the
	// summary (the Agent SDK's name); it reads as AdditionalContext.
	CustomInstructions string `json:"customInstructions"`
	// Decision is PermissionRequest's answer.
	Decision *wirePermission `json:"decision"`
}

// wirePermission is a PermissionRequest hook's answer:
// {"behavior": "allow", "updatedInput": {...}} or
// {"behavior": "deny", "message": "...", "interrupt": true}.
type wirePermission struct {
	Behavior     string          `json:"behavior"`
	UpdatedInput json.RawMessage `json:"updatedInput"`
	Message      string          `json:"message"`
	Interrupt    bool            `json:"interrupt"`
}

// utf8BOM is what some editors and Windows tools put in front of text.
const utf8BOM = "\uFEFF"

// parseStdout reads the verdict of a hook that exited 0. Plain text is
// context for the model on the events that add context and is ignored on
// the others. Output that looks like JSON must be exactly one verdict
// object with values the protocol defines; anything else is a failure
// (which blocks a PreToolUse call), never a silent approval (H6, H15). It
// looks like JSON when its first line, or its last, starts with { or [, or
// its last line closes an object or array: a log line printed in front of
// the verdict must not turn a block into plain text.
func parseStdout(ev Event, stdout []byte, cut bool) Outcome {
	text := bytes.TrimSpace(bytes.TrimPrefix(stdout, []byte(utf8BOM)))
	if len(text) == 0 {
		return Outcome{}
	}
	if !looksLikeJSON(text) {
		if addsContext(ev) {
			return Outcome{AdditionalContext: string(text)}
		}
		return Outcome{}
	}
	if cut {
		return Outcome{Err: fmt.Errorf("%w: more than %d bytes", ErrInvalidOutput, outputCap)}
	}
	if text[0] != '{' {
		return Outcome{Err: fmt.Errorf("%w: the output must be one JSON object, got %s", ErrInvalidOutput, quote(text))}
	}
	var w wireOutput
	if err := json.Unmarshal(text, &w); err != nil {
		return Outcome{Err: fmt.Errorf("%w: %v; got %s", ErrInvalidOutput, err, quote(text))}
	}
	o, err := w.outcome(ev)
	if err != nil {
		return Outcome{Err: fmt.Errorf("%w: %v", ErrInvalidOutput, err)}
	}
	return o
}

// looksLikeJSON reports whether a hook's output is an attempt at a JSON
// verdict rather than plain text.
func looksLikeJSON(text []byte) bool {
	first, last := text, text
	if i := bytes.IndexByte(text, '\n'); i >= 0 {
		first = text[:i]
		last = bytes.TrimSpace(text[bytes.LastIndexByte(text, '\n')+1:])
	}
	first = bytes.TrimSpace(first)
	opens := func(b []byte) bool { return len(b) > 0 && (b[0] == '{' || b[0] == '[') }
	closes := func(b []byte) bool { return len(b) > 0 && (b[len(b)-1] == '}' || b[len(b)-1] == ']') && len(b) <= 2 }
	return opens(first) || opens(last) || closes(last)
}

// addsContext reports whether plain text on stdout is context for the
// model at ev, as Claude Code's reference says for these two events.
func addsContext(ev Event) bool {
	return ev == UserPromptSubmit || ev == SessionStart
}

// quote shows what a hook printed, shortened, for an error message.
func quote(text []byte) string {
	return strconv.Quote(clip(string(text), 120))
}

func (w wireOutput) outcome(ev Event) (Outcome, error) {
	o := Outcome{Reason: w.Reason, SuppressOutput: w.SuppressOutput, SystemMessage: w.SystemMessage}
	switch w.Decision {
	case "block":
		o.Block = true
	case "approve":
		if ev == PreToolUse {
			o.PermissionDecision = "allow"
		}
	case "":
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
	case "":
	case "allow", "deny", "ask":
		if ev != PreToolUse {
			return o, fmt.Errorf("permissionDecision belongs to PreToolUse, not %s", ev)
		}
		o.PermissionDecision = s.PermissionDecision
	default:
		return o, fmt.Errorf(`permissionDecision %q is not "allow", "deny" or "ask"`, s.PermissionDecision)
	}
	if s.PermissionDecisionReason != "" && !o.Block {
		o.Reason = s.PermissionDecisionReason
	}
	u, err := objectOrNothing(s.UpdatedInput)
	if err != nil {
		return o, err
	}
	o.UpdatedInput = u
	if d := s.Decision; d != nil {
		if err := d.apply(ev, &o); err != nil {
			return o, err
		}
	}
	o.AdditionalContext = s.AdditionalContext
	if ev == PreCompact && s.CustomInstructions != "" {
		o.AdditionalContext = strings.TrimSpace(o.AdditionalContext + "\n" + s.CustomInstructions)
	}
	return o, nil
}

// apply folds a PermissionRequest answer into o.
func (d wirePermission) apply(ev Event, o *Outcome) error {
	if ev != PermissionRequest {
		return fmt.Errorf("hookSpecificOutput.decision belongs to PermissionRequest, not %s", ev)
	}
	switch d.Behavior {
	case "allow":
		o.PermissionDecision = "allow"
		u, err := objectOrNothing(d.UpdatedInput)
		if err != nil {
			return err
		}
		if u != nil {
			o.UpdatedInput = u
		}
	case "deny":
		if len(bytes.TrimSpace(d.UpdatedInput)) > 0 && string(bytes.TrimSpace(d.UpdatedInput)) != "null" {
			return fmt.Errorf("updatedInput goes with behavior \"allow\", not \"deny\"")
		}
		o.PermissionDecision = "deny"
		o.Reason = firstNonEmpty(d.Message, o.Reason)
		if d.Interrupt {
			o.Prevent = true
			o.StopReason = firstNonEmpty(o.StopReason, d.Message)
		}
	default:
		return fmt.Errorf(`decision.behavior %q is not "allow" or "deny"`, d.Behavior)
	}
	return nil
}

// objectOrNothing checks an updatedInput: absent or null is nothing, an
// object is kept, anything else is an error.
func objectOrNothing(raw json.RawMessage) (json.RawMessage, error) {
	u := bytes.TrimSpace(raw)
	if len(u) == 0 || string(u) == "null" {
		return nil, nil
	}
	if u[0] != '{' {
		return nil, fmt.Errorf("updatedInput must be a JSON object, not %s", clip(string(u), 40))
	}
	return json.RawMessage(u), nil
}

// clip shortens s for an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
