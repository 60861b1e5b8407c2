package agent

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

// maxRewrites bounds how often one call's input may be rewritten, so a tool
// or hook that rewrites on every check cannot loop forever.
const maxRewrites = 4

// permit evaluates the session's rules on the current input and, on ask,
// goes to the approver. stage is permission the first time and recheck after
// a rewrite (H2).
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
		r.emit(stage, OutcomeAllow, d.Message, d.Rule, t0)
		if len(d.UpdatedInput) > 0 && !bytes.Equal(d.UpdatedInput, r.input) {
			return r.rewrite(tc, d.UpdatedInput, "the tool's permission check")
		}
		return tools.Result{}, true
	case permission.Ask:
		if stage == StageRecheck && r.approved {
			r.emit(stage, OutcomeAllow, "a person approved this input", "person", t0)
			return tools.Result{}, true
		}
		r.emit(stage, OutcomeAsk, d.Message, d.Rule, t0)
		return r.ask(tc, d, target)
	default:
		r.emit(stage, OutcomeDeny, d.Message, d.Rule, t0)
		return tools.Error(denialText(d)), false
	}
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

// ask sends the call to the approver: the person in the UI, or the headless
// policy that denies with instructions.
func (r *run) ask(tc *tools.Context, d permission.Decision, target permission.Target) (tools.Result, bool) {
	t0 := r.clock()
	approver := r.p.Approver
	if approver == nil {
		approver = Headless{}
	}
	reply := approver.Approve(r.ctx, ApprovalRequest{
		CallID: r.call.ID, Tool: r.call.Name, Input: r.input,
		Decision: d, Target: target, ReadOnly: r.tool.ReadOnly(r.input),
	})
	if r.ctx.Err() != nil {
		r.emit(StagePermission, OutcomeCancelled, "cancelled while waiting for approval", reply.By, t0)
		return tools.Error("The tool call was cancelled while waiting for approval."), false
	}
	if !reply.Approved {
		r.emit(StagePermission, OutcomeRejected, reply.Feedback, reply.By, t0)
		if reply.By == "headless" {
			return tools.Error("Permission denied: " + reply.Feedback), false
		}
		msg := "The person declined this tool call."
		if reply.Feedback != "" {
			msg += " They said: " + reply.Feedback
		}
		return tools.Error(msg), false
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
