package sandbox

import "github.com/seed92b641c3/workbench/sandbox/launcher"

// Subcommand is the hidden first argument that makes the workbench binary
// the sandbox launcher: `workbench __sandbox SPEC -- PROGRAM ARGS...`.
const Subcommand = launcher.Subcommand

// Dispatch runs the launcher and never returns when this process was
// started as one (os.Args[1] is Subcommand); otherwise it returns at once.
// Package launcher's init already calls it in every binary that links the
// sandbox, before the binary's heavier packages initialise; main and the
// TestMain of packages that start sandboxed processes call it too, which
// costs nothing.
func Dispatch() { launcher.Dispatch() }
