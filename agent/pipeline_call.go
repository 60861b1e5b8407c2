package agent

import (
	"context"
	"fmt"
	"log"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/tools"
)

func (r *run) hookInput(event hooks.Event) hooks.Input {
	return hooks.Input{
		SessionID: r.p.SessionID, TranscriptPath: r.p.TranscriptPath, Cwd: r.p.WorkDir, ProjectDir: r.p.ProjectDir,
		PermissionMode: string(r.p.mode()),
		HookEventName:  event, ToolName: r.call.Name, ToolInput: r.input, ToolUseID: r.call.ID,
	}
}

// preHooks runs PreToolUse hooks. A block stops the call; a rewritten
// input is re-checked like any other rewrite (H2); then settle decides an
// ask the rules or a hook left open.
func (r *run) preHooks(tc *tools.Context) (tools.Result, bool) {
	t0 := r.clock()
	if r.p.Hooks == nil || !r.p.Hooks.Has(hooks.PreToolUse) {
		r.emit(StagePreHook, OutcomeSkipped, "no hooks", "", t0)
		return r.settle(tc, nil)
	}
	v := r.p.Hooks.PreToolUse(r.ctx, r.hookInput(hooks.PreToolUse))
	r.context = v.AdditionalContext
	if v.Block {
		r.pending = nil
		r.emit(StagePreHook, OutcomeBlock, v.Reason, "hook:"+v.Hook, t0)
		if v.Prevent {
			r.prevent(v.StopReason)
		}
		return tools.Error("Blocked by a PreToolUse hook: " + v.Reason), false
	}
	switch {
	case len(v.UpdatedInput) > 0 && string(v.UpdatedInput) != string(r.input):
		r.emit(StagePreHook, OutcomeRewrite, "hook "+v.UpdatedBy+" rewrote the input", "hook:"+v.UpdatedBy, t0)
		if res, ok := r.rewrite(tc, v.UpdatedInput, "hook "+v.UpdatedBy); !ok {
			return res, false
		}
	case v.Allow:
		r.emit(StagePreHook, OutcomeAllow, v.AllowReason, "hook:"+v.AllowedBy, t0)
	case v.Ask:
		r.emit(StagePreHook, OutcomeAsk, v.Reason, "hook:"+v.Hook, t0)
	default:
		r.emit(StagePreHook, OutcomeOK, hookCount(len(v.Outcomes), "passed"), "", t0)
	}
	return r.settle(tc, &v)
}

// progress reports a running tool's progress line as a call-stage event.
// Tools call it from their own goroutines, so it reads the clock itself and
// leaves the run's stage clock alone.
func (r *run) progress(line string) {
	if r.called.Load() {
		return // a background task's output after its call returned
	}
	r.p.observe(StageEvent{
		CallID: r.call.ID, Tool: r.call.Name, Stage: StageCall, Outcome: OutcomeProgress,
		Detail: firstLine(line, 200), InputDigest: r.digest, Time: time.Now(),
	})
}

// invoke calls the tool with panic isolation.
func (r *run) invoke(tc *tools.Context) (res tools.Result) {
	t0 := r.clock()
	if where := r.p.sandboxOf(r.call.Name, r.input); where != "" {
		// The call's start names its sandbox in the panel, --trace and
		// the transcript (H16).
		ev := r.event(StageCall, OutcomeStart, where, "", t0)
		ev.Sandbox = where
		r.p.observe(ev)
	} else {
		r.emit(StageCall, OutcomeStart, "", "", t0)
	}
	if tc.Progress == nil {
		tc.Progress = r.progress
	}
	defer r.called.Store(true)
	defer func() {
		if v := recover(); v != nil {
			log.Printf("workbench: tool %s (call %s) panicked: %v\n%s", r.call.Name, r.call.ID, v, debug.Stack())
			res = tools.Error(internalFailure)
			r.emit(StageCall, OutcomePanic, fmt.Sprint(v), "", t0)
		}
	}()
	if r.p.BeforeCall != nil {
		r.p.BeforeCall(r.ctx, Call{ID: r.call.ID, Name: r.call.Name, Input: r.input})
	}
	res, err := r.tool.Call(r.ctx, r.input, tc)
	if err != nil {
		res = tools.Error("Error: " + err.Error())
	}
	outcome := OutcomeOK
	switch {
	case r.ctx.Err() != nil && res.IsError:
		outcome = OutcomeCancelled
	case res.IsError:
		outcome = OutcomeError
	}
	r.emit(StageCall, outcome, firstLine(res.Text, 200), "", t0)
	return res
}

// capture applies the output cap unless the tool already captured its own
// output (a flag on the result, never inferred from the text, H8).
func (r *run) capture(tc *tools.Context, res tools.Result) tools.Result {
	t0 := r.clock()
	original := int64(len(res.Text))
	if !res.Captured {
		res.Text, res.Spill = tools.CaptureText(tc, res.Text)
		res.Captured = true
	} else if res.Spill == nil && len(res.Text) > tc.Cap()*2 {
		// A tool that claims to have captured but returns far more than
		// the cap is capped again: the flag is not a licence.
		res.Text, res.Spill = tools.CaptureText(tc, res.Text)
	}
	if res.Text == "" {
		res.Text = "(no output)"
	}
	ev := r.event(StageCapture, OutcomeOK, "", "", t0)
	ev.Bytes = original
	switch {
	case res.Spill != nil:
		ev.Outcome = OutcomeSpilled
		ev.Bytes = res.Spill.Bytes
		ev.SpillPath = res.Spill.Path
		ev.SHA256 = res.Spill.SHA256
		ev.Detail = fmt.Sprintf("%d bytes, %d lines spilled", res.Spill.Bytes, res.Spill.Lines)
	case int64(len(res.Text)) < original:
		ev.Outcome = OutcomeTruncated
		ev.Detail = fmt.Sprintf("%d of %d bytes kept", len(res.Text), original)
	}
	r.p.observe(ev)
	return res
}

// postHooks runs PostToolUse (and PostToolUseFailure on an error). Their
// failures are reported in the trace, never fatal; their block reasons and
// added context reach the model as a note on the result.
func (r *run) postHooks(res tools.Result) tools.Result {
	t0 := r.clock()
	if r.context != "" {
		res.Text += "\n\n" + r.context
	}
	if r.p.Hooks == nil || (!r.p.Hooks.Has(hooks.PostToolUse) && !(res.IsError && r.p.Hooks.Has(hooks.PostToolUseFailure))) {
		r.emit(StagePostHook, OutcomeSkipped, "no hooks", "", t0)
		return res
	}
	in := r.hookInput(hooks.PostToolUse)
	in.ToolResponse = r.toolResponse(res)
	in.IsError = res.IsError
	if res.IsError {
		in.Error = firstLine(res.Text, 500)
	}
	ctx := r.ctx
	in.IsInterrupt = res.IsError && ctx.Err() != nil
	if ctx.Err() != nil {
		// The call was cancelled, but its post hooks still deserve to see
		// the outcome; give them a short grace of their own.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
	}
	outs := r.p.Hooks.Post(ctx, in, res.IsError)
	var notes, failures []string
	for _, o := range outs {
		if o.Err != nil {
			failures = append(failures, fmt.Sprintf("%s: %v", o.Hook, o.Err))
			continue
		}
		if o.Prevent {
			r.prevent(firstNonEmpty(o.StopReason, "PostToolUse hook "+o.Hook+" ended the run."))
		}
		if o.Block && o.Reason != "" {
			notes = append(notes, fmt.Sprintf("[hook %s: %s]", o.Hook, o.Reason))
		}
		if o.AdditionalContext != "" {
			notes = append(notes, o.AdditionalContext)
		}
	}
	if len(notes) > 0 {
		res.Text += "\n\n" + strings.Join(notes, "\n")
	}
	outcome, detail := OutcomeOK, hookCount(len(outs), "ran")
	if len(failures) > 0 {
		outcome, detail = OutcomeError, "hook failures (reported, not fatal): "+strings.Join(failures, "; ")
	}
	r.emit(StagePostHook, outcome, detail, "", t0)
	return res
}

// hookCount says how many hooks passed or ran, for a stage's detail. The
// usual counts are spelled out once, not on every call.
func hookCount(n int, verb string) string {
	if n < len(hookCounts) && verb == "passed" {
		return hookCounts[n].passed
	}
	if n < len(hookCounts) && verb == "ran" {
		return hookCounts[n].ran
	}
	return countHooks(n, verb)
}

var hookCounts = func() (t [8]struct{ passed, ran string }) {
	for n := range t {
		t[n].passed, t[n].ran = countHooks(n, "passed"), countHooks(n, "ran")
	}
	return t
}()

func countHooks(n int, verb string) string {
	if n == 1 {
		return "1 hook " + verb
	}
	return strconv.Itoa(n) + " hooks " + verb
}

func firstLine(s string, max int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}
