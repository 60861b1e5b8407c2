package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/seed92b641c3/workbench/permission"
)

// Spec describes a tool by its parts; Build turns it into a Tool. Every
// security field left nil falls back to the safe answer, so forgetting one
// makes a tool ask rather than run unchecked.
type Spec struct {
	Name        string
	Description string
	Prompt      string
	// Schema is the input schema as a JSON document; Build parses it and
	// panics when it is not a JSON object, which is a programming error.
	// Its validator is compiled at the tool's first call (a schema that
	// does not compile then refuses every call); TestEveryToolSchemaCompiles
	// in session compiles them all.
	Schema string
	// ReadOnly defaults to false: the tool counts as mutating.
	ReadOnly func(input json.RawMessage) bool
	// ConcurrencySafe defaults to false: the tool runs alone.
	ConcurrencySafe func(input json.RawMessage) bool
	// Target defaults to an empty target: only name rules match the call.
	Target func(input json.RawMessage, tc *Context) permission.Target
	// Permission defaults to asking "approve NAME?".
	Permission func(ctx context.Context, input json.RawMessage, tc *Context) permission.Decision
	// Run does the work.
	Run func(ctx context.Context, input json.RawMessage, tc *Context) (Result, error)
	// Repair, when set, marks the tool RawInput: it gets the raw text first.
	Repair func(raw json.RawMessage) (json.RawMessage, error)
	// Dispatch marks a tool that only runs other tools through
	// Context.Execute (ExecuteExtraTool). Its target is hooked, capped and
	// checked under its own name, so the wrapper itself skips hooks and
	// capture instead of doing them twice.
	Dispatch bool
}

// Build makes a Tool from a Spec, filling omitted security metadata fail
// closed: mutating, exclusive, approval required.
func Build(s Spec) Tool {
	if s.Name == "" || s.Run == nil {
		panic("tools.Build: a tool needs a name and a Run function")
	}
	schema, err := parseSchema(s.Name, s.Schema)
	if err != nil {
		panic(fmt.Sprintf("tools.Build(%s): %v", s.Name, err))
	}
	return &built{spec: s, schema: schema}
}

type built struct {
	spec   Spec
	schema *Schema
}

func (b *built) Name() string        { return b.spec.Name }
func (b *built) Description() string { return b.spec.Description }
func (b *built) Prompt() string      { return b.spec.Prompt }
func (b *built) Schema() *Schema     { return b.schema }
func (b *built) RawInput() bool      { return b.spec.Repair != nil }
func (b *built) Dispatches() bool    { return b.spec.Dispatch }

func (b *built) ReadOnly(input json.RawMessage) bool {
	return b.spec.ReadOnly != nil && b.spec.ReadOnly(input)
}

func (b *built) ConcurrencySafe(input json.RawMessage) bool {
	return b.spec.ConcurrencySafe != nil && b.spec.ConcurrencySafe(input)
}

func (b *built) Target(input json.RawMessage, tc *Context) permission.Target {
	if b.spec.Target == nil {
		return permission.Target{}
	}
	return b.spec.Target(input, tc)
}

func (b *built) CheckPermission(ctx context.Context, input json.RawMessage, tc *Context) permission.Decision {
	if b.spec.Permission == nil {
		return permission.AskUser("approve " + b.spec.Name + "?")
	}
	return b.spec.Permission(ctx, input, tc)
}

func (b *built) Call(ctx context.Context, input json.RawMessage, tc *Context) (Result, error) {
	return b.spec.Run(ctx, input, tc)
}

func (b *built) Repair(raw json.RawMessage) (json.RawMessage, error) {
	if b.spec.Repair == nil {
		return raw, nil
	}
	return b.spec.Repair(raw)
}

// Always is a metadata predicate for tools that are read-only or
// concurrency-safe whatever their input.
func Always(json.RawMessage) bool { return true }

// AllowSelf is the own-permission check of tools that never need approval by
// themselves (the session's deny and ask rules still apply).
func AllowSelf(context.Context, json.RawMessage, *Context) permission.Decision {
	return permission.Allowed()
}
