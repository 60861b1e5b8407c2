package tasks

import (
	"os/exec"

	"github.com/seed92b641c3/workbench/tasks/proc"
)

// Proc is a started command, however it was started (package proc).
type Proc = proc.Proc

// Wrapper starts cmd, which has not started, in place of cmd.Start: inside
// the session's sandbox (H16), which provides it, or as it is. release is
// called once the process and what it left in its group or session have
// ended, and frees what the start set up (the sandbox's cache layers, the
// proxy's hand-over), which those may still use. An error refuses the
// command: it did not start at all. cmd.Process stays nil when the wrapper
// did not start cmd itself; the returned Proc is the process.
type Wrapper func(cmd *exec.Cmd) (p Proc, release func(), err error)

// Unconfined is the wrapper that starts a command as it is: the choice for
// a call that a person approved to run outside the sandbox.
func Unconfined(cmd *exec.Cmd) (Proc, func(), error) { return proc.Start(cmd, nil) }

// Explainer reads the output of a command that ran in the sandbox and, when
// it shows a refusal the sandbox caused, returns a note that says so and
// names the way out; otherwise "". dir is the command's working directory,
// for relative paths. The session's sandbox provides it.
type Explainer func(output, dir string) string

// start starts cmd with w; a nil w starts it as it is. release is never
// nil when err is.
func start(w Wrapper, cmd *exec.Cmd) (Proc, func(), error) {
	if w == nil {
		w = Unconfined
	}
	p, release, err := w(cmd)
	if err == nil && release == nil {
		release = func() {}
	}
	return p, release, err
}
