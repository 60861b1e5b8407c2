package deferred

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed execute.md
var executePrompt string

type executeInput struct {
	ToolName string          `json:"tool_name"`
	Params   json.RawMessage `json:"params"`
}

func parseExecute(in json.RawMessage) executeInput {
	var v executeInput
	json.Unmarshal(in, &v)
	if len(v.Params) == 0 || string(v.Params) == "null" {
		v.Params = json.RawMessage("{}")
	}
	return v
}

// Execute is ExecuteExtraTool. It decides nothing itself: its target runs
// through the whole pipeline under the target's own name (schema, the
// target's permission check, rules, hooks, cap), so wrapping a call can
// never widen what it may do.
func Execute(reg *tools.Registry, s *Set) tools.Tool {
	target := func(in json.RawMessage) (tools.Tool, executeInput, string) {
		v := parseExecute(in)
		switch {
		case v.ToolName == SearchName || v.ToolName == ExecuteName:
			return nil, v, v.ToolName + " cannot be run through ExecuteExtraTool"
		case !s.Deferred(v.ToolName):
			return nil, v, fmt.Sprintf("%q is not a deferred tool; call it directly", v.ToolName)
		}
		t, ok := reg.Get(v.ToolName)
		if !ok {
			return nil, v, fmt.Sprintf("unknown tool %q", v.ToolName)
		}
		if ok, why := s.Runnable(v.ToolName); !ok {
			return nil, v, fmt.Sprintf("%s: %s", v.ToolName, why)
		}
		return t, v, ""
	}
	return tools.Build(tools.Spec{
		Name:        ExecuteName,
		Description: "Run a deferred tool that was loaded with SearchExtraTools.",
		Prompt:      executePrompt,
		Schema: `{"type":"object","properties":{
  "tool_name":{"type":"string","minLength":1,"description":"the deferred tool to run"},
  "params":{"type":"object","description":"the tool's input, as its schema describes"}
},"required":["tool_name"],"additionalProperties":false}`,
		Dispatch: true,
		ReadOnly: func(in json.RawMessage) bool {
			t, v, why := target(in)
			return why == "" && t.ReadOnly(v.Params)
		},
		ConcurrencySafe: func(in json.RawMessage) bool {
			t, v, why := target(in)
			return why == "" && t.ConcurrencySafe(v.Params)
		},
		Permission: func(_ context.Context, in json.RawMessage, _ *tools.Context) permission.Decision {
			if _, _, why := target(in); why != "" {
				return permission.Denied(why)
			}
			// The target's own check and the rules run in the nested call.
			return permission.Allowed()
		},
		Run: func(ctx context.Context, in json.RawMessage, tc *tools.Context) (tools.Result, error) {
			_, v, why := target(in)
			if why != "" {
				return tools.Error(why), nil
			}
			if tc.Execute == nil {
				return tools.Error("ExecuteExtraTool can only run inside the tool pipeline"), nil
			}
			return tc.Execute(ctx, v.ToolName, v.Params), nil
		},
	})
}
