// Package taskstools gives the model its handles on background tasks:
// TaskOutput reads one, TaskStop ends one or all, TaskList shows them, and
// Monitor starts a command whose output is watched for patterns. Each
// constructor takes the session's task manager and returns nil without one,
// which is how settings turn background work off.
package taskstools

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/seed92b641c3/workbench/tasks"
	"github.com/seed92b641c3/workbench/tools"
)

// Tools returns every tool of this package for m, or nil when m is nil.
func Tools(m *tasks.Manager) []tools.Tool {
	if m == nil {
		return nil
	}
	return []tools.Tool{TaskOutput(m), TaskStop(m), TaskList(m), Monitor(m)}
}

// Meta is the structured detail of a task tool's result for the UI and the
// transcript: which task, and its state after the call.
type Meta struct {
	TaskID     string `json:"task_id,omitempty"`
	Kind       string `json:"kind,omitempty"`
	Status     string `json:"status,omitempty"`
	ExitCode   *int   `json:"exit_code,omitempty"`
	Bytes      int64  `json:"bytes,omitempty"`
	OutputFile string `json:"output_file,omitempty"`
	// Stopped lists the tasks TaskStop stopped.
	Stopped []string `json:"stopped,omitempty"`
}

func metaOf(s tasks.Snapshot) Meta {
	m := Meta{TaskID: s.ID, Kind: string(s.Kind), Status: string(s.Status), Bytes: s.Bytes, OutputFile: s.OutputFile}
	if !s.Running() {
		code := s.ExitCode
		m.ExitCode = &code
	}
	return m
}

func withMeta(r tools.Result, m Meta) tools.Result {
	r.Meta, _ = json.Marshal(m)
	return r
}

// taskInput is the input of a call that names one task.
type taskInput struct {
	TaskID string `json:"task_id"`
}

// unknown is the error result for an id the manager does not hold; it
// lists the known ids so the model can correct itself in one step.
func unknown(m *tasks.Manager, id string) tools.Result {
	var ids []string
	for _, s := range m.List() {
		ids = append(ids, s.ID)
	}
	known := "there are no tasks"
	if len(ids) > 0 {
		known = "known tasks: " + strings.Join(ids, ", ")
	}
	return tools.Error(fmt.Sprintf("unknown task %q (%s)", id, known))
}

// isUnknown reports whether err says the task does not exist.
func isUnknown(err error) bool { return errors.Is(err, tasks.ErrUnknownTask) }

// header is the first line of TaskOutput: id, status and, once ended, the
// exit code and any reason it was stopped.
func header(s tasks.Snapshot) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[task %s | %s", s.ID, s.Status)
	if !s.Running() {
		fmt.Fprintf(&b, " | exit %d", s.ExitCode)
		if s.Reason != "" {
			b.WriteString(" | " + s.Reason)
		}
	}
	b.WriteString("]")
	return b.String()
}

// oneLine flattens a command for a one-line listing and shortens it to n
// characters.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
