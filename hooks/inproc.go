package hooks

import (
	"context"
	"fmt"
	"time"
)

// callFunc runs an in-process hook on the caller's goroutine, the way a
// tool runs: the hook gets a context that ends at its deadline and is
// trusted to return when it does. A panic becomes an outcome, and a verdict
// that arrives after the deadline is replaced by ErrTimeout, so a slow
// PreToolUse hook still fails closed. A hook that may ignore its context
// is registered with OnIsolated instead.
func callFunc(ctx context.Context, h hook, in Input, timeout time.Duration) (o Outcome) {
	start := time.Now()
	hctx := newHookContext(ctx, start, timeout)
	defer func() {
		hctx.finish()
		if p := recover(); p != nil {
			o = Outcome{Err: fmt.Errorf("%w: %v", ErrPanic, p)}
		}
		end := time.Now()
		o.Duration = end.Sub(start)
		if o.Err == nil && end.After(hctx.deadline) {
			o = Outcome{Err: fmt.Errorf("%w after %s (the hook returned %s late; its verdict was dropped)",
				ErrTimeout, timeout, end.Sub(hctx.deadline).Round(time.Millisecond)), Duration: o.Duration}
		}
	}()
	return h.fn(hctx, in)
}

// callIsolated runs an in-process hook in a goroutine of its own so that
// neither a panic nor a hook that ignores its context can hold the caller
// past the timeout. An abandoned goroutine finishes on its own when the
// Func returns; its result goes to a buffered channel nobody reads. The
// hand-off costs a few microseconds, more than the rest of a tool call's
// pipeline, which is why it is not the default.
func callIsolated(ctx context.Context, h hook, in Input, timeout time.Duration) Outcome {
	start := time.Now()
	hctx := newHookContext(ctx, start, timeout)
	defer hctx.finish()

	done := make(chan Outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- Outcome{Err: fmt.Errorf("%w: %v", ErrPanic, p)}
			}
		}()
		done <- h.fn(hctx, in)
	}()

	var o Outcome
	select {
	case o = <-done:
	case <-ctx.Done():
		o = lastChance(done, ctx, timeout)
	case <-alarms.after(start, hctx.deadline):
		o = lastChance(done, ctx, timeout)
	}
	o.Duration = time.Since(start)
	return o
}

// lastChance takes the outcome of a hook that finished just as its
// deadline passed or its context ended; it still counts. Otherwise the hook
// is abandoned.
func lastChance(done <-chan Outcome, ctx context.Context, timeout time.Duration) Outcome {
	select {
	case o := <-done:
		return o
	default:
		return Outcome{Err: deadlineErr(ctx, timeout)}
	}
}
