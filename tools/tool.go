// Package tools is the contract every tool meets, the registry that holds
// them, and what all tools share: input schemas, the per-call context, results
// and output capture. The pipeline that runs a call lives in package agent.
package tools

import (
	"context"
	"encoding/json"

	"github.com/seed92b641c3/workbench/permission"
)

// Tool is what the pipeline knows of a tool. Its security metadata depends on
// the input because the same tool can be harmless or not (Bash `ls` versus
// Bash `rm`); a tool that does not say is treated as mutating, exclusive and
// approval-required (see Build).
type Tool interface {
	// Name is the name the model calls and the registry key.
	Name() string
	// Description is the one-paragraph summary the model reads.
	Description() string
	// Prompt is longer usage guidance, appended to the description in the
	// schema list shown to the model.
	Prompt() string
	// Schema is the JSON Schema of the input, compiled once.
	Schema() *Schema
	// ReadOnly reports whether this input only reads; plan mode allows only
	// read-only calls and read-only calls need no approval.
	ReadOnly(input json.RawMessage) bool
	// ConcurrencySafe reports whether this input may run beside other safe
	// calls; an unsafe call runs alone.
	ConcurrencySafe(input json.RawMessage) bool
	// Target says what the input touches (commands, paths, host), so rules
	// with specifiers can match it.
	Target(input json.RawMessage, tc *Context) permission.Target
	// CheckPermission is the tool's own verdict, before the session's rules.
	CheckPermission(ctx context.Context, input json.RawMessage, tc *Context) permission.Decision
	// Call runs the tool. A returned error becomes an error result.
	Call(ctx context.Context, input json.RawMessage, tc *Context) (Result, error)
	// RawInput reports that the tool repairs its own raw input before the
	// schema check (H1 still validates what it then runs with).
	RawInput() bool
}

// RawRepairer is implemented by RawInput tools: Repair turns the model's raw
// text into valid JSON input, which the pipeline then validates.
type RawRepairer interface {
	Repair(raw json.RawMessage) (json.RawMessage, error)
}

// Dispatcher is implemented by tools that run other tools (Spec.Dispatch).
type Dispatcher interface {
	Dispatches() bool
}

// IsDispatcher reports whether t only dispatches to other tools.
func IsDispatcher(t Tool) bool {
	d, ok := t.(Dispatcher)
	return ok && d.Dispatches()
}
