//go:build !linux

package sandbox

import (
	"errors"
	"os/exec"
	"runtime"
)

// otherBackend stands where no backend exists yet: every probe fails, so
// the session shows the notice and sandbox.required refuses commands.
type otherBackend struct{}

func newBackend(string) Backend { return otherBackend{} }

// Name says there is nothing to confine with.
func (otherBackend) Name() string { return "none" }

// Probe says why there is no sandbox here.
func (otherBackend) Probe(Resolved) error {
	return errors.New("no sandbox backend for " + runtime.GOOS + " yet")
}

// Prepare refuses; Sandbox.Wrap never calls it after a failed probe.
func (otherBackend) Prepare(*exec.Cmd, Resolved, *Proxy) (func(), error) {
	return nil, errors.New("no sandbox backend for " + runtime.GOOS)
}
