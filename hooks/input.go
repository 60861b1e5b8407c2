package hooks

import "encoding/json"

// Input is what a hook is told about the event. A command hook receives it
// as one JSON object on stdin; the snake_case field names are the ones
// existing hook scripts already parse, so those scripts work unchanged.
// Which fields are filled depends on the event.
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
	// HookEventName selects which hooks Run runs. The aggregating methods
	// (PreToolUse, Post, Stop, UserPrompt) set it themselves.
	HookEventName Event `json:"hook_event_name"`

	// Tool events.
	ToolName  string          `json:"tool_name,omitempty"`
	ToolInput json.RawMessage `json:"tool_input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	// ToolResponse is the tool's result (PostToolUse, PostToolUseFailure).
	ToolResponse json.RawMessage `json:"tool_response,omitempty"`
	IsError      bool            `json:"is_error,omitempty"`

	// Prompt is the user's text (UserPromptSubmit).
	Prompt string `json:"prompt,omitempty"`
	// StopHookActive is true when the model is already continuing because a
	// Stop hook asked it to, so a hook can avoid looping forever (Stop).
	StopHookActive bool `json:"stop_hook_active,omitempty"`
	// AgentType names the subagent being started (SubagentStart).
	AgentType string `json:"agent_type,omitempty"`
	// Source is how the session began: "startup", "resume", "clear", or
	// "compact" after a compaction (SessionStart).
	Source string `json:"source,omitempty"`
	// Trigger says who asked for a compaction: "manual" (/compact) or
	// "auto" (the context window filled up) (PreCompact).
	Trigger string `json:"trigger,omitempty"`
	// CustomInstructions are what the person gave /compact; empty for an
	// automatic compaction (PreCompact).
	CustomInstructions string `json:"custom_instructions,omitempty"`
	// Reason is why the session ended, e.g. "exit", "sigint", "sigterm"
	// (SessionEnd).
	Reason string `json:"reason,omitempty"`
}
