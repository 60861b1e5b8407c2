package shell

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tasks"
	"github.com/seed92b641c3/workbench/tools"
)

const bashTaskSchema = `{
  "type": "object",
  "properties": {
    "command": {
      "type": "string",
      "minLength": 1,
      "description": "The command line to run with bash -c."
    },
    "timeout_ms": {
      "type": "integer",
      "minimum": 1,
      "maximum": 600000,
      "default": 120000,
      "description": "Milliseconds to wait for the command (default 120000, at most 600000). A command still running then moves to the background as a task; one starting with sleep is killed instead."
    },
    "timeout": {
      "type": "integer",
      "minimum": 1,
      "maximum": 600000,
      "description": "The same as timeout_ms, in milliseconds (the name Claude Code's Bash uses); when given, it is used instead of timeout_ms."
    },
    "description": {
      "type": "string",
      "description": "A short label of what the command does, in active voice (\"Run the unit tests\"), shown to the person."
    },
    "run_in_background": {
      "type": "boolean",
      "default": false,
      "description": "Start the command as a background task and return at once with its task id and output file; you are notified when it ends."
    }
  },
  "required": ["command"],
  "additionalProperties": false
}`

// BashWith returns the Bash tool backed by a session's task manager: it
// accepts run_in_background, and a foreground command that outlives its
// timeout moves to the background instead of being killed (except sleep,
// which only waits, so nothing is lost by killing it). Commands run as the
// manager's tasks, so closing the session stops them all (H14). Permission
// and metadata are Bash()'s. With a nil manager (background work turned off
// in settings) it is Bash().
func BashWith(m *tasks.Manager, opts ...Option) tools.Tool {
	if m == nil {
		return Bash(opts...)
	}
	c := configure(opts)
	return tools.Build(tools.Spec{
		Name:        "Bash",
		Description: "Run a shell command in the project directory and return its combined stdout and stderr, with the exit code when it fails; long-running commands can run in the background.",
		Prompt:      bashTaskPrompt,
		Schema:      c.schema(bashTaskSchema),
		Target: func(input json.RawMessage, _ *tools.Context) permission.Target {
			return permission.Target{Commands: []string{command(input)}}
		},
		Permission: func(_ context.Context, input json.RawMessage, _ *tools.Context) permission.Decision {
			var in bashInput
			if json.Unmarshal(input, &in) == nil && in.RunInBackground {
				return c.permission(input, "run shell command in the background: "+in.Command)
			}
			return c.permission(input, "run shell command: "+command(input))
		},
		Run: func(ctx context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
			return runManaged(ctx, m, c, input, tc)
		},
	})
}

func runManaged(ctx context.Context, m *tasks.Manager, c config, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
	var in bashInput
	if err := json.Unmarshal(input, &in); err != nil {
		return tools.Result{}, fmt.Errorf("input: %w", err)
	}
	timeout := in.limit()
	if ctx.Err() != nil {
		return notStarted, nil
	}
	spec := tasks.Spec{Command: in.Command, Description: in.Description, WorkDir: tc.WorkDir, Env: tc.Env,
		Wrap: c.wrapper(input), Explain: c.explainer(input)}
	if in.RunInBackground {
		spec.Background = true
		t, err := m.Spawn(spec)
		if err != nil {
			return tools.Result{}, err
		}
		res := tools.Text(fmt.Sprintf("Running in the background as %s. Output file: %s\n%s",
			t.ID(), t.OutputFile(), followUp(t.ID())))
		res.Meta, _ = json.Marshal(Meta{Background: true, TaskID: t.ID(), OutputFile: t.OutputFile(), Sandbox: c.sandboxLabel(input)})
		return res, nil
	}

	capture := tools.NewCapture(tc)
	spec.Sink = &sink{capture: capture, progress: tc.Progress}
	run, err := m.RunForeground(ctx, spec, timeout)
	if err != nil {
		capture.Abort()
		if ctx.Err() != nil {
			return notStarted, nil
		}
		return tools.Result{}, err
	}
	snap := run.Task
	switch {
	case run.Finished || run.Interrupted:
		o := fromSnapshot(snap, run.Interrupted, false)
		o.sandbox(c, input, tc.WorkDir)
		return o.result(capture, timeout), nil
	case firstWord(in.Command) == "sleep":
		// A sleep only waits: nothing is lost by killing it, and moving it
		// to the background would only delay the model.
		m.Kill(snap.ID)
		if s, ok := m.Get(snap.ID); ok {
			snap = s
		}
		m.Forget(snap.ID)
		return fromSnapshot(snap, false, snap.Status == tasks.StatusKilled).result(capture, timeout), nil
	}
	m.Background(snap.ID) // detaches the capture: it is ours again
	text, spill := capture.Finish()
	note := fmt.Sprintf("[command still running after %v; moved to the background as %s instead of being killed. Output file: %s\n%s]",
		timeout, snap.ID, snap.OutputFile, followUp(snap.ID))
	res := tools.Result{Text: note, Captured: true, Spill: spill}
	if text != "" {
		res.Text = text + "\n\n" + note
	}
	res.Meta, _ = json.Marshal(Meta{
		DurationMS: snap.Elapsed(time.Now()).Milliseconds(), Bytes: snap.Bytes,
		Background: true, TaskID: snap.ID, OutputFile: snap.OutputFile, Sandbox: c.sandboxLabel(input),
	})
	return res, nil
}

// followUp tells the model how to go on with a background task.
func followUp(id string) string {
	return fmt.Sprintf("You will be notified when it ends. Read its output with TaskOutput (task_id %q) or Read on the output file; stop it with TaskStop.", id)
}

// fromSnapshot reads how a task ended as a foreground outcome, with the exit
// code convention of Bash without a manager (-1 and the signal name when a
// signal ended the shell).
func fromSnapshot(s tasks.Snapshot, interrupted, timedOut bool) outcome {
	o := outcome{
		code: s.ExitCode, duration: s.Elapsed(time.Now()), bytes: s.Bytes,
		interrupted: interrupted, timedOut: timedOut,
	}
	if s.Signal != "" {
		o.code, o.signal, o.signum = -1, s.Signal, s.ExitCode-128
	}
	switch {
	case s.Reason == tasks.ReasonOutputCap:
		o.stopped = fmt.Sprintf("output reached the cap of %s; the command was stopped", tasks.HumanBytes(s.Bytes))
	case s.Status == tasks.StatusKilled && !interrupted && !timedOut:
		o.stopped = "killed before it finished (" + s.Reason + "); its process group was stopped"
	case s.Status == tasks.StatusFailed && s.Reason != "":
		o.err = fmt.Errorf("%s", s.Reason)
	}
	return o
}

// firstWord is the program a command line starts with, without leading
// variable assignments, subshell parentheses or its directory.
func firstWord(cmd string) string {
	for _, w := range strings.Fields(cmd) {
		w = strings.TrimLeft(w, "({")
		if w == "" || (strings.Contains(w, "=") && !strings.HasPrefix(w, "=")) {
			continue
		}
		return filepath.Base(w)
	}
	return ""
}
