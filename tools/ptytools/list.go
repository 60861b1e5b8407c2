package ptytools

import (
	"context"
	_ "embed"
	"encoding/json"

	"github.com/seed92b641c3/workbench/tasks/pty"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed list.md
var listPrompt string

type listEntry struct {
	SessionID string    `json:"session_id"`
	Command   string    `json:"command"`
	State     pty.State `json:"state"`
	Mode      string    `json:"mode,omitempty"`
	IdleMS    int64     `json:"idle_ms"`
	Rows      int       `json:"rows"`
	Cols      int       `json:"cols"`
	ExitCode  *int      `json:"exit_code,omitempty"`
}

// ShellList lists the terminal sessions. It only reads.
func ShellList(m *pty.Manager) tools.Tool {
	return tools.Build(tools.Spec{
		Name:            "shell_list",
		Description:     "List the terminal sessions: id, command, state (running or exited), mode, and how long since each last printed.",
		Prompt:          listPrompt,
		ReadOnly:        tools.Always,
		ConcurrencySafe: tools.Always,
		Permission:      tools.AllowSelf,
		Run: func(context.Context, json.RawMessage, *tools.Context) (tools.Result, error) {
			entries := []listEntry{}
			for _, s := range agentSessions(m) {
				rows, cols := s.Size()
				entries = append(entries, listEntry{
					SessionID: s.ID(), Command: s.Command(), State: s.State(), Mode: s.Mode(),
					IdleMS: s.Idle().Milliseconds(), Rows: rows, Cols: cols, ExitCode: exitCode(s),
				})
			}
			return jsonResult(map[string]any{"sessions": entries}), nil
		},
	})
}
