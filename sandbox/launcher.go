package sandbox

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// Subcommand is the hidden first argument that makes the workbench binary
// the sandbox launcher: `workbench __sandbox SPEC -- PROGRAM ARGS...`.
const Subcommand = "__sandbox"

// launchExit is the launcher's exit status when it could not set the
// sandbox up: the command did not run at all. A probe exits with it only
// when the kernel refused (probeUnsureExit otherwise).
const launchExit = 126

// probeUnsureExit is a probe's exit status when the set-up failed for a
// reason that may pass (no memory or descriptors for the moment): the
// probe is inconclusive, not a refusal.
const probeUnsureExit = 125

// probing is set while the launcher runs a probe, so a failure can tell a
// refusal from a passing shortage.
var probing bool

// launchSpec is what the launcher enforces, handed over as its first
// argument in JSON.
type launchSpec struct {
	Write    []string `json:"write,omitempty"`
	ReadOnly []string `json:"readOnly,omitempty"`
	Pin      []string `json:"pin,omitempty"`
	Hide     []string `json:"hide,omitempty"`
	// Sealed are writable roots where nothing but regular files may be
	// made directly (Resolved.Sealed).
	Sealed []string    `json:"sealed,omitempty"`
	Net    NetworkMode `json:"net"`
	// Layers put a private writable layer over each tool cache.
	Layers []CacheLayer `json:"layers,omitempty"`
	// ProxyFD is the descriptor of the socket over which the launcher
	// hands Workbench's proxy the listening socket it made inside the
	// network namespace; 0 when there is no proxy.
	ProxyFD int `json:"proxyFD,omitempty"`
	// UnixSockets leaves Unix sockets open (sandbox.allowAllUnixSockets);
	// otherwise a seccomp filter refuses to create them.
	UnixSockets bool `json:"unixSockets,omitempty"`
	// Probe sets everything up and exits 0 instead of running a program.
	Probe bool `json:"probe,omitempty"`
	// Stall makes a probe wait instead of answering (SlowProbeEnv).
	Stall bool `json:"stall,omitempty"`
}

// init makes every binary that links this package its own launcher before
// any later package does its work: the workbench binary and each test
// binary alike. A test binary without it, started as the launcher, ran its
// whole test suite instead of the command, and each of those runs started
// more launchers.
func init() { Dispatch() }

// Dispatch runs the launcher and never returns when this process was
// started as one (os.Args[1] is Subcommand); otherwise it returns at once.
// main calls it before any other work, and so does the TestMain of a
// package whose tests start sandboxed processes with the test binary as
// Options.Launcher.
func Dispatch() {
	if len(os.Args) < 2 || os.Args[1] != Subcommand {
		return
	}
	err := launch(os.Args[2:])
	// launch returns only when it failed; on success it became the program.
	fmt.Fprintf(os.Stderr, "workbench sandbox: %v; the command did not run\n", err)
	if probing && !kernelRefused(err) {
		os.Exit(probeUnsureExit)
	}
	os.Exit(launchExit)
}

// kernelRefused reports whether a set-up failure is the kernel saying no
// (the operation is not allowed or not supported here), rather than a
// shortage that may pass.
func kernelRefused(err error) bool {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return true // not a system call's failure: the spec or the system's layout
	}
	switch errno {
	case syscall.ENOMEM, syscall.EAGAIN, syscall.EINTR, syscall.EMFILE, syscall.ENFILE, syscall.ENOSPC, syscall.EBUSY:
		return false
	}
	return true
}
