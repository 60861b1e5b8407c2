package hooks

import (
	"context"
	"encoding/json"
	"time"
)

// Func is an in-process hook. Its timeout is ctx's deadline: it must
// return once ctx is done, or be registered with OnIsolated (see
// Registry.Run).
type Func func(ctx context.Context, in Input) Outcome

// Outcome is one hook's verdict, kept whole so the transcript can record
// what each hook said and how long it took (H7). The aggregating methods
// turn a list of them into a decision.
type Outcome struct {
	// Hook names the hook for people: the command text, or the name given
	// to On. The registry sets it.
	Hook string
	// Block asks to stop what the event is about: the tool call
	// (PreToolUse), the prompt (UserPromptSubmit), or the model's wish to
	// stop (Stop, where it means "keep going"). Reason says why.
	Block  bool
	Reason string
	// PermissionDecision is "allow", "deny", "ask" or "" (PreToolUse;
	// PermissionRequest answers "allow" or "deny"). A deny blocks like
	// Block does. The older `"decision": "approve"` of a PreToolUse hook
	// reads as "allow".
	PermissionDecision string
	// UpdatedInput, when not empty, replaces the tool's input (PreToolUse,
	// and PermissionRequest with "allow"). It is re-checked like any
	// rewrite (H2).
	UpdatedInput json.RawMessage
	// AdditionalContext is text for the model.
	AdditionalContext string
	// Prevent ends the whole run, not just this step; StopReason is shown
	// to the person. It comes from `"continue": false`.
	Prevent    bool
	StopReason string
	// SuppressOutput asks the host not to show the hook's output.
	SuppressOutput bool
	// Stdout is what a command hook printed on stdout when it exited 0,
	// trimmed and cut at StdoutRecorded bytes, for the host to record and
	// show unless SuppressOutput says not to.
	Stdout string
	// SystemMessage is a note for the person (not the model), shown in the
	// UI's notices and on stderr in headless runs.
	SystemMessage string
	// Err is set when the hook failed to give a verdict: it crashed,
	// panicked, timed out, exited with an unexpected status or printed
	// invalid JSON. A failed PreToolUse hook blocks the call (H6).
	Err error
	// Duration is how long the hook ran. The registry sets it.
	Duration time.Duration
}

// blocks reports whether o stops the step its event is about.
func (o Outcome) blocks() bool {
	return o.Block || o.PermissionDecision == "deny"
}
