package shell

import (
	"context"

	"github.com/seed92b641c3/workbench/tasks"
)

// The process runner lives in package tasks, which background tasks need
// and which may not import tools; these names keep the shell package's
// callers and tests working unchanged.

// DefaultGrace is how long a stopped process group has before SIGKILL.
const DefaultGrace = tasks.DefaultGrace

// drainWait bounds the wait for output once the group is gone.
const drainWait = tasks.DrainWait

// Spec says what to run, where, and where its output goes.
type Spec = tasks.ProcessSpec

// Exit is how a process ended.
type Exit = tasks.Exit

// Process is a shell command running in its own session and process group.
type Process = tasks.Process

// Start runs s.Command in its own session and process group, with no stdin
// and no terminal; see tasks.StartProcess.
func Start(ctx context.Context, s Spec) (*Process, error) {
	return tasks.StartProcess(ctx, s)
}
