package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

// Pipeline runs one tool call through every stage, in the seed's order:
// lookup, defaults and schema, permission (a deny stops here), PreToolUse
// hooks, approval only if still undecided, re-check of a rewritten input,
// call, capture, PostToolUse hooks, result. It never panics
// and never returns without a result; every stage is reported to Observe.
// A Pipeline is safe for concurrent calls once built.
type Pipeline struct {
	Tools  *tools.Registry
	Policy *permission.Policy
	// Mode reports the current permission mode; it can change mid-session
	// (Shift+Tab, plan mode tools).
	Mode func() permission.Mode
	// Hooks may be nil: no hooks configured.
	Hooks *hooks.Registry
	// Approver answers asks; nil behaves as Headless.
	Approver Approver
	// Observe receives every stage event; it must not block for long.
	Observe func(StageEvent)
	// Visible reports whether a tool name is shown to the model, so the
	// did-you-mean hint never reveals a hidden tool. Nil means all.
	Visible func(name string) bool
	// Runnable gates names that exist but may not run (deferred tools not
	// yet unlocked, H10). Nil means all registered tools may run.
	Runnable func(name string) (ok bool, why string)

	WorkDir string
	// ProjectDir is the project root, when the session works below it:
	// hooks find it in CLAUDE_PROJECT_DIR. Empty means WorkDir.
	ProjectDir     string
	SessionID      string
	TranscriptPath string
	SpillDir       string
	MaxOutput      int
	Env            []string
	// OnSpill is told of every spill file, for the transcript (H8).
	OnSpill func(tools.Spill)
	// OnGrant is told of every rule a person allows for the session, so a
	// resumed session keeps it.
	OnGrant func(rule string)
	// BeforeCall runs right before a tool is called, with the input it
	// will really run (after hooks and approval): rewind checkpoints the
	// workspace here before calls that can change files.
	BeforeCall func(ctx context.Context, call Call)
	// Sandbox, when set, adjusts decisions for the sandbox and says where
	// each call's process runs (H16).
	Sandbox SandboxPolicy
	// Nonce marks the session's own notices in tool results (set by
	// NewSession from Config.Nonce when empty).
	Nonce string
}

// Call is one tool call as the model (or a person) asked for it.
type Call struct {
	ID    string
	Name  string
	Input json.RawMessage
}

// internalFailure is what the model is told when a tool panics: the effects
// are unknown, so it should look before it tries again.
const internalFailure = "The tool failed internally; some of its effects may have happened. Check the state before trying again."

// Run executes one call and returns its result.
func (p *Pipeline) Run(ctx context.Context, call Call) (res tools.Result) {
	r := &run{p: p, call: call, ctx: ctx}
	defer func() {
		if v := recover(); v != nil {
			log.Printf("workbench: tool %s (call %s) panicked: %v\n%s", call.Name, call.ID, v, debug.Stack())
			res = tools.Error(internalFailure)
			r.emit(StageResult, OutcomePanic, fmt.Sprint(v), "", r.clock())
		}
	}()
	res = r.execute()
	outcome := OutcomeOK
	if res.IsError {
		outcome = OutcomeError
	}
	ev := r.event(StageResult, outcome, "", "", r.started)
	ev.Bytes = int64(len(res.Text))
	p.observe(ev)
	return res
}

func (p *Pipeline) observe(ev StageEvent) {
	if p.Observe != nil {
		p.Observe(ev)
	}
}

func (p *Pipeline) mode() permission.Mode {
	if p.Mode == nil {
		return permission.ModeDefault
	}
	return p.Mode()
}

// run is the state of one call as it moves through the stages.
type run struct {
	p       *Pipeline
	ctx     context.Context
	call    Call
	tool    tools.Tool
	input   json.RawMessage
	digest  string
	started time.Time
	last    time.Time // see clock
	// approved records that a person approved this exact input, so a
	// re-check after their own edit does not ask them twice.
	approved bool
	// rewrites counts input rewrites, bounded by maxRewrites.
	rewrites int
	// context is text PreToolUse hooks asked to add to the result.
	context string
	// called is set when the tool's Call returned; progress reported after
	// that is dropped.
	called atomic.Bool
	// pending is an ask of the permission evaluation not yet put to
	// anyone: the PreToolUse hooks run first and may answer it (settle).
	pending *permission.Decision
	// askedHooks records that the PermissionRequest hooks ran for this
	// call; they run at most once, as in Claude Code.
	askedHooks bool
}

// clock returns when the current stage began: the time of the last event,
// or the start of the call. Stages follow each other without a gap, so one
// reading of the clock per event serves as the end of one stage and the
// start of the next.
func (r *run) clock() time.Time { return r.last }

func (r *run) event(stage Stage, outcome, detail, rule string, since time.Time) StageEvent {
	// One reading of the monotonic clock: wall time follows from the start.
	now := r.started.Add(time.Since(r.started))
	r.last = now
	return StageEvent{
		CallID: r.call.ID, Tool: r.call.Name, Stage: stage, Outcome: outcome,
		Detail: detail, Rule: rule, DurationUS: now.Sub(since).Microseconds(),
		InputDigest: r.digest, Time: now,
	}
}

func (r *run) emit(stage Stage, outcome, detail, rule string, since time.Time) {
	if r.p.Observe != nil {
		r.p.Observe(r.event(stage, outcome, detail, rule, since))
	}
}

func (r *run) execute() tools.Result {
	r.started = time.Now()
	r.last = r.started
	if err := r.ctx.Err(); err != nil {
		r.emit(StageLookup, OutcomeCancelled, "cancelled before it started", "", r.started)
		return tools.Error("The tool call was cancelled before it started.")
	}
	if res, ok := r.lookup(); !ok {
		return res
	}
	if res, ok := r.validate(); !ok {
		return res
	}
	tc := r.toolContext()
	if res, ok := r.permit(tc, StagePermission); !ok {
		return res
	}
	if tools.IsDispatcher(r.tool) {
		if res, ok := r.settle(tc, nil); !ok {
			return res
		}
		return r.dispatch(tc)
	}
	if res, ok := r.preHooks(tc); !ok {
		return res
	}
	res := r.invoke(tc)
	res = r.capture(tc, res)
	return r.postHooks(res)
}

// dispatch runs a tool such as ExecuteExtraTool, whose only work is a nested
// call through this same pipeline under the target's own name (H10). Hooks
// and capture belong to the nested call, so the wrapper skips them rather
// than doing them twice.
func (r *run) dispatch(tc *tools.Context) tools.Result {
	t0 := r.clock()
	r.emit(StagePreHook, OutcomeSkipped, "dispatching tool: hooks run on the target", "", t0)
	tc.Execute = func(ctx context.Context, name string, input json.RawMessage) tools.Result {
		if t, ok := r.p.Tools.Get(name); ok && tools.IsDispatcher(t) {
			return tools.Error("A dispatching tool cannot run another dispatching tool.")
		}
		return r.p.Run(ctx, Call{ID: r.call.ID + "/" + name, Name: name, Input: input})
	}
	res := r.invoke(tc)
	if !res.Captured {
		res = r.capture(tc, res)
	} else {
		r.emit(StageCapture, OutcomeSkipped, "captured by the target call", "", r.clock())
	}
	r.emit(StagePostHook, OutcomeSkipped, "dispatching tool: hooks ran on the target", "", r.clock())
	return res
}

func (r *run) lookup() (tools.Result, bool) {
	t0 := r.clock()
	t, ok := r.p.Tools.Get(r.call.Name)
	if ok && r.p.Runnable != nil {
		if allowed, why := r.p.Runnable(r.call.Name); !allowed {
			r.emit(StageLookup, OutcomeDeny, why, "", t0)
			return tools.Error(fmt.Sprintf("Tool %q cannot run: %s", r.call.Name, why)), false
		}
	}
	if !ok {
		msg := fmt.Sprintf("Unknown tool %q.", r.call.Name)
		if hint := r.p.suggestName(r.call.Name); hint != "" {
			msg += fmt.Sprintf(" Did you mean %q?", hint)
		}
		r.emit(StageLookup, OutcomeError, msg, "", t0)
		return tools.Error(msg), false
	}
	r.tool = t
	r.emit(StageLookup, OutcomeOK, "", "", t0)
	return tools.Result{}, true
}

// validate applies defaults and the schema (H1). A RawInput tool repairs its
// raw text first; what it then runs with is validated all the same.
func (r *run) validate() (tools.Result, bool) {
	t0 := r.clock()
	in := r.call.Input
	detail := ""
	if r.tool.RawInput() {
		if rep, ok := r.tool.(tools.RawRepairer); ok {
			fixed, err := rep.Repair(in)
			if err != nil {
				r.emit(StageSchema, OutcomeError, "repair: "+err.Error(), "", t0)
				return tools.Error(fmt.Sprintf("Invalid input for %s: %v", r.call.Name, err)), false
			}
			if string(fixed) != string(in) {
				detail = "raw input repaired"
			}
			in = fixed
		}
	}
	prepared, err := r.tool.Schema().Prepare(in)
	if err != nil {
		r.emit(StageSchema, OutcomeError, err.Error(), "", t0)
		return tools.Error(fmt.Sprintf("Invalid input for %s: %v", r.call.Name, err)), false
	}
	r.setInput(prepared)
	r.emit(StageSchema, OutcomeOK, detail, "", t0)
	return tools.Result{}, true
}

func (r *run) setInput(in json.RawMessage) {
	r.input = in
	sum := sha256.Sum256(in)
	r.digest = hex.EncodeToString(sum[:8])
}

func (r *run) toolContext() *tools.Context {
	p := r.p
	tc := &tools.Context{
		WorkDir: p.WorkDir, SessionID: p.SessionID, CallID: r.call.ID, Tool: r.call.Name,
		InputDigest: r.digest, MaxOutput: p.MaxOutput, SpillDir: p.SpillDir, Env: p.Env,
		OnSpill: p.OnSpill, Nonce: p.Nonce,
	}
	if p.Policy != nil {
		tc.Paths = p.Policy
	}
	return tc
}
