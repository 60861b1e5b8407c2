package taskstools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/seed92b641c3/workbench/tasks"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed taskstop.md
var taskStopPrompt string

const taskStopSchema = `{
  "type": "object",
  "properties": {
    "task_id": {"type": "string", "description": "The task to stop, such as task_3. Leave it out to stop every running task."}
  },
  "additionalProperties": false
}`

// TaskStop returns the tool that stops tasks. Stopping changes state, so it
// is not read-only and runs alone; it needs no approval of its own, as it
// only ends what the session itself started (deny and ask rules still
// apply). Nil without a manager.
func TaskStop(m *tasks.Manager) tools.Tool {
	if m == nil {
		return nil
	}
	return tools.Build(tools.Spec{
		Name:        "TaskStop",
		Description: "Stop a running background task and everything it started, or every running task when no id is given.",
		Prompt:      taskStopPrompt,
		Schema:      taskStopSchema,
		Permission:  tools.AllowSelf,
		Run: func(_ context.Context, input json.RawMessage, _ *tools.Context) (tools.Result, error) {
			return runTaskStop(m, input)
		},
	})
}

func runTaskStop(m *tasks.Manager, input json.RawMessage) (tools.Result, error) {
	var in taskInput
	if err := json.Unmarshal(input, &in); err != nil {
		return tools.Result{}, fmt.Errorf("input: %w", err)
	}
	if in.TaskID == "" {
		stopped := m.KillAll()
		if len(stopped) == 0 {
			return tools.Text("No running tasks to stop."), nil
		}
		var b strings.Builder
		ids := make([]string, len(stopped))
		fmt.Fprintf(&b, "Stopped %d running task(s):", len(stopped))
		for i, s := range stopped {
			ids[i] = s.ID
			fmt.Fprintf(&b, "\n- %s [%s] %s", s.ID, s.Kind, oneLine(s.Command, listCommandMax))
		}
		b.WriteString("\nEach ends as killed; background tasks still send their notification.")
		return withMeta(tools.Text(b.String()), Meta{Stopped: ids}), nil
	}
	err := m.Kill(in.TaskID)
	s, ok := m.Get(in.TaskID)
	switch {
	case isUnknown(err) || !ok:
		return unknown(m, in.TaskID), nil
	case errors.Is(err, tasks.ErrNotRunning):
		return withMeta(tools.Text(fmt.Sprintf("%s was not running (it had %s, exit %d); nothing was stopped.",
			s.ID, s.Status, s.ExitCode)), metaOf(s)), nil
	case err != nil:
		return tools.Result{}, err
	}
	text := fmt.Sprintf("Stopped %s [%s] %s.", s.ID, s.Kind, oneLine(s.Command, listCommandMax))
	if s.Background {
		text += " Its notification follows."
	}
	meta := metaOf(s)
	meta.Stopped = []string{s.ID}
	return withMeta(tools.Text(text), meta), nil
}
