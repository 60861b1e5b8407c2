package hooks

import (
	"context"
	"fmt"
	"time"
)

// runFunc runs an in-process hook in its own goroutine so that neither a
// panic nor a hook that ignores ctx can take the caller down or hold it
// past the timeout. An abandoned goroutine finishes on its own when the
// Func returns; its result goes to a buffered channel nobody reads.
func runFunc(ctx context.Context, f Func, in Input, timeout time.Duration) Outcome {
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	done := make(chan Outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- Outcome{Err: fmt.Errorf("%w: %v", ErrPanic, p)}
			}
		}()
		done <- f(hctx, in)
	}()

	select {
	case o := <-done:
		return o
	case <-hctx.Done():
		// A hook that finished just as the deadline passed still counts.
		select {
		case o := <-done:
			return o
		default:
			return Outcome{Err: deadlineErr(ctx, timeout)}
		}
	}
}
