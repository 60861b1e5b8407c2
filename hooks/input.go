package hooks

import "encoding/json"

// Input is what a hook is told about the event. A command hook receives it
// as one JSON object on stdin; the snake_case field names are the ones
// Claude Code's hooks reference documents, so scripts written for it work
// unchanged. Which fields are filled depends on the event.
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path,omitempty"`
	// Cwd is the project directory. Command hooks run there and find it in
	// WORKBENCH_PROJECT_DIR and CLAUDE_PROJECT_DIR.
	Cwd string `json:"cwd"`
	// ProjectDir is the project root, when the session started below it:
	// what WORKBENCH_PROJECT_DIR and CLAUDE_PROJECT_DIR name. Empty means
	// Cwd.
	ProjectDir string `json:"-"`
	// PermissionMode is the session's permission mode when the event fired
	// ("default", "plan", "acceptEdits", "bypassPermissions", ...); every
	// event carries it.
	PermissionMode string `json:"permission_mode,omitempty"`
	// HookEventName selects which hooks Run runs. The aggregating methods
	// (PreToolUse, Post, Stop, UserPrompt, ...) set it themselves.
	HookEventName Event `json:"hook_event_name"`

	// Tool events (and PermissionRequest).
	ToolName  string          `json:"tool_name,omitempty"`
	ToolInput json.RawMessage `json:"tool_input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	// ToolResponse is the tool's result (PostToolUse, PostToolUseFailure),
	// in the shape of the tool (Bash: stdout, stderr, interrupted; Read:
	// the file; Write and Edit: filePath and success).
	ToolResponse json.RawMessage `json:"tool_response,omitempty"`
	IsError      bool            `json:"is_error,omitempty"`
	// Error is the failed call's message (PostToolUseFailure).
	Error string `json:"error,omitempty"`
	// IsInterrupt says the call failed because the person interrupted the
	// turn (Esc, Ctrl-C). PostToolUseFailure always carries it, false
	// included (see MarshalJSON).
	IsInterrupt bool `json:"-"`

	// Prompt is the user's text (UserPromptSubmit).
	Prompt string `json:"prompt,omitempty"`
	// StopHookActive is true when the model is already continuing because a
	// Stop hook asked it to, so a hook can avoid looping forever. Stop and
	// SubagentStop always carry it, false included (see MarshalJSON).
	StopHookActive bool `json:"-"`
	// AgentType names the subagent (SubagentStart, SubagentStop, and every
	// event of a subagent's own calls); SubagentStart and SubagentStop
	// matchers test it. AgentID is that subagent's id (its Agent call's id,
	// nested ones joined with "/"), set wherever AgentType is.
	AgentType string `json:"agent_type,omitempty"`
	AgentID   string `json:"agent_id,omitempty"`
	// AgentTranscriptPath is where the subagent's calls are recorded
	// (SubagentStop): the session's transcript, under the Agent call's id.
	AgentTranscriptPath string `json:"agent_transcript_path,omitempty"`
	// LastAssistantMessage is the model's last text before it stopped
	// (Stop, SubagentStop), so a hook need not parse the transcript.
	LastAssistantMessage string `json:"last_assistant_message,omitempty"`
	// Source is how the session began: "startup", "resume", "clear" or
	// "compact" (SessionStart); SessionStart matchers test it.
	Source string `json:"source,omitempty"`
	// Reason is why the session ended: "clear", "logout",
	// "prompt_input_exit" or "other" (SessionEnd); SessionEnd matchers
	// test it.
	Reason string `json:"reason,omitempty"`
	// Message is the notification's text and NotificationType its kind,
	// "permission_prompt" or "idle_prompt" (Notification); Notification
	// matchers test the type.
	Message          string `json:"message,omitempty"`
	NotificationType string `json:"notification_type,omitempty"`
	// Trigger is "manual" (/compact) or "auto" (PreCompact), with the
	// person's instructions for a manual compaction.
	Trigger            string `json:"trigger,omitempty"`
	CustomInstructions string `json:"custom_instructions,omitempty"`
}

// MarshalJSON writes the input as hook scripts read it: stop_hook_active
// is present, true or false, in Stop and SubagentStop events, and
// is_interrupt in PostToolUseFailure (Claude Code's reference shows them
// in both states), and absent elsewhere.
func (in Input) MarshalJSON() ([]byte, error) {
	type plain Input
	if in.HookEventName == PostToolUseFailure {
		return json.Marshal(struct {
			plain
			IsInterrupt bool `json:"is_interrupt"`
		}{plain(in), in.IsInterrupt})
	}
	if in.HookEventName == Stop || in.HookEventName == SubagentStop {
		return json.Marshal(struct {
			plain
			StopHookActive bool `json:"stop_hook_active"`
		}{plain(in), in.StopHookActive})
	}
	return json.Marshal(plain(in))
}
