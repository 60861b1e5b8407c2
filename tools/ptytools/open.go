package ptytools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tasks/pty"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed open.md
var openPrompt string

const openSchema = `{
  "type": "object",
  "properties": {
    "command": {"type": "string", "minLength": 1, "description": "What to run in the new terminal, with bash -c: a program (\"python3\", \"psql mydb\"), a server (\"npm run dev\"), or a shell (\"bash\")."},
    "mode": {"type": "string", "enum": ["interactive", "hands-free", "dispatch", "monitor"], "default": "hands-free", "description": "interactive: wait until the program is done (prompt, quiet, exit or timeout) and return its output. hands-free: return at once; poll with shell_read. dispatch: return at once; you are notified when it is done. monitor: return at once; you are notified when a watch pattern appears and when it exits."},
    "watch": {"type": "array", "items": {"type": "string", "minLength": 1}, "description": "monitor mode: regular expressions to watch the output for; each notifies once."},
    "prompt_regex": {"type": "string", "description": "A regular expression matching the program's prompt at the end of its output (e.g. \"\\\\$ $\" or \">>> $\"); a match means it is done and waiting for input. Kept for shell_send on this session."},
    "rows": {"type": "integer", "minimum": 2, "maximum": 500, "default": 24, "description": "Terminal height."},
    "cols": {"type": "integer", "minimum": 10, "maximum": 1000, "default": 80, "description": "Terminal width."},
    "quiet_ms": {"type": "integer", "minimum": 0, "maximum": 600000, "default": 8000, "description": "Done after this long without output (0: never by quiet)."},
    "startup_grace_ms": {"type": "integer", "minimum": 0, "maximum": 600000, "default": 15000, "description": "The first quiet check waits at least this long, for slow starts."}
  },
  "required": ["command"],
  "additionalProperties": false
}`

type openInput struct {
	Command        string   `json:"command"`
	Mode           string   `json:"mode"`
	Watch          []string `json:"watch"`
	PromptRegex    string   `json:"prompt_regex"`
	Rows           int      `json:"rows"`
	Cols           int      `json:"cols"`
	QuietMS        *int64   `json:"quiet_ms"`
	StartupGraceMS *int64   `json:"startup_grace_ms"`
}

// openOutputMax is how much output an interactive open returns.
const openOutputMax = 32 << 10

// ShellOpen starts a program in a new terminal session. Its command is its
// Target, so Bash rules and hard-deny patterns decide it as they decide
// Bash (H5), and it asks by itself.
func ShellOpen(m *pty.Manager) tools.Tool {
	return tools.Build(tools.Spec{
		Name:        "shell_open",
		Description: "Start a program in a new terminal (a pty with a live screen) that you can type into with shell_send and read with shell_read: interactive programs, REPLs, servers, full-screen tools.",
		Prompt:      openPrompt,
		Schema:      openSchema,
		Target: func(input json.RawMessage, _ *tools.Context) permission.Target {
			return permission.Target{Commands: []string{openCommand(input)}}
		},
		Permission: func(_ context.Context, input json.RawMessage, _ *tools.Context) permission.Decision {
			return permission.AskUser("open shell session: " + openCommand(input))
		},
		Run: func(ctx context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
			return runOpen(ctx, m, input, tc)
		},
	})
}

// openCommand reads the command; input that does not decode is passed on
// whole, so rules compare against something no allow rule matches.
func openCommand(input json.RawMessage) string {
	in, err := decode[openInput](input)
	if err != nil {
		return string(input)
	}
	return in.Command
}

// millis reads an optional duration in milliseconds.
func millis(v *int64, def time.Duration) time.Duration {
	if v == nil {
		return def
	}
	return time.Duration(*v) * time.Millisecond
}

// compile compiles a pattern the model gave, naming the field on error.
func compile(field, expr string) (*regexp.Regexp, *tools.Result) {
	re, err := regexp.Compile(expr)
	if err != nil {
		r := tools.Error(fmt.Sprintf("%s %q is not a valid regular expression: %v", field, expr, err))
		return nil, &r
	}
	return re, nil
}

type openResult struct {
	SessionID  string     `json:"session_id"`
	State      pty.State  `json:"state"`
	DoneBy     pty.DoneBy `json:"done_by,omitempty"`
	Output     *string    `json:"output,omitempty"`
	Cursor     *int64     `json:"cursor,omitempty"`
	Running    bool       `json:"running"`
	Omitted    bool       `json:"omitted,omitempty"`
	ExitCode   *int       `json:"exit_code,omitempty"`
	Dispatched bool       `json:"dispatched,omitempty"`
	Monitoring int        `json:"monitoring,omitempty"`
	// Sandbox explains a refusal of the sandbox the output shows.
	Sandbox string `json:"sandbox,omitempty"`
}

func runOpen(ctx context.Context, m *pty.Manager, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
	in, err := decode[openInput](input)
	if err != nil {
		return tools.Result{}, err
	}
	if in.Mode == "" {
		in.Mode = "hands-free"
	}
	var prompt *regexp.Regexp
	if in.PromptRegex != "" {
		var bad *tools.Result
		if prompt, bad = compile("prompt_regex", in.PromptRegex); bad != nil {
			return *bad, nil
		}
	}
	var watch []*regexp.Regexp
	for _, w := range in.Watch {
		re, bad := compile("watch pattern", w)
		if bad != nil {
			return *bad, nil
		}
		watch = append(watch, re)
	}
	if in.Mode == "monitor" && len(watch) == 0 {
		return tools.Error("monitor mode needs at least one watch pattern."), nil
	}
	s, err := m.Open(pty.OpenSpec{
		Command: in.Command, WorkDir: tc.WorkDir, Env: tc.Env,
		Rows: in.Rows, Cols: in.Cols, Mode: in.Mode, Prompt: prompt,
	})
	if err != nil {
		return tools.Error(fmt.Sprintf("Cannot open a shell session: %v", err)), nil
	}
	wait := pty.WaitSpec{
		Quiet:        millis(in.QuietMS, pty.DefaultQuiet),
		StartupGrace: millis(in.StartupGraceMS, pty.DefaultStartupGrace),
	}
	res := openResult{SessionID: s.ID(), Running: true}
	switch in.Mode {
	case "interactive":
		res.DoneBy = s.Wait(ctx, wait)
		out := readOutput(s, 0, openOutputMax, 0, tc)
		s.SetMark(out.next)
		res.Output, res.Cursor, res.Omitted, res.Sandbox = &out.text, &out.next, out.omitted, out.refusal
	case "dispatch":
		m.Dispatch(s, wait)
		res.Dispatched = true
	case "monitor":
		if err := m.Monitor(s, watch); err != nil {
			return tools.Error(err.Error()), nil
		}
		res.Monitoring = len(watch)
	}
	res.State = s.State()
	res.Running = res.State == pty.Running
	res.ExitCode = exitCode(s)
	return jsonResult(res), nil
}
