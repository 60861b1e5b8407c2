package hooks

import (
	"errors"
	"fmt"
)

// Errors a hook's Outcome.Err can wrap, so callers can tell failures apart
// with errors.Is without reading messages.
var (
	// ErrTimeout: the hook did not finish within its timeout.
	ErrTimeout = errors.New("hook timed out")
	// ErrPanic: an in-process hook panicked.
	ErrPanic = errors.New("hook panicked")
	// ErrInvalidOutput: a command hook printed JSON that could not be read,
	// or a verdict with a value no hook protocol defines.
	ErrInvalidOutput = errors.New("hook printed invalid JSON")
)

// ExitError reports a command hook that exited with a status other than 0
// (go on) or 2 (block), or was killed by a signal it was not sent by us.
type ExitError struct {
	// Code is the exit status, or -1 when a signal ended the process.
	Code int
	// Status describes how the process ended ("exit status 1",
	// "signal: segmentation fault").
	Status string
	// Stderr is what the hook wrote to stderr, trimmed and capped.
	Stderr string
}

// Error names the status and, when there is one, the hook's own message.
func (e *ExitError) Error() string {
	if e.Stderr == "" {
		return "hook failed: " + e.Status
	}
	return fmt.Sprintf("hook failed: %s: %s", e.Status, e.Stderr)
}
