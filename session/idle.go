package session

import (
	"context"
	"sync"
	"time"

	"github.com/seed92b641c3/workbench/hooks"
)

// IdlePromptAfter is how long the prompt input waits after a run before
// the Notification hooks hear of it (notification_type "idle_prompt"), the
// 60 seconds Claude Code's hooks reference gives.
const IdlePromptAfter = 60 * time.Second

// idleMessage is the idle notification's message.
const idleMessage = "Workbench is waiting for your input"

// idleWatch fires the Notification hooks once when the person has left the
// prompt input waiting for a while after a run ended. A new prompt disarms
// it; close stops it, ending a notification hook still running. A nil
// watch does nothing (headless runs keep nobody waiting).
type idleWatch struct {
	after time.Duration
	fire  func(ctx context.Context)

	mu     sync.Mutex
	timer  *time.Timer
	gen    int // which arm a timer belongs to; disarm and re-arm move it on
	closed bool
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// newIdleWatch returns a watch that calls fire once the input has waited
// for after since a run ended, or nil when after is not positive or no
// Notification hook would listen.
func newIdleWatch(after time.Duration, h *hooks.Registry, fire func(ctx context.Context)) *idleWatch {
	if after <= 0 || h == nil || !h.Has(hooks.Notification) {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &idleWatch{after: after, fire: fire, ctx: ctx, cancel: cancel}
}

// arm starts the wait: a run ended and the input is the person's again.
func (w *idleWatch) arm() {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	w.stopLocked()
	gen := w.gen
	w.timer = time.AfterFunc(w.after, func() { w.run(gen) })
}

// disarm ends the wait: a prompt is running.
func (w *idleWatch) disarm() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.stopLocked()
	w.mu.Unlock()
}

func (w *idleWatch) stopLocked() {
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	w.gen++
}

// run fires the hooks for the arm gen, unless it was disarmed since.
func (w *idleWatch) run(gen int) {
	w.mu.Lock()
	if w.closed || gen != w.gen {
		w.mu.Unlock()
		return
	}
	w.timer = nil
	w.wg.Add(1)
	w.mu.Unlock()
	defer w.wg.Done()
	w.fire(w.ctx)
}

// close stops the watch for good and waits for a notification in
// progress, which it cancels: quitting must not wait on a notifier.
func (w *idleWatch) close() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.closed = true
	w.stopLocked()
	w.mu.Unlock()
	w.cancel()
	w.wg.Wait()
}

// idleNotify runs the Notification hooks for the idle input.
func (s *Session) idleNotify(ctx context.Context) {
	c := s.Config
	in := hooks.Input{SessionID: s.Dir.ID, TranscriptPath: s.Dir.Transcript(), Cwd: c.WorkDir, ProjectDir: c.ProjectDir,
		PermissionMode: string(c.Mode.Get())}
	c.Hooks.Notify(ctx, in, "idle_prompt", idleMessage)
}
