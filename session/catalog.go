package session

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sort"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

// CatalogEntry is one tool as `workbench tools` describes it. Safety
// metadata can depend on the input; these are the answers for a call whose
// input names nothing in particular.
type CatalogEntry struct {
	Name            string `json:"name"`
	ReadOnly        bool   `json:"read_only"`
	ConcurrencySafe bool   `json:"concurrency_safe"`
	// Approval is what such a call gets under this session's rules and
	// mode: "none (read-only)", "ask", "allow" or "deny", with the rule
	// that decides when one does.
	Approval    string `json:"approval"`
	Rule        string `json:"rule,omitempty"`
	Deferred    bool   `json:"deferred,omitempty"`
	Description string `json:"description"`
}

// Catalog lists every tool of the session, in name order, with the
// approval the permission stage really gives it. An empty input is only a
// stand-in for "some call": a tool's own refusal of the empty input (no URL,
// no path) says nothing about real calls and is not reported as a deny.
func (s *Session) Catalog() []CatalogEntry {
	empty := json.RawMessage("{}")
	tc := &tools.Context{WorkDir: s.Config.WorkDir}
	var out []CatalogEntry
	for _, t := range s.Registry.List() {
		e := CatalogEntry{
			Name: t.Name(), ReadOnly: t.ReadOnly(empty), ConcurrencySafe: t.ConcurrencySafe(empty),
			Description: t.Description(),
		}
		if s.Pipeline != nil && s.Pipeline.Visible != nil {
			e.Deferred = !s.Pipeline.Visible(t.Name())
		}
		own := t.CheckPermission(context.Background(), empty, tc)
		if own.Behavior == permission.Deny || own.Behavior == "" {
			own = permission.AskUser("")
		}
		if e.ReadOnly {
			own = permission.Decision{Behavior: permission.Allow, Rule: "tool"}
		}
		d := s.Config.Policy.Evaluate(permission.Request{
			Tool: t.Name(), Mode: s.Config.Mode.Get(), ReadOnly: e.ReadOnly, Own: own,
			WorkDir: s.Config.WorkDir,
		})
		e.Approval = string(d.Behavior)
		switch d.Rule {
		case "", "tool":
		case "read-only":
			e.Approval = "none (read-only)"
		default:
			e.Rule = d.Rule
		}
		if inside := s.insideWorkspace(t.Name(), e.ReadOnly, own); inside.Behavior != "" && inside.Behavior != d.Behavior {
			// An edit's answer depends on where it writes (acceptEdits
			// allows the workspace only, protected files aside): both
			// are the truth.
			e.Approval = string(inside.Behavior) + " in the workspace (" + inside.Rule + "), " + e.Approval + " elsewhere"
			e.Rule = ""
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Unavailable lists configured tools that could not be installed and why
// (H12): a search backend without its key, an MCP server that failed.
func (s *Session) Unavailable() []CatalogEntry {
	var out []CatalogEntry
	for _, u := range s.egress.unavailable {
		out = append(out, CatalogEntry{Name: u.Name, Approval: "unavailable", Description: u.Reason})
	}
	return out
}

// insideWorkspace is the permission stage's answer for a file tool writing
// an ordinary file of the workspace, or no decision for tools that do not
// write files by path.
func (s *Session) insideWorkspace(name string, readOnly bool, own permission.Decision) permission.Decision {
	switch name {
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
	default:
		return permission.Decision{}
	}
	return s.Config.Policy.Evaluate(permission.Request{
		Tool: name, Mode: s.Config.Mode.Get(), ReadOnly: readOnly, Own: own, WorkDir: s.Config.WorkDir,
		Target: permission.Target{Paths: []string{filepath.Join(s.Config.WorkDir, "file.txt")}, Access: permission.AccessWrite},
	})
}
