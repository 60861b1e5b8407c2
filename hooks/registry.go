package hooks

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// DefaultTimeout bounds a hook that names no timeout of its own: long
// enough for a linter or a test run, short enough that a hung script does
// not stall a session.
const DefaultTimeout = 60 * time.Second

// hook is one registration: an in-process Func or a shell command.
type hook struct {
	name  string
	match toolMatcher
	fn    Func    // nil for a command or prompt hook
	cmd   Command // used when fn and prompt are nil
	// prompt is a "type": "prompt" hook, asked of the session's model.
	prompt *promptHook
	// isolated runs fn in a goroutine of its own (OnIsolated).
	isolated bool
}

// Registry holds hooks per event, in registration order. It is safe for
// concurrent use: parallel tool calls run their hooks at the same time, and
// hooks may be registered while others run (a run sees the hooks registered
// when it started).
type Registry struct {
	mu      sync.RWMutex
	byEvent map[Event][]hook
	timeout time.Duration
	observe func(Input, Outcome)
	ask     Asker
	guard   func(command string) error
}

// NewRegistry returns an empty registry whose hooks time out after
// DefaultTimeout unless they say otherwise.
func NewRegistry() *Registry {
	return &Registry{byEvent: map[Event][]hook{}, timeout: DefaultTimeout}
}

// SetTimeout changes the timeout of hooks that name none (in-process hooks
// and commands with a zero Timeout). A value of zero or less restores
// DefaultTimeout.
func (r *Registry) SetTimeout(d time.Duration) {
	if d <= 0 {
		d = DefaultTimeout
	}
	r.mu.Lock()
	r.timeout = d
	r.mu.Unlock()
}

// SetGuard has every command hook checked just before it runs: when
// guard returns an error the command is not started and its outcome
// carries that error (a PreToolUse hook's call is then blocked, as for any
// hook that failed). The host uses it to refuse a hook whose script
// appeared in the workspace during the session, where a sandboxed
// command may have written it: the check and the start are one step
// (H17), whatever ran in the background meanwhile.
func (r *Registry) SetGuard(guard func(command string) error) {
	r.mu.Lock()
	r.guard = guard
	r.mu.Unlock()
}

// Observe sets a function called after every hook with the input it saw
// and its outcome, from whichever goroutine ran the hook. It exists so the
// host can record every verdict in the transcript (H7) and show failures of
// hooks whose aggregate result hides them (a failed SessionStart hook).
// f must be safe for concurrent use; nil turns observation off.
func (r *Registry) Observe(f func(in Input, o Outcome)) {
	r.mu.Lock()
	r.observe = f
	r.mu.Unlock()
}

// SetAsker gives prompt hooks the session's model. Without one a prompt
// hook fails (ErrNoModel), which blocks a PreToolUse call.
func (r *Registry) SetAsker(a Asker) {
	r.mu.Lock()
	r.ask = a
	r.mu.Unlock()
}

// On registers an in-process hook under a name shown in outcomes and
// messages. The matcher works as in AddCommand. The hook runs on the
// goroutine that fires the event, as a tool runs on the goroutine of its
// call, and must return once its context is done: its timeout is in the
// context, a verdict given after it counts as ErrTimeout, and a panic is
// recovered. On panics on an unknown event, a bad matcher or a nil f: those
// are mistakes in the host's code, like a bad pattern given to
// regexp.MustCompile.
func (r *Registry) On(ev Event, matcher, name string, f Func) {
	r.on("On", ev, matcher, hook{name: name, fn: f})
}

// OnIsolated registers an in-process hook that runs in a goroutine of its
// own and is abandoned at its timeout if it has not returned, so even code
// that ignores its context cannot hold a tool call or a session. It is for
// hooks the host cannot vouch for (code from a plugin, a call into a
// library without deadlines), much as http.TimeoutHandler is for handlers;
// the isolation costs a goroutine hand-off each time the hook runs.
func (r *Registry) OnIsolated(ev Event, matcher, name string, f Func) {
	r.on("OnIsolated", ev, matcher, hook{name: name, fn: f, isolated: true})
}

func (r *Registry) on(method string, ev Event, matcher string, h hook) {
	if h.fn == nil {
		panic("hooks: " + method + " with a nil Func")
	}
	if err := r.add(ev, matcher, h); err != nil {
		panic(fmt.Sprintf("hooks: %s(%s, %q): %v", method, ev, h.name, err))
	}
}

// AddCommand registers a shell command hook. The matcher selects tools for
// the tool events ("" or "*" for all; otherwise a regular expression that
// must match the whole tool name) and is ignored for other events. It
// returns an error for an unknown event, a bad matcher, an empty command or
// a negative timeout, so settings mistakes surface when they are loaded.
func (r *Registry) AddCommand(ev Event, matcher string, c Command) error {
	err := c.validate()
	if err == nil {
		err = r.add(ev, matcher, hook{name: c.Command, cmd: c})
	}
	if err != nil {
		return fmt.Errorf("hooks: %s hook %q: %w", ev, c.Command, err)
	}
	return nil
}

// Has reports whether any hook is registered for ev, so a caller can skip
// building an Input nobody will read.
func (r *Registry) Has(ev Event) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.byEvent[ev]) > 0
}

func (r *Registry) add(ev Event, matcher string, h hook) error {
	h, err := prepare(ev, matcher, h)
	if err != nil {
		return err
	}
	r.mu.Lock()
	// A new slice each time: runs in progress keep reading the old one
	// without a lock or a copy.
	r.byEvent[ev] = append(slices.Clip(r.byEvent[ev]), h)
	r.mu.Unlock()
	return nil
}

// prepare checks the event and compiles the matcher of a hook about to be
// registered.
func prepare(ev Event, matcher string, h hook) (hook, error) {
	if !ev.Valid() {
		return h, fmt.Errorf("unknown event %q", ev)
	}
	if ev.usesMatcher() {
		m, err := compileMatcher(matcher)
		if err != nil {
			return h, err
		}
		h.match = m
	}
	return h, nil
}

// Run runs every hook registered for in.HookEventName whose matcher accepts
// in.ToolName, one after another in registration order, and returns their
// outcomes in that order. Each hook gets its own timeout. A command is
// killed with its whole process group when it overruns (a few seconds of
// grace at most for pipes held by a process that left the group). An
// in-process hook finds its deadline in its context; one registered with On
// that returns late gets ErrTimeout instead of its verdict, and one
// registered with OnIsolated is abandoned at the deadline with ErrTimeout
// (its goroutine lingers until the Func returns, since Go cannot stop it).
// A panicking hook's outcome carries ErrPanic. Hooks not started because
// ctx is already done get an outcome with ctx's error.
func (r *Registry) Run(ctx context.Context, in Input) []Outcome {
	return r.run(ctx, in, nil)
}

// run is Run with an early exit: it stops after the first outcome for which
// stop returns true.
func (r *Registry) run(ctx context.Context, in Input, stop func(Outcome) bool) []Outcome {
	r.mu.RLock()
	all := r.byEvent[in.HookEventName] // never changed in place, see add
	timeout, observe, ask, guard := r.timeout, r.observe, r.ask, r.guard
	r.mu.RUnlock()

	out := make([]Outcome, 0, len(all))
	for _, h := range all {
		if !h.wants(in) {
			continue
		}
		o := runHook(ctx, h, in, timeout, ask, guard)
		if observe != nil {
			observe(in, o)
		}
		out = append(out, o)
		if stop != nil && stop(o) {
			break
		}
	}
	return out
}

// wants reports whether h fires for in: its matcher accepts the event's
// subject (the tool name, the session's source, ...), for the events that
// have one.
func (h hook) wants(in Input) bool {
	return !in.HookEventName.usesMatcher() || h.match.match(in.matchSubject())
}

func runHook(ctx context.Context, h hook, in Input, timeout time.Duration, ask Asker, guard func(string) error) Outcome {
	if ctx.Err() != nil {
		return Outcome{Hook: h.name, Err: fmt.Errorf("hook not run: %w", context.Cause(ctx))}
	}
	var o Outcome
	var refused error
	if h.fn == nil && h.prompt == nil && guard != nil {
		refused = guard(h.cmd.Command)
	}
	switch {
	case refused != nil:
		o = Outcome{Err: refused}
	case h.prompt != nil:
		start := time.Now()
		o = h.prompt.run(ctx, ask, in)
		o.Duration = time.Since(start)
	case h.fn == nil:
		if h.cmd.Timeout > 0 {
			timeout = h.cmd.Timeout
		}
		start := time.Now()
		o = h.cmd.run(ctx, in, timeout)
		o.Duration = time.Since(start)
	case h.isolated:
		o = callIsolated(ctx, h, in, timeout)
	default:
		o = callFunc(ctx, h, in, timeout)
	}
	o.Hook = h.name
	return o
}

// deadlineErr explains why a hook's context ended: the session cancelled it
// or its own timeout passed.
func deadlineErr(parent context.Context, timeout time.Duration) error {
	if parent.Err() != nil {
		return fmt.Errorf("hook cancelled: %w", context.Cause(parent))
	}
	return fmt.Errorf("%w after %s", ErrTimeout, timeout)
}
