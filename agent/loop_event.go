package agent

import (
	"encoding/json"

	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/tools"
)

// EventKind names what a loop Event carries.
type EventKind string

// What a session publishes while it runs. The UI and headless output are
// both views of this stream.
const (
	EventTurnStart    EventKind = "turn_start"   // Turn
	EventText         EventKind = "text"         // Text: a delta of the reply
	EventThinking     EventKind = "thinking"     // Text: a delta of thinking
	EventToolUse      EventKind = "tool_use"     // Call: input complete, queued to run
	EventToolResult   EventKind = "tool_result"  // Call, Result
	EventStage        EventKind = "stage"        // Stage
	EventUsage        EventKind = "usage"        // Usage: totals so far
	EventNotification EventKind = "notification" // Text: injected for the model
	EventNotice       EventKind = "notice"       // Text: for the person (retry, hook context)
	EventAssistant    EventKind = "assistant"    // Message: a finished assistant message
	EventDone         EventKind = "done"         // Outcome: the run ended
	// EventDiscard: the reply streamed since the turn started is dropped,
	// because its stream broke before any tool call and the turn is tried
	// again. The model never sees that partial reply, so a view that drew
	// it removes it; otherwise the retry draws the same words a second time.
	EventDiscard EventKind = "discard"
)

// Event is one thing that happened in a session.
type Event struct {
	Kind    EventKind
	Turn    int
	Text    string
	Call    *Call
	Result  *tools.Result
	Stage   *StageEvent
	Usage   provider.Usage
	Message *provider.Message
	Outcome *Outcome
}

// Stop reasons of a run.
const (
	StopCompleted = "completed"
	StopMaxTurns  = "max_turns"
	// StopMaxDuration: the run reached its MaxDuration (--max-duration).
	StopMaxDuration   = "max_duration"
	StopAborted       = "aborted"
	StopModelError    = "model_error"
	StopHookPrevented = "stop_hook_prevented"
	StopPromptBlocked = "prompt_blocked"
)

// Outcome is how a run of the loop ended.
type Outcome struct {
	StopReason string         `json:"stop_reason"`
	Turns      int            `json:"turns"`
	Text       string         `json:"text"`
	Usage      provider.Usage `json:"usage"`
	Err        error          `json:"-"`
	SessionID  string         `json:"session_id"`
}

// MarshalJSON includes the error text.
func (o Outcome) MarshalJSON() ([]byte, error) {
	type plain Outcome
	v := struct {
		plain
		Error string `json:"error,omitempty"`
	}{plain: plain(o)}
	if o.Err != nil {
		v.Error = o.Err.Error()
	}
	return json.Marshal(v)
}
