// Package script is a Provider that plays a JSON script instead of calling a
// model, so Workbench runs with no model configured (the built-in demo) and
// tests of the agent loop are deterministic.
//
// A script is a list of turns, each one assistant message:
//
//	{"turns": [
//	  {"text": "Let me look.", "tool_calls": [{"name": "Bash", "input": {"command": "ls"}}]},
//	  {"text": "Done."}
//	]}
//
// Each Stream call plays the next turn. After a turn with tool calls the
// next request must carry their results, as a real API demands. Past the last
// turn every call answers an empty message that ends the turn, so a run
// always finishes.
package script

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/seed92b641c3/workbench/agent/provider"
)

// Script is a parsed, validated script.
type Script struct {
	Turns []Turn
	// name is what Provider.Model reports: "demo", the file's name, or
	// "script".
	name string
}

// Turn is one assistant message.
type Turn struct {
	Text     string `json:"text,omitempty"`
	Thinking string `json:"thinking,omitempty"`
	// ToolCalls are made in order, after the text.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// DelayMS, when set, paces the turn for people watching: text arrives
	// a word at a time with this pause before each piece.
	DelayMS int `json:"delay_ms,omitempty"`
	// StopReason overrides the stop reason, which is otherwise tool_use
	// for a turn with tool calls and end_turn for one without.
	StopReason string `json:"stop_reason,omitempty"`
	// PromptTokens is the prompt size the turn's usage reports, so a
	// script can fill the context window without being long.
	PromptTokens int `json:"prompt_tokens,omitempty"`
}

// ToolCall is one tool call of a turn. A call without an id gets
// "call_<turn>_<i>", both counted from zero, so ids are stable across runs.
type ToolCall struct {
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input,omitempty"`
}

//go:embed demo.json
var demoJSON []byte

// Demo returns the built-in demo, played when no provider is configured. It
// says it is a demo and how to configure a model, reads the current
// directory (LS, Glob), then asks to run one harmless command (echo) so the
// approval dialog shows.
func Demo() *Script {
	s, err := Parse(demoJSON)
	if err != nil {
		panic("script: the built-in demo is invalid: " + err.Error())
	}
	s.name = "demo"
	return s
}

// Load reads and parses the script at path.
func Load(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("script: %w", err)
	}
	s, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return s, nil
}

// Parse parses and validates a script. Unknown fields are errors, so a typo
// ("tool_call") is reported instead of silently doing nothing.
func Parse(data []byte) (*Script, error) {
	var top struct {
		Turns []json.RawMessage `json:"turns"`
	}
	if err := strictDecode(data, &top); err != nil {
		return nil, fmt.Errorf("script: %w", err)
	}
	if len(top.Turns) == 0 {
		return nil, errors.New(`script: it has no turns (want {"turns": [...]})`)
	}
	s := &Script{name: "script"}
	ids := map[string]string{}
	for i, raw := range top.Turns {
		var t Turn
		if err := strictDecode(raw, &t); err != nil {
			return nil, fmt.Errorf("script: turns[%d]: %w", i, err)
		}
		if err := validate(&t, i, ids); err != nil {
			return nil, fmt.Errorf("script: %w", err)
		}
		s.Turns = append(s.Turns, t)
	}
	return s, nil
}

func validate(t *Turn, i int, ids map[string]string) error {
	if t.DelayMS < 0 {
		return fmt.Errorf("turns[%d]: delay_ms is negative", i)
	}
	switch t.StopReason {
	case "", provider.StopEndTurn, provider.StopToolUse, provider.StopMaxTokens, provider.StopSequence:
	default:
		return fmt.Errorf("turns[%d]: unknown stop_reason %q", i, t.StopReason)
	}
	for j := range t.ToolCalls {
		c := &t.ToolCalls[j]
		where := fmt.Sprintf("turns[%d].tool_calls[%d]", i, j)
		if c.Name == "" {
			return fmt.Errorf("%s: name is required", where)
		}
		if len(c.Input) == 0 {
			c.Input = json.RawMessage(`{}`)
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(c.Input, &obj); err != nil || obj == nil {
			return fmt.Errorf("%s: input must be a JSON object", where)
		}
		if c.ID == "" {
			c.ID = fmt.Sprintf("call_%d_%d", i, j)
		}
		if prev, dup := ids[c.ID]; dup {
			return fmt.Errorf("%s: id %q is already used by %s", where, c.ID, prev)
		}
		ids[c.ID] = where
	}
	return nil
}

// strictDecode decodes one JSON value, refusing unknown fields and anything
// after the value.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the script")
	}
	return nil
}
