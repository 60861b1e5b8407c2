package hooks

// Event names a point in a session where hooks run. The values are the
// names users write as keys in their settings, so they are kept verbatim.
type Event string

// The events Workbench fires, in the names Claude Code's hooks reference
// gives them, so hook scripts written for it find the points they expect.
const (
	PreToolUse         Event = "PreToolUse"         // before a tool runs; may allow, ask, block or rewrite its input
	PermissionRequest  Event = "PermissionRequest"  // a call is about to ask a person; may answer allow or deny
	PostToolUse        Event = "PostToolUse"        // after every tool call, with its result
	PostToolUseFailure Event = "PostToolUseFailure" // after a tool call whose result is an error
	Notification       Event = "Notification"       // an approval waits, or the agent waits for input
	UserPromptSubmit   Event = "UserPromptSubmit"   // a prompt is about to be sent; may block or add context
	SessionStart       Event = "SessionStart"       // a session starts, resumes, is cleared or compacted; may add context
	SessionEnd         Event = "SessionEnd"         // the session is ending, however it ends
	Stop               Event = "Stop"               // the model ended a turn without a tool call
	SubagentStart      Event = "SubagentStart"      // a child agent is about to start
	SubagentStop       Event = "SubagentStop"       // a child agent ended its work
	PreCompact         Event = "PreCompact"         // the conversation is about to be compacted (manual or auto)
)

// Events lists every event in the order of a session's life, for help text
// and for validating settings.
var Events = []Event{
	SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse,
	PostToolUseFailure, Notification, SubagentStart, SubagentStop, PreCompact, Stop, SessionEnd,
}

// Valid reports whether e is one of the events Workbench fires. Settings
// naming any other event are not refused (a file written for a newer
// Claude Code must not stop Workbench); Load reports them as ignored.
func (e Event) Valid() bool {
	for _, k := range Events {
		if e == k {
			return true
		}
	}
	return false
}

// usesMatcher reports whether hooks for e are filtered by a matcher.
func (e Event) usesMatcher() bool {
	switch e {
	case UserPromptSubmit, Stop:
		return false
	}
	return true
}

// matchSubject is the value an event's matcher is tested against: the tool
// name for the tool events, notification_type for Notification, source for
// SessionStart, reason for SessionEnd, trigger for PreCompact and the agent
// type for SubagentStart and SubagentStop, as Claude Code's hooks reference
// documents them.
func (in Input) matchSubject() string {
	switch in.HookEventName {
	case Notification:
		return in.NotificationType
	case SessionStart:
		return in.Source
	case SessionEnd:
		return in.Reason
	case PreCompact:
		return in.Trigger
	case SubagentStart, SubagentStop:
		return in.AgentType
	}
	return in.ToolName
}
