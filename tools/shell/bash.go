// Package shell runs shell commands for the model: the Bash tool. A command
// runs in its own session and process group with no terminal and no stdin
// (the runner is package tasks' StartProcess, also under the names Start
// and Process here), its output streams through a tools.Capture to disk as
// it arrives (H9), and a timeout or interrupt stops everything it started
// (H14). Given a task manager (BashWith), Bash can also start commands in
// the background and moves a command that outlives its timeout there
// instead of killing it.
package shell

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/template"
	"time"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed bash.md
var bashTemplate string

// bashPrompt and bashTaskPrompt are the prompt without and with background
// tasks; one template keeps the text they share in one place.
var bashPrompt, bashTaskPrompt = renderPrompt(false), renderPrompt(true)

func renderPrompt(withTasks bool) string {
	var b strings.Builder
	tmpl := template.Must(template.New("bash.md").Parse(bashTemplate))
	if err := tmpl.Execute(&b, struct{ Tasks bool }{withTasks}); err != nil {
		panic("bash.md: " + err.Error())
	}
	return b.String()
}

// DefaultTimeout and MaxTimeout bound a foreground command: long enough for
// a build or a test suite, short enough that a hung command gives the turn
// back to the model.
const (
	DefaultTimeout = 120 * time.Second
	MaxTimeout     = 600 * time.Second
)

// progressEvery spaces progress reports, so a command printing a million
// lines costs the UI a few updates a second, not a million.
const progressEvery = 250 * time.Millisecond

// progressMax is the longest progress line passed on, in bytes.
const progressMax = 200

const bashSchema = `{
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
      "description": "Milliseconds before the command and everything it started are killed (default 120000, at most 600000)."
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
    }
  },
  "required": ["command"],
  "additionalProperties": false
}`

type bashInput struct {
	Command   string `json:"command"`
	TimeoutMS int64  `json:"timeout_ms"`
	// Timeout is Claude Code's name for TimeoutMS (milliseconds too), so a
	// Claude-shaped input, such as a hook's updatedInput, is valid; it wins
	// when given.
	Timeout         int64  `json:"timeout"`
	Description     string `json:"description"`
	RunInBackground bool   `json:"run_in_background"`
	// DangerouslyDisableSandbox asks to run outside the sandbox.
	DangerouslyDisableSandbox bool `json:"dangerouslyDisableSandbox"`
}

// limit is how long the command may run: timeout, else timeout_ms, else
// DefaultTimeout, never more than MaxTimeout.
func (in bashInput) limit() time.Duration {
	ms := in.Timeout
	if ms <= 0 {
		ms = in.TimeoutMS
	}
	if ms <= 0 {
		return DefaultTimeout
	}
	return min(time.Duration(ms)*time.Millisecond, MaxTimeout)
}

// Meta is the Bash result's structured detail for the UI and transcript.
type Meta struct {
	ExitCode    int    `json:"exit_code"`
	Signal      string `json:"signal,omitempty"`
	DurationMS  int64  `json:"duration_ms"`
	TimedOut    bool   `json:"timed_out"`
	Interrupted bool   `json:"interrupted,omitempty"`
	Bytes       int64  `json:"bytes"`
	// Background says the command runs on as task TaskID, started in the
	// background or moved there when its timeout passed.
	Background bool   `json:"background,omitempty"`
	TaskID     string `json:"task_id,omitempty"`
	OutputFile string `json:"output_file,omitempty"`
	// Sandbox says whether the command ran inside the sandbox or, approved
	// by the person, outside it; empty when there is no sandbox.
	Sandbox string `json:"sandbox,omitempty"`
}

// errTimedOut is the cause of a call context that ran out of time, which
// tells a timeout apart from an interrupt by the person.
var errTimedOut = errors.New("command timed out")

// Bash returns the Bash tool. Its metadata is left to Build's fail-closed
// defaults (mutating, exclusive), as no command is safe by its looks; it
// asks by itself, names the command in its Target so Bash(...) rules and
// the hard-deny patterns apply (H5), and runs in the foreground. With
// WithSandbox every command runs inside the session's sandbox (H16).
func Bash(opts ...Option) tools.Tool {
	c := configure(opts)
	return tools.Build(tools.Spec{
		Name:        "Bash",
		Description: "Run a shell command in the project directory and return its combined stdout and stderr, with the exit code when it fails.",
		Prompt:      bashPrompt,
		Schema:      c.schema(bashSchema),
		Target: func(input json.RawMessage, _ *tools.Context) permission.Target {
			return permission.Target{Commands: []string{command(input)}}
		},
		Permission: func(_ context.Context, input json.RawMessage, _ *tools.Context) permission.Decision {
			return c.permission(input, "run shell command: "+command(input))
		},
		Run: func(ctx context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
			return runBash(ctx, c, input, tc)
		},
	})
}

// command reads the command line from input. Input that does not decode is
// passed on whole, so rules compare against something that matches no
// allow rule rather than against nothing.
func command(input json.RawMessage) string {
	var in bashInput
	if err := json.Unmarshal(input, &in); err != nil {
		return string(input)
	}
	return in.Command
}

func runBash(ctx context.Context, c config, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
	var in bashInput
	if err := json.Unmarshal(input, &in); err != nil {
		return tools.Result{}, fmt.Errorf("input: %w", err)
	}
	timeout := in.limit()
	if ctx.Err() != nil {
		return notStarted, nil
	}
	runCtx, cancel := context.WithTimeoutCause(ctx, timeout, errTimedOut)
	defer cancel()

	capture := tools.NewCapture(tc)
	out := &sink{capture: capture, progress: tc.Progress}
	p, err := Start(runCtx, Spec{Command: in.Command, Dir: tc.WorkDir, Env: tc.Env, Output: out, Wrap: c.wrapper(input)})
	if err != nil {
		capture.Abort()
		return tools.Result{}, err
	}
	exit := p.Wait()
	o := outcome{
		code: exit.Code, duration: exit.Duration, bytes: exit.Bytes, err: exit.Err,
		timedOut:    exit.Stopped && errors.Is(context.Cause(runCtx), errTimedOut),
		interrupted: exit.Stopped && !errors.Is(context.Cause(runCtx), errTimedOut),
	}
	if exit.Signal != 0 {
		o.signal, o.signum = exit.Signal.String(), int(exit.Signal)
	}
	o.sandbox(c, input, tc.WorkDir)
	return o.result(capture, timeout), nil
}

// outcome is how a foreground command ended, whichever runner ran it.
type outcome struct {
	code        int // -1 when a signal ended the shell
	signal      string
	signum      int
	duration    time.Duration
	bytes       int64
	timedOut    bool
	interrupted bool
	// stopped, when set, says who else stopped the command and why.
	stopped string
	err     error
	// explain, when set, reads the output of a failed command for a
	// refusal the sandbox caused; where says where the command ran.
	explain func(output string) string
	where   string
	// plants, when set, says what the sandbox removed after the command
	// because git would have run it outside (sandbox.PlantNotes).
	plants func() []string
}

// sandbox notes where the command ran and how to explain its refusals.
func (o *outcome) sandbox(c config, input json.RawMessage, dir string) {
	o.where = c.sandboxLabel(input)
	if o.where == "inside" {
		o.explain = func(out string) string { return c.explain(input, out, dir) }
		o.plants = c.sandbox.PlantNotes
	}
}

// result finishes the capture and builds the model's result: the output,
// then a note on anything but a clean exit, which also makes it an error.
func (o outcome) result(capture *tools.Capture, timeout time.Duration) tools.Result {
	text, spill := capture.Finish()
	m := Meta{ExitCode: o.code, Signal: o.signal, DurationMS: o.duration.Milliseconds(), Bytes: o.bytes, Sandbox: o.where}
	var note string
	switch {
	case o.timedOut:
		m.TimedOut = true
		note = fmt.Sprintf("[command timed out after %v; its process group was killed]", timeout)
	case o.interrupted:
		m.Interrupted = true
		note = interruptedNote
	case o.stopped != "":
		note = "[" + o.stopped + "]"
	case o.signum != 0:
		note = fmt.Sprintf("[terminated by signal %d (%s)]", o.signum, o.signal)
	case o.code != 0:
		note = fmt.Sprintf("[exit code %d]", o.code)
	}
	if o.err != nil {
		note = strings.TrimSpace(note + "\n[" + o.err.Error() + "]")
	}
	if note != "" && o.explain != nil {
		if why := o.explain(text); why != "" {
			note += "\n[" + why + "]"
		}
	}
	res := tools.Result{Text: text, IsError: note != "", Captured: true, Spill: spill}
	switch {
	case note != "" && text != "":
		res.Text = text + "\n\n" + note
	case note != "":
		res.Text = note
	case text == "":
		res.Text = "(no output)"
	}
	if o.plants != nil {
		for _, n := range o.plants() {
			res.Text += "\n[" + n + "]"
		}
	}
	res.Meta, _ = json.Marshal(m)
	return res
}

// notStarted is the result of a call cancelled before its command started.
var notStarted = tools.Result{Text: "[interrupted before the command started]", IsError: true, Captured: true}

const interruptedNote = "[interrupted: the command was stopped before it finished and its process group was killed]"

// sink takes the command's output for the capture and, at most every
// progressEvery, passes the latest line of the chunk just read to the
// progress callback (leading edge: a line written within the interval after
// a report waits for the next chunk). It is written from one goroutine only
// (see Spec.Output), so the callback must be quick.
type sink struct {
	capture  *tools.Capture
	progress func(string)
	last     time.Time
}

func (s *sink) Write(p []byte) (int, error) {
	s.capture.Write(p)
	if s.progress != nil {
		if now := time.Now(); now.Sub(s.last) >= progressEvery {
			if line := lastLine(p); line != "" {
				s.last = now
				s.progress(line)
			}
		}
	}
	return len(p), nil
}

// lastLine returns the last non-blank line of p, shortened and made valid
// UTF-8 for display.
func lastLine(p []byte) string {
	end := len(p)
	for end > 0 && (p[end-1] == '\n' || p[end-1] == '\r') {
		end--
	}
	start := end
	for start > 0 && p[start-1] != '\n' && end-start < progressMax {
		start--
	}
	line := strings.TrimSpace(strings.ToValidUTF8(string(p[start:end]), ""))
	if i := strings.LastIndexByte(line, '\r'); i >= 0 {
		line = line[i+1:] // a progress bar redraws with \r: keep its latest state
	}
	return line
}
