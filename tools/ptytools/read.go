package ptytools

import (
	"context"
	_ "embed"
	"encoding/json"

	"github.com/seed92b641c3/workbench/tasks/pty"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed read.md
var readPrompt string

const readSchema = `{
  "type": "object",
  "properties": {
    "session_id": {"type": "string", "minLength": 1, "description": "The session to read (sh_1, ...)."},
    "view": {"type": "string", "enum": ["stream", "screen"], "default": "stream", "description": "stream: the output since a cursor, as text. screen: what the terminal shows now."},
    "since_cursor": {"type": "integer", "minimum": 0, "description": "stream: read output after this position (a cursor an earlier result gave); default: where the last read of this session ended."},
    "max_lines": {"type": "integer", "minimum": 1, "maximum": 10000, "default": 200, "description": "stream: keep at most the last this many lines."},
    "max_bytes": {"type": "integer", "minimum": 1, "maximum": 1000000, "default": 8192, "description": "stream: keep at most the last this many bytes."},
    "drain": {"type": "boolean", "default": false, "description": "stream: ignore max_lines and max_bytes and return all new output (still within the result size limit)."}
  },
  "required": ["session_id"],
  "additionalProperties": false
}`

type readInput struct {
	SessionID   string `json:"session_id"`
	View        string `json:"view"`
	SinceCursor *int64 `json:"since_cursor"`
	MaxLines    int    `json:"max_lines"`
	MaxBytes    int    `json:"max_bytes"`
	Drain       bool   `json:"drain"`
}

// Defaults of a stream read, as the schema states them.
const (
	readMaxLines = 200
	readMaxBytes = 8192
)

type cursorPos struct {
	Row int `json:"row"`
	Col int `json:"col"`
}

type readResult struct {
	View      string  `json:"view"`
	SessionID string  `json:"session_id"`
	Output    *string `json:"output,omitempty"`
	Screen    *string `json:"screen,omitempty"`
	Rows      int     `json:"rows,omitempty"`
	Cols      int     `json:"cols,omitempty"`
	Title     string  `json:"title,omitempty"`
	Cursor    any     `json:"cursor"`
	Running   bool    `json:"running"`
	Omitted   bool    `json:"omitted,omitempty"`
	ExitCode  *int    `json:"exit_code,omitempty"`
	// Sandbox explains a refusal of the sandbox the output or screen
	// shows.
	Sandbox string `json:"sandbox,omitempty"`
}

// ShellRead reads a session's output as a stream of text since a cursor, or
// its screen as the terminal shows it. It only reads, so it needs no
// approval and runs beside other calls.
func ShellRead(m *pty.Manager) tools.Tool {
	return tools.Build(tools.Spec{
		Name:            "shell_read",
		Description:     "Read a terminal session: the new output since the last read (view \"stream\") or the screen as it looks now (view \"screen\"), for full-screen programs.",
		Prompt:          readPrompt,
		Schema:          readSchema,
		ReadOnly:        tools.Always,
		ConcurrencySafe: tools.Always,
		Permission:      tools.AllowSelf,
		Run: func(_ context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
			return runRead(m, input, tc)
		},
	})
}

func runRead(m *pty.Manager, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
	in, err := decode[readInput](input)
	if err != nil {
		return tools.Result{}, err
	}
	s, bad := session(m, in.SessionID)
	if bad != nil {
		return *bad, nil
	}
	res := readResult{View: in.View, SessionID: s.ID()}
	if in.View == "screen" {
		sc := s.Snapshot()
		text := sc.Text()
		if budget := outputBudget(tc); len(text) > budget {
			text, res.Omitted = tailBytes(text, budget), true
		}
		res.Screen, res.Rows, res.Cols, res.Title = &text, sc.Rows, sc.Cols, sc.Title
		res.Sandbox = s.Explain(text)
		res.Cursor = cursorPos{Row: sc.CursorRow, Col: sc.CursorCol}
	} else {
		res.View = "stream"
		from := s.Mark()
		if in.SinceCursor != nil {
			from = *in.SinceCursor
		}
		maxLines, maxBytes := in.MaxLines, in.MaxBytes
		if maxLines <= 0 {
			maxLines = readMaxLines
		}
		if maxBytes <= 0 {
			maxBytes = readMaxBytes
		}
		if in.Drain {
			maxLines, maxBytes = 0, 0
		}
		out := readOutput(s, from, maxBytes, maxLines, tc)
		if in.SinceCursor == nil {
			s.SetMark(out.next)
		}
		res.Output, res.Cursor, res.Omitted, res.Sandbox = &out.text, out.next, out.omitted, out.refusal
	}
	res.Running = s.State() == pty.Running
	res.ExitCode = exitCode(s)
	return jsonResult(res), nil
}
