package deferred

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/seed92b641c3/workbench/tools"
)

//go:embed search.md
var searchPrompt string

// SearchName and ExecuteName are the two access tools. Neither can be a
// target of ExecuteExtraTool.
const (
	SearchName  = "SearchExtraTools"
	ExecuteName = "ExecuteExtraTool"
)

// Search is SearchExtraTools: it finds deferred tools by keyword and shows
// their schemas; `select:A,B` also unlocks the named tools, which is how a
// model loads a deferred tool before calling it.
func Search(reg *tools.Registry, s *Set) tools.Tool {
	return tools.Build(tools.Spec{
		Name:        SearchName,
		Description: "Find tools that are available but not listed, and load them for use.",
		Prompt:      searchPrompt,
		Schema: `{"type":"object","properties":{
  "query":{"type":"string","minLength":1,"description":"keywords, or select:Name1,Name2 to load those tools"},
  "limit":{"type":"integer","minimum":1,"maximum":50,"default":10,"description":"most tools to show"}
},"required":["query"],"additionalProperties":false}`,
		ReadOnly:   tools.Always,
		Permission: tools.AllowSelf,
		Run: func(_ context.Context, in json.RawMessage, _ *tools.Context) (tools.Result, error) {
			var v struct {
				Query string `json:"query"`
				Limit int    `json:"limit"`
			}
			if err := json.Unmarshal(in, &v); err != nil {
				return tools.Result{}, err
			}
			found, load := match(reg, s, v.Query)
			if len(found) > v.Limit {
				found = found[:v.Limit]
			}
			if len(found) == 0 {
				return tools.Text(fmt.Sprintf("No deferred tool matches %q.", v.Query)), nil
			}
			var b strings.Builder
			if load {
				s.Unlock(found...)
				fmt.Fprintf(&b, "Loaded %d tool(s). Call them directly by name, or through ExecuteExtraTool.\n", len(found))
			} else {
				fmt.Fprintf(&b, "Found %d deferred tool(s). Load one with select:NAME before calling it.\n", len(found))
			}
			for _, name := range found {
				t, _ := reg.Get(name)
				state := "not loaded"
				if s.Unlocked(name) {
					state = "loaded"
				}
				fmt.Fprintf(&b, "\n## %s (%s)\n%s\ninput schema: %s\n", name, state, t.Description(), t.Schema().JSON())
			}
			return tools.Text(b.String()), nil
		},
	})
}

// match returns deferred tools for a query and whether it was a select.
func match(reg *tools.Registry, s *Set, query string) ([]string, bool) {
	query = strings.TrimSpace(query)
	var out []string
	if list, ok := strings.CutPrefix(query, "select:"); ok {
		for _, want := range strings.Split(list, ",") {
			want = strings.TrimSpace(want)
			for _, name := range reg.Names() {
				if s.Deferred(name) && (name == want || strings.EqualFold(name, want) || strings.HasSuffix(name, "__"+want)) && !contains(out, name) {
					out = append(out, name)
				}
			}
		}
		return out, true
	}
	words := strings.Fields(strings.ToLower(query))
	for _, name := range reg.Names() {
		if !s.Deferred(name) {
			continue
		}
		t, _ := reg.Get(name)
		hay := strings.ToLower(strings.ReplaceAll(name, "__", " ") + " " + t.Description())
		all := true
		for _, w := range words {
			if !strings.Contains(hay, w) {
				all = false
				break
			}
		}
		if all {
			out = append(out, name)
		}
	}
	return out, false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
