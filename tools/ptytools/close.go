package ptytools

import (
	"context"
	_ "embed"
	"encoding/json"

	"github.com/seed92b641c3/workbench/tasks/pty"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed close.md
var closePrompt string

const closeSchema = `{
  "type": "object",
  "properties": {
    "session_id": {"type": "string", "minLength": 1, "description": "The session to close (sh_1, ...)."}
  },
  "required": ["session_id"],
  "additionalProperties": false
}`

type closeInput struct {
	SessionID string `json:"session_id"`
}

type closeResult struct {
	SessionID string `json:"session_id"`
	Closed    bool   `json:"closed"`
	ExitCode  *int   `json:"exit_code"`
}

// ShellClose stops a session's program and everything it started, and
// forgets the session. Stopping what a session runs needs no approval.
func ShellClose(m *pty.Manager) tools.Tool {
	return tools.Build(tools.Spec{
		Name:        "shell_close",
		Description: "Close a terminal session: stop its program and everything it started, and remove the session.",
		Prompt:      closePrompt,
		Schema:      closeSchema,
		Permission:  tools.AllowSelf,
		Run: func(_ context.Context, input json.RawMessage, _ *tools.Context) (tools.Result, error) {
			in, err := decode[closeInput](input)
			if err != nil {
				return tools.Result{}, err
			}
			if _, bad := session(m, in.SessionID); bad != nil {
				return *bad, nil
			}
			s, err := m.Close(in.SessionID)
			if err != nil {
				return tools.Error(err.Error()), nil
			}
			return jsonResult(closeResult{SessionID: s.ID(), Closed: true, ExitCode: exitCode(s)}), nil
		},
	})
}
