//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// ownGroup makes a stdio server the leader of a new process group, so the
// group id names the server and everything it spawned (an npx wrapper's
// node child, say), and a terminal's Ctrl-C reaches Workbench alone.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup sends SIGKILL to the process group led by pid, so no descendant
// outlives the session (H14). A group that is already gone is not an error.
func killGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
