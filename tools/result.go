package tools

import (
	"encoding/json"
	"os"
)

// Result is what a call returns to the model.
type Result struct {
	// Text is the content the model reads.
	Text string
	// IsError marks a failed call; the model sees it as an error result.
	IsError bool
	// Captured says the text already went through output capture, so the
	// pipeline must not cap it again. It is a flag, never read from the text
	// (H8): output that quotes a notice is still capped.
	Captured bool
	// Spill describes the file holding the full output, when there is one.
	Spill *Spill
	// Extra holds messages that follow the result in the conversation (a
	// skill's instructions, say).
	Extra []string
	// Images are pictures for the model (an MCP tool's image content),
	// sent beside Text in the tool result.
	Images []Image
	// Meta carries structured details for the UI and transcript (a diff, a
	// task id); the model never sees it.
	Meta json.RawMessage
}

// Image is one picture a tool returns: its media type and bytes.
type Image struct {
	MediaType string
	Data      []byte
}

// Text builds a success result.
func Text(s string) Result { return Result{Text: s} }

// Error builds an error result with a message for the model.
func Error(msg string) Result { return Result{Text: msg, IsError: true} }

func homeDir() string {
	h, _ := os.UserHomeDir()
	return h
}
