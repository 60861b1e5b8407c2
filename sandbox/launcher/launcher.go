// Package launcher is the sandbox's launcher: the hidden sub-command
// (Subcommand) the workbench binary runs itself as for each sandboxed
// command, which enters the namespaces, makes the protected paths
// read-only, hides the denied ones, applies Landlock and seccomp and execs
// the command. Package sandbox prepares the command; this package is what
// runs in the child.
//
// It is a package of its own, importing only what the launcher needs, so
// that its init, which takes over a process started as the launcher, runs
// before the binary's heavy packages initialise (Go initialises a package
// as soon as its imports are, in import path order among those ready): in
// the workbench binary most of a launcher's start was the package
// initialisation of the syntax highlighter, the JSON schema compiler and
// the UI, none of which a launcher uses.
package launcher

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// Subcommand is the hidden first argument that makes the workbench binary
// the sandbox launcher: `workbench __sandbox SPEC -- PROGRAM ARGS...`.
const Subcommand = "__sandbox"

// Exit is the launcher's exit status when it could not set the sandbox
// up: the command did not run at all. A probe exits with it only when the
// kernel refused (ProbeUnsureExit otherwise).
const Exit = 126

// ProbeUnsureExit is a probe's exit status when the set-up failed for a
// reason that may pass (no memory or descriptors for the moment): the
// probe is inconclusive, not a refusal.
const ProbeUnsureExit = 125

// MinABI is the oldest Landlock ABI the sandbox accepts: version 3 is the
// first that stops truncating a file it may not write.
const MinABI = 3

// NetworkMode is the network a sandboxed command gets.
type NetworkMode string

// The network modes.
const (
	NetNone    NetworkMode = "none"
	NetOpen    NetworkMode = "open"
	NetDomains NetworkMode = "allowed-domains"
)

// Spec is what the launcher enforces, handed over as its first argument in
// JSON.
type Spec struct {
	Write    []string `json:"write,omitempty"`
	ReadOnly []string `json:"readOnly,omitempty"`
	Pin      []string `json:"pin,omitempty"`
	Hide     []string `json:"hide,omitempty"`
	// Sealed are writable roots where nothing but regular files may be
	// made directly (sandbox.Resolved.Sealed).
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
	// Stall makes a probe wait instead of answering (a test switch).
	Stall bool `json:"stall,omitempty"`
}

// CacheLayer is one command's writable layer over one cache.
type CacheLayer struct {
	// Path is the cache; Upper receives the command's writes; Work is the
	// overlay's scratch directory on Upper's file system.
	Path, Upper, Work string
}

// probing is set while the launcher runs a probe, so a failure can tell a
// refusal from a passing shortage.
var probing bool

// init makes every binary that links this package its own launcher before
// any later package does its work: the workbench binary and each test
// binary alike. A test binary without it, started as the launcher, ran its
// whole test suite instead of the command, and each of those runs started
// more launchers.
func init() { Dispatch() }

// Dispatch runs the launcher and never returns when this process was
// started as one (os.Args[1] is Subcommand); otherwise it returns at once.
func Dispatch() {
	if len(os.Args) < 2 || os.Args[1] != Subcommand {
		return
	}
	err := launch(os.Args[2:])
	// launch returns only when it failed; on success it became the program.
	fmt.Fprintf(os.Stderr, "workbench sandbox: %v; the command did not run\n", err)
	if probing && !kernelRefused(err) {
		os.Exit(ProbeUnsureExit)
	}
	os.Exit(Exit)
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

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	if p == dir || dir == "/" {
		return true
	}
	return len(p) > len(dir) && p[:len(dir)] == dir && p[len(dir)] == '/'
}
