package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Asker puts one question to the session's model and returns the text of
// its reply. The host passes one in (SetAsker) so this package stays free
// of any provider.
type Asker func(ctx context.Context, question string) (string, error)

// promptHook is a "type": "prompt" hook from settings.
type promptHook struct {
	text    string
	timeout time.Duration
}

// ErrNoModel: a prompt hook ran in a session that has no model to ask.
var ErrNoModel = errors.New("no model to ask")

// promptInstructions is what every prompt hook's question ends with, so
// the model answers in the shape Claude Code's reference documents.
const promptInstructions = "\n\nAnswer with one JSON object and nothing else: " +
	`{"ok": true} if the condition is met and the action may go on, or ` +
	`{"ok": false, "reason": "why not"} if it must not.`

// question builds what the model is asked: the hook's prompt with
// $ARGUMENTS replaced by the event as JSON, or the JSON appended when the
// prompt has no placeholder.
func (p *promptHook) question(in Input) (string, error) {
	args, err := json.Marshal(in)
	if err != nil {
		return "", fmt.Errorf("encode hook input: %w", err)
	}
	q := p.text
	if strings.Contains(q, "$ARGUMENTS") {
		q = strings.ReplaceAll(q, "$ARGUMENTS", string(args))
	} else {
		q += "\n\n" + string(args)
	}
	return q + promptInstructions, nil
}

// run asks the model and reads its decision. A reply that holds no
// decision is a failure, so a PreToolUse prompt hook that got nonsense
// blocks (H6). "ok": true is no objection, never an allow: a model's yes
// does not answer a permission ask.
func (p *promptHook) run(ctx context.Context, ask Asker, in Input) Outcome {
	if ask == nil {
		return Outcome{Err: fmt.Errorf("prompt hook: %w", ErrNoModel)}
	}
	q, err := p.question(in)
	if err != nil {
		return Outcome{Err: err}
	}
	hctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	reply, err := ask(hctx, q)
	if err != nil {
		if hctx.Err() != nil {
			return Outcome{Err: deadlineErr(ctx, p.timeout)}
		}
		return Outcome{Err: fmt.Errorf("prompt hook: ask the model: %w", err)}
	}
	return parsePromptReply(reply)
}

// promptReply is the model's answer: the current {"ok", "reason"} or the
// older {"decision": "approve"|"block"} shape, with the common fields.
type promptReply struct {
	OK            *bool  `json:"ok"`
	Decision      string `json:"decision"`
	Reason        string `json:"reason"`
	Continue      *bool  `json:"continue"`
	StopReason    string `json:"stopReason"`
	SystemMessage string `json:"systemMessage"`
}

// parsePromptReply finds the JSON object in a model's reply (models like
// to wrap it in a code fence) and turns it into an outcome.
func parsePromptReply(reply string) Outcome {
	start, end := strings.IndexByte(reply, '{'), strings.LastIndexByte(reply, '}')
	if start < 0 || end < start {
		return Outcome{Err: fmt.Errorf("%w: the model's answer holds no JSON object: %s", ErrInvalidOutput, quote([]byte(reply)))}
	}
	var r promptReply
	if err := json.Unmarshal([]byte(reply[start:end+1]), &r); err != nil {
		return Outcome{Err: fmt.Errorf("%w: the model's answer: %v: %s", ErrInvalidOutput, err, quote([]byte(reply)))}
	}
	o := Outcome{Reason: r.Reason, SystemMessage: r.SystemMessage}
	switch {
	case r.OK != nil:
		o.Block = !*r.OK
	case r.Decision == "block":
		o.Block = true
	case r.Decision == "approve":
	default:
		return Outcome{Err: fmt.Errorf(`%w: the model's answer has no "ok": %s`, ErrInvalidOutput, quote([]byte(reply)))}
	}
	if r.Continue != nil && !*r.Continue {
		o.Prevent, o.StopReason = true, r.StopReason
	}
	return o
}
