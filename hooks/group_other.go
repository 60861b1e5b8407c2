//go:build !unix

package hooks

import (
	"os"
	"os/exec"
)

// ownGroup does nothing where process groups do not exist.
func ownGroup(*exec.Cmd) {}

// killGroup kills the hook's own process; its children cannot be reached.
func killGroup(p *os.Process) error {
	if p == nil {
		return nil
	}
	return p.Kill()
}
