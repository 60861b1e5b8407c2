package agent

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/seed92b641c3/workbench/tools"
)

// deniedAndStopped is the result a call gets when the person denies it and
// stops the turn (ApprovalReply.Interrupt): the model is told not to go on,
// so the next thing it does is answer the person's next message.
const deniedAndStopped = "The person declined this tool call and stopped your turn: the call did not run (a file edit was not written). Do not try it again another way; wait for the person to say what to do instead."

// errStoppedByPerson is the cause of a run's context cancelled by a denial
// that stops the turn.
var errStoppedByPerson = errors.New("the person denied a tool call and stopped the turn")

// turnStopKey finds the function that stops the person's run in a context.
type turnStopKey struct{}

// withTurnStop returns a context the run can be stopped through from a
// tool call's approval, and its cancel. A subagent's run keeps its
// parent's: a denial that stops the turn stops the whole run the person
// started, not only the subagent.
func withTurnStop(ctx context.Context) (context.Context, context.CancelCauseFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	if _, ok := ctx.Value(turnStopKey{}).(context.CancelCauseFunc); ok {
		return ctx, cancel
	}
	return context.WithValue(ctx, turnStopKey{}, cancel), cancel
}

// stopTurn stops the run ctx belongs to. A call outside a run (`workbench
// tool`) has no turn to stop and ends anyway.
func stopTurn(ctx context.Context) {
	if stop, ok := ctx.Value(turnStopKey{}).(context.CancelCauseFunc); ok {
		stop(errStoppedByPerson)
	}
}

// PersonDenial is the Meta of a call's result when the person denied it
// in the approval dialog: the result's text is for the model ("The person
// declined ..."), this lets a view say it in the person's words.
type PersonDenial struct {
	// Denied is always true; a Meta without it is some other result's.
	Denied bool `json:"denied_by_person"`
	// StoppedTurn says the denial stopped the turn (Esc).
	StoppedTurn bool `json:"stopped_turn,omitempty"`
	// Feedback is what the person told the agent.
	Feedback string `json:"feedback,omitempty"`
}

// personDenial is the result of a call the person denied, text for the
// model and Meta for the views.
func personDenial(text string, d PersonDenial) tools.Result {
	res := tools.Error(text)
	d.Denied = true
	res.Meta, _ = json.Marshal(d)
	return res
}

// DeniedByPerson reads a result's PersonDenial; ok is false for any other
// result.
func DeniedByPerson(res tools.Result) (d PersonDenial, ok bool) {
	if !res.IsError || len(res.Meta) == 0 || json.Unmarshal(res.Meta, &d) != nil {
		return PersonDenial{}, false
	}
	return d, d.Denied
}
