package tools

import (
	"encoding/json"
	"sync"
)

// Registry holds a session's tools in registration order. Name lookup (what
// may run) and the schema list (what a model is shown) are separate, so a
// tool can be runnable without being advertised (deferred tools, H10).
// It is safe for concurrent use: MCP servers trusted or reconnected during
// a session add tools while calls look tools up.
type Registry struct {
	mu     sync.RWMutex
	order  []string
	byName map[string]Tool
	// entries caches each tool's schema entry, built once when the tool is
	// added: a long session asks for the list every turn, and rebuilding
	// the descriptions each time made every request carry copies of them.
	entries map[string]SchemaEntry
}

// NewRegistry registers tools in order.
func NewRegistry(ts ...Tool) *Registry {
	r := &Registry{byName: map[string]Tool{}, entries: map[string]SchemaEntry{}}
	for _, t := range ts {
		r.Add(t)
	}
	return r
}

// Add registers a tool. A duplicate name replaces the earlier tool and keeps
// its position, so an override does not reorder what the model sees.
func (r *Registry) Add(t Tool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.byName[t.Name()]; !ok {
		r.order = append(r.order, t.Name())
	}
	r.byName[t.Name()] = t
	desc := t.Description()
	if p := t.Prompt(); p != "" {
		desc += "\n\n" + p
	}
	r.entries[t.Name()] = SchemaEntry{Name: t.Name(), Description: desc, InputSchema: t.Schema().JSON()}
}

// Get finds a tool by name for execution.
func (r *Registry) Get(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.byName[name]
	return t, ok
}

// List returns the tools in registration order.
func (r *Registry) List() []Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Tool, 0, len(r.order))
	for _, n := range r.order {
		out = append(out, r.byName[n])
	}
	return out
}

// Names returns the tool names in registration order.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]string(nil), r.order...)
}

// SchemaEntry is one tool as shown to a model provider.
type SchemaEntry struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Schemas returns the list shown to a model, in registration order, leaving
// out hidden names. Each description carries the tool's prompt after a blank
// line.
func (r *Registry) Schemas(hidden func(name string) bool) []SchemaEntry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]SchemaEntry, 0, len(r.order))
	for _, n := range r.order {
		if hidden != nil && hidden(n) {
			continue
		}
		out = append(out, r.entries[n])
	}
	return out
}
