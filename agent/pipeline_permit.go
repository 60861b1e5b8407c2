package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

// maxRewrites bounds how often one call's input may be rewritten, so a tool
// or hook that rewrites on every check cannot loop forever.
const maxRewrites = 4

// permit evaluates the session's rules on the current input. stage is
// permission the first time and recheck after a rewrite (H2). A deny ends
// the call here, before any hook runs, so no hook can overrule it. An ask
// is only remembered (r.pending): the PreToolUse hooks run first and may
// answer it, and settle asks the person only if it is still undecided.
func (r *run) permit(tc *tools.Context, stage Stage) (tools.Result, bool) {
	t0 := r.clock()
	target := r.tool.Target(r.input, tc)
	d := r.p.Policy.Evaluate(permission.Request{
		Tool:     r.call.Name,
		Mode:     r.p.mode(),
		ReadOnly: r.tool.ReadOnly(r.input),
		Own:      r.tool.CheckPermission(r.ctx, r.input, tc),
		Target:   target,
		WorkDir:  r.p.WorkDir,
	})
	d = r.p.gate(r.call.Name, r.input, r.p.mode(), d)
	tc.Checked = d.Checked // the file tools open what this check resolved (H17)
	switch d.Behavior {
	case permission.Allow:
		r.pending = nil
		r.emit(stage, OutcomeAllow, d.Message, d.Rule, t0)
		if len(d.UpdatedInput) > 0 && !bytes.Equal(d.UpdatedInput, r.input) {
			return r.rewrite(tc, d.UpdatedInput, "the tool's permission check")
		}
		return tools.Result{}, true
	case permission.Ask:
		if stage == StageRecheck && r.approved {
			r.pending = nil
			r.emit(stage, OutcomeAllow, "a person approved this input", "person", t0)
			return tools.Result{}, true
		}
		r.emit(stage, OutcomeAsk, d.Message, d.Rule, t0)
		r.pending = &d
		return tools.Result{}, true
	default:
		r.pending = nil
		r.emit(stage, OutcomeDeny, d.Message, d.Rule, t0)
		return tools.Error(denialText(d)), false
	}
}

// hookMayAnswer reports whether a PreToolUse hook's allow may answer an
// ask that came from rule. It may answer the asks of the mode, of the tool
// itself and of the workspace boundary: the questions a person would be
// asked only because nothing said yes. It may not answer an ask rule (the
// person wrote that they want to be asked, and Claude Code's hooks
// reference says the same), the protected paths (H4: the agent must not
// widen its own permissions), or a target known only at run time (H15).
func hookMayAnswer(rule string) bool {
	return strings.HasPrefix(rule, "mode:") || rule == "tool" || rule == "workspace"
}

// settle decides an ask that is still open after the PreToolUse hooks: a
// hook's ask shows the dialog whatever the rules said; a hook's allow
// answers an ask it may answer (hookMayAnswer); anything else goes to the
// PermissionRequest hooks and then to the approver.
func (r *run) settle(tc *tools.Context, v *hooks.PreVerdict) (tools.Result, bool) {
	target := r.tool.Target(r.input, tc)
	if v != nil && v.Ask && !r.approved {
		r.pending = nil
		return r.askPerson(tc, r.askFromHook(v.Hook, v.Reason), target)
	}
	if r.pending == nil {
		return tools.Result{}, true
	}
	d := *r.pending
	r.pending = nil
	if v != nil && v.Allow && hookMayAnswer(d.Rule) {
		r.emit(StagePermission, OutcomeApproved, "answered by PreToolUse hook "+v.AllowedBy+": "+v.AllowReason, "hook:"+v.AllowedBy, r.clock())
		return tools.Result{}, true
	}
	return r.askPerson(tc, d, target)
}

func denialText(d permission.Decision) string {
	msg := d.Message
	if msg == "" {
		msg = "denied"
	}
	if d.Rule != "" {
		return fmt.Sprintf("Permission denied: %s (decided by %s).", msg, describeRule(d.Rule))
	}
	return "Permission denied: " + msg
}

// askPerson sends the call to the approver: the person in the UI, or the
// headless policy that denies with instructions. PermissionRequest hooks
// run first and may answer for the person; Notification hooks are told
// when a person is really kept waiting.
func (r *run) askPerson(tc *tools.Context, d permission.Decision, target permission.Target) (tools.Result, bool) {
	if byPerson(r.ctx) {
		r.emit(StagePermission, OutcomeApproved, personDecision+" (it asked: "+d.Message+")", "person", r.clock())
		r.approved = true
		return tools.Result{}, true
	}
	if res, ok, decided := r.permissionRequest(tc, d); decided {
		return res, ok
	}
	t0 := r.clock()
	approver := r.p.Approver
	if approver == nil {
		approver = Headless{}
	}
	actx, withdraw := context.WithCancel(r.ctx)
	notified := r.notifyWaiting(approver, withdraw)
	reply := approver.Approve(actx, ApprovalRequest{
		CallID: r.call.ID, Tool: r.call.Name, Input: r.input,
		Decision: d, Target: target, ReadOnly: r.tool.ReadOnly(r.input),
	})
	withdraw()
	if why, stopped := notified(); stopped {
		r.emit(StagePermission, OutcomeRejected, "a Notification hook ended the run: "+why, "hook", t0)
		return tools.Error("The tool call did not run: a Notification hook ended the run: " + why), false
	}
	if r.ctx.Err() != nil {
		r.emit(StagePermission, OutcomeCancelled, "cancelled while waiting for approval", reply.By, t0)
		return tools.Error("The tool call was cancelled while waiting for approval."), false
	}
	if !reply.Approved {
		r.emit(StagePermission, OutcomeRejected, reply.Feedback, reply.By, t0)
		if reply.By == "headless" {
			return tools.Error("Permission denied: " + reply.Feedback), false
		}
		if reply.Interrupt {
			// The result is the denial, not "cancelled": the turn is
			// stopped only after the call has its answer.
			defer stopTurn(r.ctx)
			return personDenial(deniedAndStopped, PersonDenial{StoppedTurn: true}), false
		}
		msg := "The person declined this tool call."
		if reply.Feedback != "" {
			msg += " They said: " + reply.Feedback
		}
		return personDenial(msg, PersonDenial{Feedback: reply.Feedback}), false
	}
	detail := "approved by " + reply.By
	rule := "person"
	if reply.Grant != "" {
		if err := r.p.Policy.Grant(reply.Grant); err != nil {
			detail += fmt.Sprintf("; the session grant %q was not added: %v", reply.Grant, err)
		} else {
			detail += "; allowed for the session: " + reply.Grant
			rule = reply.Grant
			if r.p.OnGrant != nil {
				r.p.OnGrant(reply.Grant)
			}
		}
	}
	r.emit(StagePermission, OutcomeApproved, detail, rule, t0)
	r.approved = true
	if len(reply.UpdatedInput) > 0 && !bytes.Equal(reply.UpdatedInput, r.input) {
		return r.rewrite(tc, reply.UpdatedInput, "the approval dialog")
	}
	return tools.Result{}, true
}

// rewrite replaces the input and runs defaults, schema and the whole
// permission evaluation again (H2): a rewrite the rules would not allow is
// denied or asked about, never silently run.
func (r *run) rewrite(tc *tools.Context, in json.RawMessage, by string) (tools.Result, bool) {
	t0 := r.clock()
	r.rewrites++
	if r.rewrites > maxRewrites {
		r.emit(StageRecheck, OutcomeDeny, "input rewritten too many times", "", t0)
		return tools.Error("The tool input was rewritten too many times; the call was not run."), false
	}
	prepared, err := r.tool.Schema().Prepare(in)
	if err != nil {
		r.emit(StageRecheck, OutcomeError, fmt.Sprintf("input rewritten by %s is invalid: %v", by, err), "", t0)
		return tools.Error(fmt.Sprintf("Invalid input for %s after %s rewrote it: %v", r.call.Name, by, err)), false
	}
	r.setInput(prepared)
	tc.InputDigest = r.digest
	ev := r.event(StageRecheck, OutcomeRewrite, "input rewritten by "+by+"; checking schema and permissions again", "", t0)
	ev.Input = prepared
	r.p.observe(ev)
	return r.permit(tc, StageRecheck)
}
