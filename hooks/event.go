package hooks

// Event names a point in a session where hooks run. The values are the
// names users write as keys in their settings, so they are kept verbatim.
type Event string

// The events. Only the three tool events look at a hook's matcher.
const (
	PreToolUse         Event = "PreToolUse"         // before a tool runs; may block, ask or rewrite its input
	PostToolUse        Event = "PostToolUse"        // after every tool call, with its result
	PostToolUseFailure Event = "PostToolUseFailure" // after a tool call whose result is an error
	UserPromptSubmit   Event = "UserPromptSubmit"   // a prompt is about to be sent; may block or add context
	SessionStart       Event = "SessionStart"       // a session starts, resumes or is cleared; may add context
	SessionEnd         Event = "SessionEnd"         // the session is ending, however it ends
	Stop               Event = "Stop"               // the model ended a turn without a tool call
	SubagentStart      Event = "SubagentStart"      // a child agent is about to start
	PreCompact         Event = "PreCompact"         // the conversation is about to be compacted (trigger manual or auto)
)

// Events lists every event in the order of a session's life, for help text
// and for validating settings.
var Events = []Event{
	SessionStart, UserPromptSubmit, PreToolUse, PostToolUse,
	PostToolUseFailure, SubagentStart, Stop, PreCompact, SessionEnd,
}

// Valid reports whether e is one of the events, so a typo in settings
// ("PreTooluse") is an error instead of a hook that silently never runs.
func (e Event) Valid() bool {
	for _, k := range Events {
		if e == k {
			return true
		}
	}
	return false
}

// usesMatcher reports whether hooks for e are filtered by tool name.
func (e Event) usesMatcher() bool {
	return e == PreToolUse || e == PostToolUse || e == PostToolUseFailure
}
