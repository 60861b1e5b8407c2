package taskstools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/seed92b641c3/workbench/tasks"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed tasklist.md
var taskListPrompt string

// listCommandMax is how much of a command a listing shows: enough to
// recognise it, short enough to keep each task on one line.
const listCommandMax = 60

const taskListSchema = `{
  "type": "object",
  "properties": {},
  "additionalProperties": false
}`

// TaskList returns the tool that lists the session's tasks. It only reads,
// so it is read-only, may run beside other calls and needs no approval.
// Nil without a manager.
func TaskList(m *tasks.Manager) tools.Tool {
	if m == nil {
		return nil
	}
	return tools.Build(tools.Spec{
		Name:            "TaskList",
		Description:     "List the session's background tasks with their status, exit code, run time, output size and command.",
		Prompt:          taskListPrompt,
		Schema:          taskListSchema,
		ReadOnly:        tools.Always,
		ConcurrencySafe: tools.Always,
		Permission:      tools.AllowSelf,
		Run: func(context.Context, json.RawMessage, *tools.Context) (tools.Result, error) {
			return tools.Text(list(m.List(), time.Now())), nil
		},
	})
}

// list renders one aligned line per task:
//
//	task_1  [bash]     running            12.3s  1.2 KiB  npm run dev
//	task_2  [monitor]  completed exit=0   3.1s   120 B    tail -f app.log
func list(snaps []tasks.Snapshot, now time.Time) string {
	if len(snaps) == 0 {
		return "No tasks."
	}
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, s := range snaps {
		status := string(s.Status)
		switch {
		case !s.Running():
			status += fmt.Sprintf(" exit=%d", s.ExitCode)
		case !s.Background:
			status += " (foreground)"
		}
		fmt.Fprintf(w, "%s\t[%s]\t%s\t%s\t%s\t%s\n", s.ID, s.Kind, status,
			tasks.FormatDuration(s.Elapsed(now)), tasks.HumanBytes(s.Bytes), oneLine(s.Command, listCommandMax))
	}
	w.Flush()
	return strings.TrimRight(b.String(), "\n")
}
