//go:build unix

package hooks

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// ownGroup starts the command as the leader of a new process group, so
// that the group id names the hook and everything it spawned.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup sends SIGKILL to the process group led by p. A group that is
// already gone is not an error.
func killGroup(p *os.Process) error {
	if p == nil {
		return nil
	}
	err := syscall.Kill(-p.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}
