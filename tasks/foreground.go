package tasks

import (
	"context"
	"errors"
	"time"
)

// ForegroundResult is how a foreground run came back.
type ForegroundResult struct {
	// Task is the task's state when RunForeground returned.
	Task Snapshot
	// Finished says the task ended before the timeout. It has then been
	// forgotten: its output went to the sink and nobody is notified.
	Finished bool
	// Interrupted says ctx ended first: the task was killed and forgotten.
	Interrupted bool
}

// RunForeground runs a task the caller waits for, with its output going to
// spec.Sink as it arrives. Whichever comes first decides the outcome:
//   - the task ends: Finished, and the task is forgotten;
//   - timeout passes (zero: never): neither flag is set and the task keeps
//     running with the sink still attached; the caller either moves it to
//     the background (Background) or kills it (Kill, then Forget);
//   - ctx ends: the task is killed, waited for and forgotten (Interrupted).
//
// An error means the task did not start (ctx already ended, bad working
// directory, closed manager).
func (m *Manager) RunForeground(ctx context.Context, spec Spec, timeout time.Duration) (ForegroundResult, error) {
	if err := ctx.Err(); err != nil {
		return ForegroundResult{}, err
	}
	if spec.Kind == KindMonitor {
		return ForegroundResult{}, errors.New("tasks: a monitor always runs in the background")
	}
	spec.Background = false
	t, err := m.Spawn(spec)
	if err != nil {
		return ForegroundResult{}, err
	}
	var expired <-chan time.Time
	if timeout > 0 {
		timer := time.NewTimer(timeout)
		defer timer.Stop()
		expired = timer.C
	}
	select {
	case <-t.done:
		snap := t.Snapshot()
		if !snap.Background { // unless someone moved it meanwhile: then it notified
			m.Forget(t.id)
		}
		return ForegroundResult{Task: snap, Finished: true}, nil
	case <-expired:
		return ForegroundResult{Task: t.Snapshot()}, nil
	case <-ctx.Done():
		t.requestStop(ReasonInterrupted)
		<-t.done
		m.Forget(t.id)
		return ForegroundResult{Task: t.Snapshot(), Interrupted: true}, nil
	}
}
