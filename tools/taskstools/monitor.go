package taskstools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tasks"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed monitor.md
var monitorPrompt string

// maxPatterns bounds a monitor's watch list; every line is matched against
// each pattern.
const maxPatterns = 20

var monitorSchema = fmt.Sprintf(`{
  "type": "object",
  "properties": {
    "command": {"type": "string", "minLength": 1, "description": "The command line to run with bash -c and watch."},
    "description": {"type": "string", "description": "A short label of what is being watched, shown to the person."},
    "watch": {
      "type": "array",
      "items": {"type": "string", "minLength": 1},
      "maxItems": %d,
      "description": "Regular expressions (RE2) matched against each output line; a match sends a notification with the line and its context."
    },
    "repeat": {"type": "boolean", "default": false, "description": "Notify on every match of a pattern instead of only the first."}
  },
  "required": ["command"],
  "additionalProperties": false
}`, maxPatterns)

type monitorInput struct {
	Command     string   `json:"command"`
	Description string   `json:"description"`
	Watch       []string `json:"watch"`
	Repeat      bool     `json:"repeat"`
}

// Monitor returns the tool that starts a watched background command. Its
// command is in the Target, so the Bash rules and the hard-deny patterns
// judge it as they judge Bash (H5), and like Bash it asks by itself; its
// metadata is left fail-closed (mutating, exclusive). Nil without a
// manager.
func Monitor(m *tasks.Manager) tools.Tool {
	if m == nil {
		return nil
	}
	return tools.Build(tools.Spec{
		Name:        "Monitor",
		Description: "Run a command in the background and get notified when lines matching given patterns appear in its output, and when it ends.",
		Prompt:      monitorPrompt,
		Schema:      monitorSchema,
		Target: func(input json.RawMessage, _ *tools.Context) permission.Target {
			return permission.Target{Commands: []string{monitorCommand(input)}}
		},
		Permission: func(_ context.Context, input json.RawMessage, _ *tools.Context) permission.Decision {
			return permission.AskUser("run monitor: " + monitorCommand(input))
		},
		Run: func(_ context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
			return runMonitor(m, input, tc)
		},
	})
}

// monitorCommand reads the command line from input. Input that does not
// decode is passed on whole, so rules compare against something that
// matches no allow rule rather than against nothing.
func monitorCommand(input json.RawMessage) string {
	var in monitorInput
	if err := json.Unmarshal(input, &in); err != nil {
		return string(input)
	}
	return in.Command
}

func runMonitor(m *tasks.Manager, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
	var in monitorInput
	if err := json.Unmarshal(input, &in); err != nil {
		return tools.Result{}, fmt.Errorf("input: %w", err)
	}
	spec := tasks.Spec{
		Command: in.Command, Description: in.Description, Kind: tasks.KindMonitor,
		WorkDir: tc.WorkDir, Env: tc.Env, Repeat: in.Repeat, Background: true,
	}
	for i, p := range in.Watch {
		re, err := regexp.Compile(p)
		if err != nil {
			return tools.Error(fmt.Sprintf("watch[%d] %q is not a valid regular expression: %v", i, p, err)), nil
		}
		spec.Watch = append(spec.Watch, re)
	}
	t, err := m.Spawn(spec)
	if err != nil {
		return tools.Result{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Started monitor %s. Output file: %s\n", t.ID(), t.OutputFile())
	switch {
	case len(in.Watch) == 0:
		b.WriteString("No patterns to watch: you will be notified when it ends.")
	case in.Repeat:
		fmt.Fprintf(&b, "Watching for /%s/: you will be notified of every matching line, and when it ends.", strings.Join(in.Watch, "/, /"))
	default:
		fmt.Fprintf(&b, "Watching for /%s/: you will be notified of the first matching line of each, and when it ends.", strings.Join(in.Watch, "/, /"))
	}
	fmt.Fprintf(&b, "\nRead its output with TaskOutput (task_id %q) or Read; stop it with TaskStop.", t.ID())
	return withMeta(tools.Text(b.String()), metaOf(t.Snapshot())), nil
}
