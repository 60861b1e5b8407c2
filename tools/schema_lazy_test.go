package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// Build compiles the validator at the first call; until then nothing is
// let through unchecked, and a schema that does not compile refuses every
// input instead of accepting it.
func TestBuildCompilesTheSchemaAtTheFirstCall(t *testing.T) {
	tool := Build(Spec{
		Name:   "Lazy",
		Schema: `{"type":"object","properties":{"n":{"type":"integer","maximum":3}},"required":["n"],"additionalProperties":false}`,
		Run: func(context.Context, json.RawMessage, *Context) (Result, error) {
			return Result{}, nil
		},
	})
	s := tool.Schema()
	if _, err := s.Prepare(json.RawMessage(`{"n":4}`)); err == nil || !strings.Contains(err.Error(), "n") {
		t.Fatalf("an input over the maximum passed: %v", err)
	}
	if _, err := s.Prepare(json.RawMessage(`{"n":2}`)); err != nil {
		t.Fatalf("a good input was refused: %v", err)
	}
}

func TestASchemaThatDoesNotCompileRefusesEveryInput(t *testing.T) {
	tool := Build(Spec{
		Name:   "Broken",
		Schema: `{"type":"object","properties":{"n":{"type":"no such type"}}}`,
		Run: func(context.Context, json.RawMessage, *Context) (Result, error) {
			return Result{}, nil
		},
	})
	for _, in := range []string{`{}`, `{"n":1}`, ``} {
		if _, err := tool.Schema().Prepare(json.RawMessage(in)); err == nil || !strings.Contains(err.Error(), "does not compile") {
			t.Errorf("input %q: %v, want a refusal naming the schema", in, err)
		}
	}
	if _, err := CompileSchema("Broken", `{"type":"no such type"}`); err == nil {
		t.Error("CompileSchema accepted a schema that does not compile")
	}
}
