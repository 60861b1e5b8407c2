package taskstools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"time"

	"github.com/seed92b641c3/workbench/tasks"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed taskoutput.md
var taskOutputPrompt string

// Bounds of TaskOutput's wait and read. The wait matches Bash's longest
// timeout; the read is capped so one call cannot pull a whole log into
// memory (the result is capped to the session's limit after that anyway).
const (
	defaultWaitMS = 30000
	maxWaitMS     = 600000
	defaultBytes  = tasks.DefaultTail
	maxBytes      = 1 << 20
)

var taskOutputSchema = fmt.Sprintf(`{
  "type": "object",
  "properties": {
    "task_id": {"type": "string", "minLength": 1, "description": "The task's id, such as task_3."},
    "block": {"type": "boolean", "default": false, "description": "Wait for the task to end (up to timeout_ms) before reading its output."},
    "timeout_ms": {"type": "integer", "minimum": 0, "maximum": %d, "default": %d, "description": "With block, the longest wait in milliseconds (default %d, at most %d)."},
    "max_bytes": {"type": "integer", "minimum": 1, "maximum": %d, "default": %d, "description": "How many bytes from the end of the output to return (default %d)."}
  },
  "required": ["task_id"],
  "additionalProperties": false
}`, maxWaitMS, defaultWaitMS, defaultWaitMS, maxWaitMS, maxBytes, defaultBytes, defaultBytes)

type taskOutputInput struct {
	TaskID    string `json:"task_id"`
	Block     bool   `json:"block"`
	TimeoutMS int64  `json:"timeout_ms"`
	MaxBytes  int    `json:"max_bytes"`
}

// TaskOutput returns the tool that reads a task's output. It only reads, so
// it is read-only, may run beside other calls and needs no approval; its
// text goes through the pipeline's capture like any result. Nil without a
// manager.
func TaskOutput(m *tasks.Manager) tools.Tool {
	if m == nil {
		return nil
	}
	return tools.Build(tools.Spec{
		Name:            "TaskOutput",
		Description:     "Read the output of a background task by its id, optionally waiting for it to end first.",
		Prompt:          taskOutputPrompt,
		Schema:          taskOutputSchema,
		ReadOnly:        tools.Always,
		ConcurrencySafe: tools.Always,
		Permission:      tools.AllowSelf,
		Run: func(ctx context.Context, input json.RawMessage, _ *tools.Context) (tools.Result, error) {
			return runTaskOutput(ctx, m, input)
		},
	})
}

func runTaskOutput(ctx context.Context, m *tasks.Manager, input json.RawMessage) (tools.Result, error) {
	in := taskOutputInput{TimeoutMS: defaultWaitMS, MaxBytes: defaultBytes}
	if err := json.Unmarshal(input, &in); err != nil {
		return tools.Result{}, fmt.Errorf("input: %w", err)
	}
	s, ok := m.Get(in.TaskID)
	if !ok {
		return unknown(m, in.TaskID), nil
	}
	var note string
	if in.Block && s.Running() {
		wait := time.Duration(min(max(in.TimeoutMS, 0), maxWaitMS)) * time.Millisecond
		var err error
		s, err = m.Wait(ctx, in.TaskID, wait)
		switch {
		case err != nil && ctx.Err() != nil:
			note = "[stopped waiting: the call was interrupted]"
		case isUnknown(err):
			return unknown(m, in.TaskID), nil
		case s.Running():
			note = fmt.Sprintf("[still running after waiting %v]", wait)
		}
	}
	out, err := m.Output(in.TaskID, min(max(in.MaxBytes, 1), maxBytes))
	if isUnknown(err) {
		return unknown(m, in.TaskID), nil
	}
	if err != nil {
		return tools.Result{}, err
	}
	text := header(s) + "\n"
	if note != "" {
		text += note + "\n"
	}
	switch {
	case out != "":
		text += out
	case s.Running():
		text += "(no output yet)"
	default:
		text += "(no output)"
	}
	if s.Refusal != "" {
		text += "\n[" + s.Refusal + "]"
	}
	return withMeta(tools.Text(text), metaOf(s)), nil
}
