// Package provider defines how Workbench talks to a model: the conversation
// types the agent loop keeps, one request shape, and one streaming event
// shape that every backend (Anthropic, OpenAI-compatible, scripted) speaks.
//
// The loop never sees an SDK type. A backend converts a Request into its wire
// format, and converts what the server streams back into Events, so the UI and
// the transcript work the same whatever model is behind them.
package provider

import (
	"context"
	"encoding/json"
)

// Role says who wrote a Message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// BlockType says which fields of a Block are in use.
type BlockType string

const (
	BlockText       BlockType = "text"        // Text
	BlockThinking   BlockType = "thinking"    // Thinking, Signature
	BlockToolUse    BlockType = "tool_use"    // ToolUseID, ToolName, Input
	BlockToolResult BlockType = "tool_result" // ToolUseID, Content, IsError
)

// Block is one piece of a Message. A user message holds text and tool results;
// an assistant message holds text, thinking and tool uses.
type Block struct {
	Type     BlockType `json:"type"`
	Text     string    `json:"text,omitempty"`
	Thinking string    `json:"thinking,omitempty"`
	// Signature is Anthropic's seal on a thinking block. It must be sent back
	// unchanged with the block, or the API rejects the conversation.
	Signature string          `json:"signature,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	ToolName  string          `json:"tool_name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	// Content is the text of a tool result.
	Content string `json:"content,omitempty"`
	IsError bool   `json:"is_error,omitempty"`
	// Images are pictures a tool result carries (an MCP server's image
	// content), sent to the model as image blocks after Content.
	Images []Image `json:"images,omitempty"`
}

// Image is one picture in a tool result: its media type ("image/png") and
// its bytes, which each backend encodes as its API wants.
type Image struct {
	MediaType string `json:"media_type"`
	Data      []byte `json:"data"`
}

// TextBlock returns a text block.
func TextBlock(text string) Block { return Block{Type: BlockText, Text: text} }

// ToolUseBlock returns a tool_use block; an empty input is stored as {}.
func ToolUseBlock(id, name string, input json.RawMessage) Block {
	if len(input) == 0 {
		input = json.RawMessage(`{}`)
	}
	return Block{Type: BlockToolUse, ToolUseID: id, ToolName: name, Input: input}
}

// ToolResultBlock returns the tool_result block that answers the tool use id.
func ToolResultBlock(id, content string, isError bool) Block {
	return Block{Type: BlockToolResult, ToolUseID: id, Content: content, IsError: isError}
}

// Message is one turn of the conversation.
type Message struct {
	Role   Role    `json:"role"`
	Blocks []Block `json:"blocks"`
}

// ToolUses returns the tool_use blocks of m in order.
func (m Message) ToolUses() []Block {
	var uses []Block
	for _, b := range m.Blocks {
		if b.Type == BlockToolUse {
			uses = append(uses, b)
		}
	}
	return uses
}

// ToolDef describes a tool the model may call. Schema is a JSON Schema object
// for the tool's input.
type ToolDef struct {
	Name        string
	Description string
	Schema      json.RawMessage
}

// Request is everything a provider needs for one assistant message.
type Request struct {
	// Model overrides the provider's model when not empty.
	Model    string
	System   string
	Messages []Message
	Tools    []ToolDef
	// MaxTokens caps the reply; zero means the provider's default.
	MaxTokens int
}

// Provider streams one assistant message per call.
//
// Stream returns an error when the request could not be started (bad key,
// unreachable server, rate limit); those errors are *Error values. Errors
// that happen while the stream runs come from Stream.Err.
type Provider interface {
	// Name is the backend's short name ("anthropic", "openai", "script").
	Name() string
	// Model is the model id used when a Request does not name one.
	Model() string
	Stream(ctx context.Context, req Request) (Stream, error)
}

// Stream is an iterator over the events of one assistant message:
//
//	defer s.Close()
//	for s.Next() {
//		ev := s.Event()
//		...
//	}
//	if err := s.Err(); err != nil { ... }
//
// A well-formed stream ends with an EventMessageStop. Next returns false when
// the message is complete, when an error happened, or when the context given
// to Provider.Stream is done; Err tells which. Close releases the connection
// and may be called more than once.
//
// A stream belongs to the goroutine that reads it; to stop it from elsewhere,
// cancel the context it was opened with.
type Stream interface {
	Next() bool
	Event() Event
	Err() error
	Close() error
}

// EventKind says which fields of an Event are set.
type EventKind string

const (
	// EventTextDelta: Text is more of the reply text of block Index.
	EventTextDelta EventKind = "text_delta"
	// EventThinkingDelta: Text is more of the thinking of block Index. When
	// Signature is set it is the block's signature (Text may then be empty).
	EventThinkingDelta EventKind = "thinking_delta"
	// EventToolUseStart: the model starts calling ToolName; ToolUseID names
	// the call.
	EventToolUseStart EventKind = "tool_use_start"
	// EventToolUseDelta: InputDelta is the next piece of the call's JSON input.
	EventToolUseDelta EventKind = "tool_use_delta"
	// EventToolUseStop: Input is the complete JSON input ({} when empty).
	EventToolUseStop EventKind = "tool_use_stop"
	// EventUsage: Usage holds the token counts of the whole message so far.
	EventUsage EventKind = "usage"
	// EventMessageStop: the message is complete; StopReason says why.
	EventMessageStop EventKind = "message_stop"
)

// Stop reasons, normalised across providers. A provider may pass through a
// reason of its own (Anthropic's "pause_turn" or "refusal") that has no
// equivalent elsewhere.
const (
	StopEndTurn   = "end_turn"
	StopToolUse   = "tool_use"
	StopMaxTokens = "max_tokens"
	StopSequence  = "stop_sequence"
	StopRefusal   = "refusal"
)

// Event is one step of a streamed assistant message.
type Event struct {
	Kind EventKind
	Text string
	// Index is the position of the block the event belongs to in the
	// assistant message, counted from zero in order of first appearance.
	Index      int
	ToolUseID  string
	ToolName   string
	InputDelta string
	Input      json.RawMessage
	Signature  string
	Usage      Usage
	StopReason string
}

// Usage counts tokens. InputTokens are the input tokens read without the
// cache, so the whole prompt is InputTokens + CacheRead + CacheWrite.
type Usage struct {
	InputTokens  int
	OutputTokens int
	CacheRead    int
	CacheWrite   int
}

// Prompt is the size of the whole prompt the response answered: what the
// request took of the model's context window, cached or not.
func (u Usage) Prompt() int { return u.InputTokens + u.CacheRead + u.CacheWrite }
