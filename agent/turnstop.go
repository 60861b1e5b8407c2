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

// stopDenialMeta is the Meta of a call's result when the person denied it
// and stopped the turn.
type stopDenialMeta struct {
	StoppedTurn bool `json:"stopped_turn"`
}

// stopDenial is the result of a call the person denied and stopped the
// turn at: the text is for the model, the Meta lets a view say it in the
// person's words (StoppedByDenial).
func stopDenial() tools.Result {
	res := tools.Error(deniedAndStopped)
	res.Meta, _ = json.Marshal(stopDenialMeta{StoppedTurn: true})
	return res
}

// StoppedByDenial reports whether res is the result of a call the person
// denied with the turn stopped (Esc in the approval dialog), so the
// conversation shows "you denied it" rather than the model's instructions.
func StoppedByDenial(res tools.Result) bool {
	var m stopDenialMeta
	return res.IsError && len(res.Meta) > 0 && json.Unmarshal(res.Meta, &m) == nil && m.StoppedTurn
}
