package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/seed92b641c3/workbench/permission"
)

// ApprovalRequest is a call that stopped at the ask outcome and needs a
// person (the UI's modal) or a policy (headless) to decide.
type ApprovalRequest struct {
	CallID string
	Tool   string
	Input  json.RawMessage
	// Decision is the ask verdict: why it asks (Message), which rule or mode
	// asked (Rule), and the session rule that would allow it (Suggestion).
	Decision permission.Decision
	// Target is what the call touches, for the dialog to show.
	Target permission.Target
	// ReadOnly tells the dialog whether the call can change anything.
	ReadOnly bool
	// Agent names the subagent whose call this is ("explore: find the
	// parser"), "" for the person's own agent, so the person knows who
	// asks.
	Agent string
}

// ApprovalReply is the answer to an ApprovalRequest.
type ApprovalReply struct {
	// Approved lets the call run.
	Approved bool
	// Feedback is what the person wants the agent told when they say no.
	Feedback string
	// UpdatedInput is the input as the person edited it; it is re-checked
	// (H2) before the call runs.
	UpdatedInput json.RawMessage
	// Grant, when set, is a rule allowed for the rest of the session
	// ("Yes for this session").
	Grant string
	// By names who decided, for the audit trail ("person", "headless").
	By string
	// Interrupt, with a denial, also stops the person's turn (Esc in the
	// dialog, as at Claude Code's permission prompt): the model receives
	// the denial as the call's result, the stream and the other calls are
	// stopped, and the loop waits for the person to say what to do instead.
	Interrupt bool
}

// Approver answers approval requests. The UI shows a modal; headless runs
// use Headless, which never waits for anyone.
type Approver interface {
	Approve(ctx context.Context, req ApprovalRequest) ApprovalReply
}

// ApproverFunc adapts a function to Approver.
type ApproverFunc func(ctx context.Context, req ApprovalRequest) ApprovalReply

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, req ApprovalRequest) ApprovalReply {
	return f(ctx, req)
}

// Headless is the approver of runs with nobody to ask: every ask becomes a
// denial that says what asked and which --allow rule would let the call run,
// so a script never hangs on a prompt nobody sees.
type Headless struct{}

// Approve denies with instructions.
func (Headless) Approve(_ context.Context, req ApprovalRequest) ApprovalReply {
	return ApprovalReply{By: "headless", Feedback: HeadlessDenial(req)}
}

// HeadlessDenial explains an ask that nobody could answer.
func HeadlessDenial(req ApprovalRequest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s needs approval", req.Tool)
	if req.Decision.Message != "" {
		fmt.Fprintf(&b, " (%s)", strings.TrimSuffix(req.Decision.Message, "?"))
	}
	if r := req.Decision.Rule; r != "" {
		fmt.Fprintf(&b, "; asked by %s", describeRule(r))
	}
	b.WriteString(", and there is nobody to approve it in a headless run.")
	switch {
	case req.Decision.Rule == "workspace" || req.Decision.Rule == "protected":
		if req.Decision.Suggestion != "" {
			fmt.Fprintf(&b, " To allow it, pass --allow '%s'.", req.Decision.Suggestion)
		}
	case strings.HasPrefix(req.Decision.Rule, "mode:") || req.Decision.Rule == "tool" || req.Decision.Rule == "":
		if req.Decision.Suggestion != "" {
			fmt.Fprintf(&b, " To allow it, pass --allow '%s'", req.Decision.Suggestion)
			b.WriteString(" (or choose another --permission-mode).")
		}
	case req.Decision.Rule == "unknown-target":
		b.WriteString(" No rule or mode can allow a file named only at run time; name the file in the command.")
	case req.Decision.Rule == "unknown":
		b.WriteString(" No rule or mode can allow what the analysis cannot see before it runs; write the command without it.")
	case strings.HasPrefix(req.Decision.Rule, "hook:"):
		b.WriteString(" The hook asks for every such call; change the hook to let it run unattended.")
	case req.Decision.Rule == "hard-deny" || req.Decision.Rule == "headless":
	default:
		fmt.Fprintf(&b, " The ask rule %q takes precedence over allow rules; remove it from your settings to run this call unattended.", req.Decision.Rule)
	}
	return b.String()
}

func describeRule(r string) string {
	switch {
	case strings.HasPrefix(r, "mode:"):
		return "permission mode " + strings.TrimPrefix(r, "mode:")
	case r == "tool":
		return "the tool, which asks unless a rule allows the call"
	case r == "workspace":
		return "the workspace boundary (the path is outside the project)"
	case r == "protected":
		return "the protected-path check (git internals and settings files always ask)"
	case r == "unknown-target":
		return "the target check (a file named only when the command runs)"
	case r == "unknown":
		return "the shell analysis (part of the command is only known when it runs)"
	case r == "hard-deny":
		return "the hard-deny list, which holds in every mode"
	case strings.HasPrefix(r, "hook:"):
		return "hook " + strings.TrimPrefix(r, "hook:")
	default:
		return "rule " + r
	}
}
