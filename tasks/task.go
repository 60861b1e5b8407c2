package tasks

import (
	"io"
	"regexp"
	"sync"
	"sync/atomic"
	"time"
)

// Kind says what a task is for; it decides whether its output is watched.
type Kind string

// The kinds of task. A monitor is always in the background and may watch its
// output for patterns; a bash task is a plain command.
const (
	KindBash    Kind = "bash"
	KindMonitor Kind = "monitor"
)

// Status is where a task is in its life. Every task starts running and ends
// in exactly one of the other three.
type Status string

// The task statuses. Failed covers a non-zero exit, a signal the task did not
// get from us, and a stop by the output cap; killed means we stopped it.
const (
	StatusRunning   Status = "running"
	StatusCompleted Status = "completed"
	StatusFailed    Status = "failed"
	StatusKilled    Status = "killed"
)

// Reasons a task was stopped, recorded in Snapshot.Reason so the UI and the
// model can tell a runaway from a deliberate stop.
const (
	ReasonOutputCap   = "output cap"
	ReasonStopped     = "stopped on request"
	ReasonInterrupted = "interrupted"
	ReasonClosed      = "session closed"
)

// Spec says what a task runs and how it is watched.
type Spec struct {
	// Command is the shell command line, run with `bash -c`.
	Command string
	// Description is a short label for the person and the task list.
	Description string
	// Kind is KindBash (the default when empty) or KindMonitor.
	Kind Kind
	// WorkDir is the working directory; empty means the current one.
	WorkDir string
	// Env holds KEY=VALUE entries added after the manager's Options.Env.
	Env []string
	// Watch holds the patterns a monitor looks for in its output, line by
	// line; only KindMonitor may have them.
	Watch []*regexp.Regexp
	// Repeat lets each pattern fire on every matching line, not only the
	// first.
	Repeat bool
	// Background says the caller does not wait for the task: it notifies
	// when it ends. A monitor is always in the background.
	Background bool
	// Sink, when set, also receives the output as it arrives, until the
	// task is moved to the background (Background) or ends. It is written
	// from one goroutine, so a caller that waits for the task may use a
	// writer that is not safe for concurrent use.
	Sink io.Writer
	// Wrap, when set, replaces the manager's Options.Wrap for this task
	// (Unconfined for a call approved to run outside the sandbox).
	Wrap Wrapper
	// Explain reads the task's output for a refusal of the sandbox. With
	// Wrap set it replaces Options.Explain (nil: no explanation, as for a
	// task run outside the sandbox); otherwise Options.Explain is used.
	Explain Explainer
}

// Snapshot is a copy of a task's state at one moment, safe to keep and pass
// between goroutines.
type Snapshot struct {
	ID          string
	Kind        Kind
	Command     string
	Description string
	Status      Status
	// ExitCode is the shell's exit status once the task ended; when a
	// signal ended it, 128 plus the signal number, as shells report it.
	ExitCode int
	// Signal names the signal that ended the shell, if one did.
	Signal string
	// Reason says why the task was stopped (one of the Reason constants)
	// or what else went wrong, such as a failure to write its output file.
	Reason     string
	Background bool
	Start      time.Time
	// End is zero while the task runs.
	End time.Time
	// Bytes counts the output written to OutputFile.
	Bytes int64
	// Lines counts the output's lines: a last line without its newline
	// counts, a trailing newline does not start one (seq 1 3 is 3 lines).
	Lines      int64
	OutputFile string
	// Watch lists a monitor's patterns, as written.
	Watch []string
	// Refusal, once a failed task ended, says which of its paths the
	// sandbox refused and the way out; "" when its output shows none.
	Refusal string
}

// Running reports whether the task has not ended yet.
func (s Snapshot) Running() bool { return s.Status == StatusRunning }

// Elapsed is how long the task ran, or has been running at now.
func (s Snapshot) Elapsed(now time.Time) time.Duration {
	if s.End.IsZero() {
		return now.Sub(s.Start)
	}
	return s.End.Sub(s.Start)
}

// Task is one command started by a Manager. Its methods are safe for
// concurrent use; its state is read through Snapshot.
type Task struct {
	m     *Manager
	id    string
	spec  Spec
	file  string
	start time.Time
	proc  *Process
	out   *output
	// done is closed once the final state is set and any notification
	// queued, so a waiter sees both.
	done  chan struct{}
	bytes atomic.Int64
	// newlines counts the newline bytes of the output; partial says the
	// output so far ends inside a line, which counts as one more.
	newlines atomic.Int64
	partial  atomic.Bool

	mu         sync.Mutex
	status     Status
	exitCode   int
	signal     string
	reason     string
	stopReason string // set by whoever asks the process to stop, first wins
	end        time.Time
	background bool
	notified   bool
	forgotten  bool
	suppressed int    // monitor matches not queued (see Manager.notifyMatch)
	lastLine   string // last output line, for a notification queued after the end
	refusal    string // the sandbox's note on a failed task's output

	// explain reads output for a refusal of the sandbox; nil when the
	// task runs outside it.
	explain func(output string) string
}

// ID is the task's id, `task_N`.
func (t *Task) ID() string { return t.id }

// OutputFile is the path of the file the output streams to.
func (t *Task) OutputFile() string { return t.file }

// Done is closed when the task has ended and its notification, if any, is
// queued.
func (t *Task) Done() <-chan struct{} { return t.done }

// Pid is the process id of the task's shell, which leads its process group.
func (t *Task) Pid() int { return t.proc.Pid() }

// Snapshot copies the task's current state.
func (t *Task) Snapshot() Snapshot {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.snapshotLocked()
}

func (t *Task) snapshotLocked() Snapshot {
	s := Snapshot{
		ID: t.id, Kind: t.spec.Kind, Command: t.spec.Command, Description: t.spec.Description,
		Status: t.status, ExitCode: t.exitCode, Signal: t.signal, Reason: t.reason,
		Background: t.background, Start: t.start, End: t.end,
		Bytes: t.bytes.Load(), OutputFile: t.file,
		Lines: t.newlines.Load(), Refusal: t.refusal,
	}
	if t.partial.Load() {
		s.Lines++
	}
	for _, re := range t.spec.Watch {
		s.Watch = append(s.Watch, re.String())
	}
	return s
}

// requestStop records why the task is being stopped and stops its process
// group. It reports false when the task had already ended.
func (t *Task) requestStop(reason string) bool {
	t.mu.Lock()
	if t.status != StatusRunning {
		t.mu.Unlock()
		return false
	}
	if t.stopReason == "" {
		t.stopReason = reason
	}
	t.mu.Unlock()
	t.proc.Stop()
	return true
}
