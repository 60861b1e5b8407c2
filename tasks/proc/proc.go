// Package proc is a started process however it was started: by
// cmd.Start, or by the session's sandbox server, whose commands are its
// children and not Workbench's (so there is no *exec.Cmd to wait for). It
// is its own package, importing nothing of Workbench's, so that package
// tasks, tasks/pty and the sandbox that starts their commands share the
// type without importing each other.
package proc

import (
	"errors"
	"os/exec"
	"syscall"
)

// Proc is a started process.
type Proc interface {
	// Pid is the process id; with Setsid or Setpgid also its process
	// group, which Workbench signals to stop it (H14): the sandbox
	// server's children are in a user namespace of Workbench's, so
	// Workbench may signal them.
	Pid() int
	// Wait blocks until the process has ended (and its output was copied
	// to a writer that is not a file) and says how: its wait status (exit
	// code or signal), or why that is not known. It is called once.
	Wait() (syscall.WaitStatus, error)
}

// Start starts cmd with cmd.Start and returns it as a Proc, with
// release (nil: nothing to free) called at once when it did not start:
// what a wrapper that rewrites cmd returns.
func Start(cmd *exec.Cmd, release func()) (Proc, func(), error) {
	if release == nil {
		release = func() {}
	}
	if err := cmd.Start(); err != nil {
		release()
		return nil, nil, err
	}
	return &cmdProc{cmd: cmd}, release, nil
}

// cmdProc is a command started by cmd.Start.
type cmdProc struct{ cmd *exec.Cmd }

func (p *cmdProc) Pid() int { return p.cmd.Process.Pid }

func (p *cmdProc) Wait() (syscall.WaitStatus, error) {
	err := p.cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		err = nil // the status says it
	}
	if ps := p.cmd.ProcessState; ps != nil {
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok {
			return ws, err
		}
	}
	if err == nil {
		err = errors.New("no wait status")
	}
	return 0, err
}
