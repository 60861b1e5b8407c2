package shell

import (
	"encoding/json"
	"os/exec"
	"strings"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tasks"
)

// Sandbox is the session's sandbox as Bash needs it (H16); the sandbox
// package's *Sandbox satisfies it.
type Sandbox interface {
	// Start starts a command confined (a tasks.Wrapper).
	Start(cmd *exec.Cmd) (p tasks.Proc, release func(), err error)
	// Explain returns a note for output that shows a refusal the sandbox
	// caused, naming the way out, or "".
	Explain(output, dir string) string
	// Active reports whether commands run confined.
	Active() bool
	// PlantNotes says, once, what the sandbox removed after commands
	// ended because git would have run it outside the sandbox.
	PlantNotes() []string
}

// Option configures the Bash tool.
type Option func(*config)

type config struct {
	sandbox          Sandbox
	allowUnsandboxed bool
}

// WithSandbox runs every command inside sb. allowUnsandboxed is
// sandbox.allowUnsandboxedCommands: whether a call may ask to run outside
// with dangerouslyDisableSandbox; when false such a call is refused.
func WithSandbox(sb Sandbox, allowUnsandboxed bool) Option {
	return func(c *config) { c.sandbox, c.allowUnsandboxed = sb, allowUnsandboxed }
}

func configure(opts []Option) config {
	var c config
	for _, o := range opts {
		o(&c)
	}
	return c
}

// confined reports whether commands run in a sandbox that is in force.
func (c config) confined() bool { return c.sandbox != nil && c.sandbox.Active() }

// escapeProperty is the input field that asks to run outside the sandbox,
// with Claude Code's name; it is in the schema only when there is a
// sandbox to leave.
const escapeProperty = `,
    "dangerouslyDisableSandbox": {
      "type": "boolean",
      "default": false,
      "description": "Run this command outside the sandbox. Only when the sandbox refused something the task really needs (the result says so); the person is always asked first."
    }`

// schema adds the escape field to a Bash schema when a sandbox is in force.
func (c config) schema(base string) string {
	if !c.confined() {
		return base
	}
	i := strings.Index(base, "\n  },\n  \"required\"")
	if i < 0 {
		return base
	}
	return base[:i] + escapeProperty + base[i:]
}

// escapes reports whether input asks to leave a sandbox that is in force.
func (c config) escapes(input json.RawMessage) bool {
	if !c.confined() {
		return false
	}
	var in bashInput
	return json.Unmarshal(input, &in) == nil && in.DangerouslyDisableSandbox
}

// permission is Bash's own verdict: a call that asks to leave the sandbox is
// refused when the settings forbid it, and otherwise asks with a question
// that says so (the session's gate makes it ask even where a rule allows).
func (c config) permission(input json.RawMessage, question string) permission.Decision {
	if c.escapes(input) {
		if !c.allowUnsandboxed {
			return permission.Denied("this command asks to run outside the sandbox, and sandbox.allowUnsandboxedCommands is false; run it inside the sandbox, or add the path it needs to sandbox.allowWrite")
		}
		return permission.AskUser(question + " (OUTSIDE the sandbox)")
	}
	return permission.AskUser(question)
}

// wrapper is how one call's command starts: in the sandbox, or as it is
// when the call was approved to run outside.
func (c config) wrapper(input json.RawMessage) tasks.Wrapper {
	switch {
	case c.sandbox == nil:
		return nil
	case c.escapes(input):
		return tasks.Unconfined
	}
	return c.sandbox.Start
}

// explainer is how a task started for input explains the sandbox's
// refusals in its notifications: not at all when it runs outside.
func (c config) explainer(input json.RawMessage) tasks.Explainer {
	if !c.confined() || c.escapes(input) {
		return nil
	}
	return c.sandbox.Explain
}

// explain returns the sandbox's note on a failed command's output.
func (c config) explain(input json.RawMessage, output, dir string) string {
	if !c.confined() || c.escapes(input) {
		return ""
	}
	return c.sandbox.Explain(output, dir)
}

// sandboxLabel is the Meta field saying where the command ran.
func (c config) sandboxLabel(input json.RawMessage) string {
	switch {
	case !c.confined():
		return ""
	case c.escapes(input):
		return "outside"
	}
	return "inside"
}
