package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func noop(name string) Tool {
	return Build(Spec{Name: name, Description: name + " tool", Prompt: "use " + name,
		Run: func(context.Context, json.RawMessage, *Context) (Result, error) { return Text("ok"), nil }})
}

func TestDuplicateNameReplacesAndKeepsPosition(t *testing.T) {
	t.Parallel()
	a2 := Build(Spec{Name: "A", Description: "second A",
		Run: func(context.Context, json.RawMessage, *Context) (Result, error) { return Text("2"), nil }})
	r := NewRegistry(noop("A"), noop("B"), a2)
	if got := strings.Join(r.Names(), ","); got != "A,B" {
		t.Fatalf("order %s, want A,B", got)
	}
	if tool, _ := r.Get("A"); tool.Description() != "second A" {
		t.Error("the last tool added under a name must win")
	}
}

func TestSchemasAppendPromptAndHide(t *testing.T) {
	t.Parallel()
	r := NewRegistry(noop("A"), noop("B"))
	list := r.Schemas(func(n string) bool { return n == "B" })
	if len(list) != 1 || list[0].Name != "A" {
		t.Fatalf("hidden tool listed: %+v", list)
	}
	if list[0].Description != "A tool\n\nuse A" {
		t.Errorf("description %q must carry the prompt", list[0].Description)
	}
	if _, ok := r.Get("B"); !ok {
		t.Error("a hidden tool must still be found by name")
	}
}

func TestBuildFailsClosed(t *testing.T) {
	t.Parallel()
	tool := noop("X")
	in := json.RawMessage(`{}`)
	if tool.ReadOnly(in) || tool.ConcurrencySafe(in) {
		t.Error("a tool that does not say must be mutating and exclusive")
	}
	if d := tool.CheckPermission(context.Background(), in, &Context{}); d.Behavior != "ask" {
		t.Errorf("a tool that does not say must ask, got %s", d.Behavior)
	}
}
