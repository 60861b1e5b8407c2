package agent

import (
	"context"
	"sync"

	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

// permissionRequest runs the PermissionRequest hooks for an ask about to
// go to the approver. decided is false when no hook answered (or none is
// configured): then the person is asked. A hook's allow with an updated
// input is re-checked like any rewrite (H2); an ask the re-check raises
// still goes to the person, not back to the hooks.
func (r *run) permissionRequest(tc *tools.Context, d permission.Decision) (res tools.Result, ok, decided bool) {
	if r.p.Hooks == nil || !r.p.Hooks.Has(hooks.PermissionRequest) || r.askedHooks {
		return tools.Result{}, false, false
	}
	r.askedHooks = true
	t0 := r.clock()
	v := r.p.Hooks.PermissionRequest(r.ctx, r.hookInput(hooks.PermissionRequest))
	switch {
	case v.Deny:
		r.emit(StagePermission, OutcomeRejected, "denied by PermissionRequest hook "+v.Hook+": "+v.Reason, "hook:"+v.Hook, t0)
		if v.Prevent {
			r.prevent(v.StopReason)
		}
		return tools.Error("Permission denied by a PermissionRequest hook: " + v.Reason), false, true
	case v.Allow:
		r.emit(StagePermission, OutcomeApproved, "answered by PermissionRequest hook "+v.Hook+": "+v.Reason, "hook:"+v.Hook, t0)
		if len(v.UpdatedInput) > 0 && string(v.UpdatedInput) != string(r.input) {
			if res, ok := r.rewrite(tc, v.UpdatedInput, "PermissionRequest hook "+v.UpdatedBy); !ok {
				return res, false, true
			}
			// The rewrite may ask again; that ask goes to the person.
			if r.pending != nil {
				p := *r.pending
				r.pending = nil
				res, ok := r.askPerson(tc, p, r.tool.Target(r.input, tc))
				return res, ok, true
			}
		}
		return tools.Result{}, true, true
	}
	return tools.Result{}, false, false
}

// notifyWaiting runs the Notification hooks when a person is about to be
// kept waiting by an approval dialog (a headless approver keeps nobody
// waiting). The hooks run beside the dialog under the call's context, so
// a slow notifier never delays it; the returned wait, called once the
// person answered, lets them finish (each within its own timeout). A hook
// that answers `"continue": false` ends the run, as that field does in
// every event: withdraw takes the dialog down, and wait reports the hook's
// stopReason so the call does not run whatever the answer was.
func (r *run) notifyWaiting(a Approver, withdraw func()) (wait func() (stopReason string, stopped bool)) {
	if _, headless := a.(Headless); headless || r.p.Hooks == nil || !r.p.Hooks.Has(hooks.Notification) {
		return func() (string, bool) { return "", false }
	}
	in := r.hookInput(hooks.Notification)
	in.ToolName, in.ToolInput, in.ToolUseID = "", nil, ""
	msg := "Workbench needs your permission to use " + r.call.Name
	done := make(chan struct{})
	var reason string
	var stopped bool
	go func() {
		defer close(done)
		for _, o := range r.p.Hooks.Notify(r.ctx, in, "permission_prompt", msg) {
			if o.Err == nil && o.Prevent && !stopped {
				stopped, reason = true, firstNonEmpty(o.StopReason, "Notification hook "+o.Hook+" ended the run.")
				r.prevent(reason)
				withdraw()
			}
		}
	}()
	return func() (string, bool) {
		<-done
		return reason, stopped
	}
}

// hookStopKey finds the run's hookStop in a context.
type hookStopKey struct{}

// hookStop records that a hook asked to end the whole run (`"continue":
// false`, or a PermissionRequest deny with `"interrupt": true`). Calls of
// one turn may run in parallel, so the first reason wins.
type hookStop struct {
	mu     sync.Mutex
	set    bool
	reason string
}

// WithHookStop returns a context under which hooks of tool calls can end
// the run, and the record the loop reads after each turn.
func withHookStop(ctx context.Context) (context.Context, *hookStop) {
	h := &hookStop{}
	return context.WithValue(ctx, hookStopKey{}, h), h
}

// stopped reports whether a hook asked to end the run, and its reason for
// the person.
func (h *hookStop) stopped() (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.reason, h.set
}

func (h *hookStop) stop(reason string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.set {
		h.set, h.reason = true, reason
	}
}

// prevent passes a hook's request to end the run to the loop that started
// the call. A call run outside a loop (`workbench tool`) ends anyway.
func (r *run) prevent(reason string) {
	if h, ok := r.ctx.Value(hookStopKey{}).(*hookStop); ok {
		if reason == "" {
			reason = "A hook ended the run."
		}
		h.stop(reason)
	}
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
