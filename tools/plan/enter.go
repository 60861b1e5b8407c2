package plan

import (
	"context"
	_ "embed"
	"encoding/json"

	"github.com/seed92b641c3/workbench/tools"
)

//go:embed enter.md
var enterPrompt string

// EnterPlanMode lets the model put itself into plan mode before a task that
// deserves a plan. It is read-only, whatever the mode, because it only
// narrows what the model may do; so it needs no approval either.
func EnterPlanMode(c *Controller) tools.Tool {
	mustWork(c, "EnterPlanMode")
	return tools.Build(tools.Spec{
		Name:        "EnterPlanMode",
		Description: "Switch to plan mode: explore with read-only tools and design an approach before changing anything, then present the plan with ExitPlanMode.",
		Prompt:      enterPrompt,
		ReadOnly:    tools.Always,
		Permission:  tools.AllowSelf,
		Run: func(context.Context, json.RawMessage, *tools.Context) (tools.Result, error) {
			if !c.enter() {
				return tools.Text("You are already in plan mode. Go on exploring with read-only tools, and call ExitPlanMode with the plan when it is ready."), nil
			}
			return tools.Text("Plan mode is on. Explore the code and work out the approach with read-only tools only; anything that would change files or state is refused until the plan is approved. When the plan is ready, call ExitPlanMode with it in markdown, and the person will approve it or say what to change."), nil
		},
	})
}
