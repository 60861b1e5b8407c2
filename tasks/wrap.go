package tasks

import "os/exec"

// Wrapper rewrites a command before it starts, so it runs inside the
// session's sandbox (H16); the session's sandbox provides it. It returns a
// release function, called once the process has ended or failed to start.
// An error refuses the command: it does not run at all.
type Wrapper func(cmd *exec.Cmd) (release func(), err error)

// Unconfined is the wrapper that leaves a command as it is: the choice for
// a call that a person approved to run outside the sandbox.
func Unconfined(*exec.Cmd) (func(), error) { return func() {}, nil }

// Explainer reads the output of a command that ran in the sandbox and, when
// it shows a refusal the sandbox caused, returns a note that says so and
// names the way out; otherwise "". dir is the command's working directory,
// for relative paths. The session's sandbox provides it.
type Explainer func(output, dir string) string

// wrap applies w to cmd; a nil w leaves cmd alone.
func wrap(w Wrapper, cmd *exec.Cmd) (func(), error) {
	if w == nil {
		return func() {}, nil
	}
	release, err := w(cmd)
	if err != nil {
		return nil, err
	}
	if release == nil {
		release = func() {}
	}
	return release, nil
}
