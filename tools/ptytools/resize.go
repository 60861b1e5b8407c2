package ptytools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/seed92b641c3/workbench/tasks/pty"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed resize.md
var resizePrompt string

const resizeSchema = `{
  "type": "object",
  "properties": {
    "session_id": {"type": "string", "minLength": 1, "description": "The session to resize (sh_1, ...)."},
    "rows": {"type": "integer", "minimum": 2, "maximum": 500, "description": "New terminal height."},
    "cols": {"type": "integer", "minimum": 10, "maximum": 1000, "description": "New terminal width."}
  },
  "required": ["session_id", "rows", "cols"],
  "additionalProperties": false
}`

type resizeInput struct {
	SessionID string `json:"session_id"`
	Rows      int    `json:"rows"`
	Cols      int    `json:"cols"`
}

type resizeResult struct {
	SessionID string `json:"session_id"`
	Rows      int    `json:"rows"`
	Cols      int    `json:"cols"`
	Running   bool   `json:"running"`
}

// ShellResize changes a session's terminal size; the program is told (it
// gets SIGWINCH) and redraws. It changes only the view, so it needs no
// approval.
func ShellResize(m *pty.Manager) tools.Tool {
	return tools.Build(tools.Spec{
		Name:        "shell_resize",
		Description: "Change the size of a terminal session; the program is told and redraws, as when a person resizes the window.",
		Prompt:      resizePrompt,
		Schema:      resizeSchema,
		Permission:  tools.AllowSelf,
		Run: func(_ context.Context, input json.RawMessage, _ *tools.Context) (tools.Result, error) {
			in, err := decode[resizeInput](input)
			if err != nil {
				return tools.Result{}, err
			}
			s, bad := session(m, in.SessionID)
			if bad != nil {
				return *bad, nil
			}
			if err := s.Resize(in.Rows, in.Cols); err != nil {
				return tools.Error(fmt.Sprintf("Cannot resize %s: %v", s.ID(), err)), nil
			}
			rows, cols := s.Size()
			return jsonResult(resizeResult{SessionID: s.ID(), Rows: rows, Cols: cols, Running: s.State() == pty.Running}), nil
		},
	})
}
