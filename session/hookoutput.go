package session

import (
	"fmt"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/hooks"
)

// hookMessage is the line that shows a hook's systemMessage to the person,
// naming the event and the hook so a note is never taken for Workbench's
// own; "" when the hook had nothing to say.
func hookMessage(in hooks.Input, o hooks.Outcome) string {
	if o.SystemMessage == "" {
		return ""
	}
	return fmt.Sprintf("%s hook %s: %s", in.HookEventName, o.Hook, o.SystemMessage)
}

// tellPerson shows a hook's message: a notice in the conversation (the
// TUI, stream-json) and, headless, the entry point's own line on stderr.
func tellPerson(w Wiring, msg string) {
	if w.Publish != nil {
		w.Publish(agent.Event{Kind: agent.EventNotice, Text: msg})
	}
	if w.HookMessage != nil {
		w.HookMessage(msg)
	}
}

// recordOutput adds to a hook's transcript entry what it printed and the
// output fields it gave; suppressOutput keeps its stdout out of the record.
func recordOutput(rec map[string]any, o hooks.Outcome) {
	switch {
	case o.SuppressOutput:
		rec["suppress_output"] = true
	case o.Stdout != "":
		rec["stdout"] = o.Stdout
	}
	if o.SystemMessage != "" {
		rec["system_message"] = o.SystemMessage
	}
	if o.Prevent {
		rec["continue"], rec["stop_reason"] = false, o.StopReason
	}
	if o.AdditionalContext != "" && !o.SuppressOutput {
		rec["additional_context"] = o.AdditionalContext
	}
}
