package deferred

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

func tool(name, desc string) tools.Tool {
	return tools.Build(tools.Spec{Name: name, Description: desc, ReadOnly: tools.Always, Permission: tools.AllowSelf,
		Run: func(context.Context, json.RawMessage, *tools.Context) (tools.Result, error) {
			return tools.Text(name), nil
		}})
}

func fixture() (*tools.Registry, *Set) {
	reg := tools.NewRegistry(tool("Read", "read a file"), tool("mcp__gh__issues", "list GitHub issues"), tool("mcp__gh__prs", "list pull requests"))
	return reg, New([]string{"mcp__*"})
}

func TestH10_DeferredToolsRunOnlyOnceUnlocked(t *testing.T) {
	t.Parallel()
	_, s := fixture()
	if !s.Deferred("mcp__gh__issues") || s.Deferred("Read") {
		t.Fatal("glob patterns must decide what is deferred")
	}
	if ok, why := s.Runnable("mcp__gh__issues"); ok || !strings.Contains(why, "select:mcp__gh__issues") {
		t.Errorf("a locked deferred tool must not run, and say how to load it: %v %q", ok, why)
	}
	var told []string
	s.OnUnlock(func(n []string) { told = append(told, n...) })
	s.Unlock("mcp__gh__issues", "mcp__gh__issues")
	if ok, _ := s.Runnable("mcp__gh__issues"); !ok || len(told) != 1 {
		t.Errorf("unlocking must make it runnable and be recorded once: %v", told)
	}
	s.Restore("mcp__gh__prs")
	if ok, _ := s.Runnable("mcp__gh__prs"); !ok || len(told) != 1 {
		t.Error("restored unlocks run without being recorded again")
	}
}

func TestSearchFindsAndSelectLoads(t *testing.T) {
	t.Parallel()
	reg, s := fixture()
	search := Search(reg, s)
	run := func(q string) string {
		in, _ := search.Schema().Prepare(json.RawMessage(`{"query":"` + q + `"}`))
		res, err := search.Call(context.Background(), in, &tools.Context{})
		if err != nil {
			t.Fatal(err)
		}
		return res.Text
	}
	if out := run("github issues"); !strings.Contains(out, "mcp__gh__issues") || strings.Contains(out, "Read") || s.Unlocked("mcp__gh__issues") {
		t.Errorf("a keyword search lists deferred tools only and unlocks nothing:\n%s", out)
	}
	if out := run("select:prs"); !strings.Contains(out, "Loaded 1") || !s.Unlocked("mcp__gh__prs") {
		t.Errorf("select: loads the tool by its short name:\n%s", out)
	}
}

func TestExecuteRefusesWhatIsNotADeferredTarget(t *testing.T) {
	t.Parallel()
	reg, s := fixture()
	ex := Execute(reg, s)
	check := func(in string, want permission.Behavior, text string) {
		t.Helper()
		d := ex.CheckPermission(context.Background(), json.RawMessage(in), &tools.Context{})
		if d.Behavior != want || !strings.Contains(d.Message, text) {
			t.Errorf("%s: %s %q, want %s containing %q", in, d.Behavior, d.Message, want, text)
		}
	}
	check(`{"tool_name":"Read"}`, permission.Deny, "not a deferred tool")
	check(`{"tool_name":"ExecuteExtraTool"}`, permission.Deny, "cannot be run")
	check(`{"tool_name":"mcp__gh__issues"}`, permission.Deny, "not unlocked")
	s.Unlock("mcp__gh__issues")
	check(`{"tool_name":"mcp__gh__issues"}`, permission.Allow, "")
	res, _ := ex.Call(context.Background(), json.RawMessage(`{"tool_name":"mcp__gh__issues","params":{}}`), &tools.Context{})
	if !res.IsError || !strings.Contains(res.Text, "pipeline") {
		t.Errorf("without the pipeline's Execute the wrapper must refuse: %+v", res)
	}
	if !ex.ReadOnly(json.RawMessage(`{"tool_name":"mcp__gh__issues"}`)) || ex.ReadOnly(json.RawMessage(`{"tool_name":"Read"}`)) {
		t.Error("the wrapper's metadata follows an unlocked target and fails closed otherwise")
	}
}
