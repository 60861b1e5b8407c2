package plan

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed exit.md
var exitPrompt string

const exitSchema = `{
  "type": "object",
  "properties": {
    "plan": {"type": "string", "minLength": 1, "description": "The plan to present, in markdown."}
  },
  "required": ["plan"],
  "additionalProperties": false
}`

type exitInput struct {
	Plan string `json:"plan"`
}

// exitMeta tells the UI and transcript how a plan was received.
type exitMeta struct {
	Approved bool            `json:"approved"`
	Mode     permission.Mode `json:"mode"`
	Feedback string          `json:"feedback,omitempty"`
}

// ExitPlanMode presents the model's plan for approval and, once approved,
// leaves plan mode. It is read-only, whatever the mode, so plan mode lets it
// run; the approval it asks for is the plan's own, not a tool permission.
func ExitPlanMode(c *Controller) tools.Tool {
	mustWork(c, "ExitPlanMode")
	return tools.Build(tools.Spec{
		Name:        "ExitPlanMode",
		Description: "Present your finished plan (markdown) to the person for approval and, once approved, leave plan mode to carry it out.",
		Prompt:      exitPrompt,
		Schema:      exitSchema,
		ReadOnly:    tools.Always,
		Permission:  tools.AllowSelf,
		Run: func(ctx context.Context, input json.RawMessage, _ *tools.Context) (tools.Result, error) {
			return runExit(ctx, c, input)
		},
	})
}

func runExit(ctx context.Context, c *Controller, input json.RawMessage) (tools.Result, error) {
	var in exitInput
	if err := json.Unmarshal(input, &in); err != nil {
		return tools.Result{}, fmt.Errorf("input: %w", err)
	}
	plan := strings.TrimSpace(in.Plan)
	if plan == "" {
		return tools.Error("The plan is blank. Write it out in markdown in `plan`."), nil
	}
	if !c.inPlan() {
		return tools.Text("You are not in plan mode, so there is nothing to approve; go ahead with the work."), nil
	}
	// The lock is not held while the person decides: a prompt can stay open
	// for minutes, and the mode may be changed by hand meanwhile.
	approved, feedback := true, ""
	if c.Approve != nil {
		approved, feedback = c.Approve(ctx, plan)
	}
	if err := ctx.Err(); err != nil {
		return tools.Result{}, err
	}
	feedback = strings.TrimSpace(feedback)
	if !approved {
		meta, _ := json.Marshal(exitMeta{Mode: c.Mode(), Feedback: feedback})
		return tools.Result{Text: rejected(feedback), IsError: true, Meta: meta}, nil
	}
	mode := c.leave()
	meta, err := json.Marshal(exitMeta{Approved: true, Mode: mode, Feedback: feedback})
	if err != nil {
		return tools.Result{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The plan was approved and plan mode is over (the permission mode is now %s). You may begin the implementation; follow the plan, and keep your todo list current if you use one.", mode)
	if feedback != "" {
		b.WriteString("\n\nThe person added: " + feedback)
	}
	b.WriteString("\n\nApproved plan:\n\n" + plan)
	return tools.Result{Text: b.String(), Meta: meta}, nil
}

func rejected(feedback string) string {
	msg := "The person did not approve the plan. Stay in plan mode: use read-only tools only, revise the plan, and call ExitPlanMode again with the new version."
	if feedback == "" {
		return msg + " They gave no reason; if it is not clear what to change, ask them."
	}
	return msg + "\n\nTheir feedback: " + feedback
}
