package memory

import (
	"context"
	"encoding/json"

	"github.com/seed92b641c3/workbench/tools"
)

// ruleTool is a file tool that also brings in the path-scoped rules of the
// files its call touched.
type ruleTool struct {
	tools.Tool
	rules *PathRules
}

// WithRules wraps a file tool (Read, Edit, Write, MultiEdit) so a call that
// succeeds on a file a rule's `paths` names is followed by that rule, once
// per session, as a message after its result, the way Claude Code brings
// in a path-scoped rule when the work reaches its files. The call itself
// and its permission are the tool's own; nothing else changes.
func WithRules(t tools.Tool, rules *PathRules) tools.Tool {
	if rules == nil || len(rules.rules) == 0 {
		return t
	}
	return ruleTool{Tool: t, rules: rules}
}

// Call runs the tool, then adds the rules of the paths it touched.
func (t ruleTool) Call(ctx context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
	res, err := t.Tool.Call(ctx, input, tc)
	if err != nil || res.IsError {
		return res, err
	}
	workDir := ""
	if tc != nil {
		workDir = tc.WorkDir
	}
	res.Extra = append(res.Extra, t.rules.Touch(workDir, t.Tool.Target(input, tc).Paths)...)
	return res, nil
}
