package memory

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/seed92b641c3/workbench/tools"
)

//go:embed recall.md
var recallPrompt string

const recallSchema = `{
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1, "description": "Keywords for what you want to know."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5, "description": "The most memories to return."}
  },
  "required": ["query"],
  "additionalProperties": false
}`

// Tuning numbers of RecallMemory's result.
const (
	// maxBody clips a memory's body in a result, so one long memory cannot
	// push the others out; the result points at the file for the rest.
	maxBody = 2000
	// maxReported bounds the unreadable files named in a result; the
	// model only needs to know that some exist.
	maxReported = 3
)

type recallInput struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
}

// Recall is the RecallMemory tool over s: it returns the memories most
// relevant to a query. It only reads the memory directories, so it is
// read-only, may run beside other calls and allows itself.
func Recall(s *Store) tools.Tool {
	return tools.Build(tools.Spec{
		Name:            "RecallMemory",
		Description:     "Find memories from earlier sessions (the person's preferences and feedback, facts about this project, pointers to outside references) relevant to a few keywords.",
		Prompt:          recallPrompt,
		Schema:          recallSchema,
		ReadOnly:        tools.Always,
		ConcurrencySafe: tools.Always,
		Permission:      tools.AllowSelf,
		Run: func(_ context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
			var in recallInput
			if err := json.Unmarshal(input, &in); err != nil {
				return tools.Result{}, fmt.Errorf("input: %w", err)
			}
			all, errs := s.List()
			return tools.Text(recallText(tc, in, all, rank(all, in.Query, in.Limit), errs)), nil
		},
	})
}

// recallText formats the matches of a recall for the model.
func recallText(tc *tools.Context, in recallInput, all, hits []Memory, errs []error) string {
	var b strings.Builder
	switch {
	case len(all) == 0:
		b.WriteString("There are no memories yet.")
	case len(hits) == 0:
		fmt.Fprintf(&b, "No memory matches %q. There %s in all; try other keywords.", in.Query, count(len(all)))
	default:
		fmt.Fprintf(&b, "%d of %d memories match %q, best first.\n", len(hits), len(all), in.Query)
	}
	for _, m := range hits {
		fmt.Fprintf(&b, "\n## %s\ntype: %s (%s memory), updated %s\nfile: %s\n",
			m.Name, m.Type, m.Scope, m.Modified.Format("2006-01-02"), shown(tc, m.Path))
		if m.Description != "" {
			fmt.Fprintf(&b, "description: %s\n", m.Description)
		}
		if m.Body != "" {
			body := m.Body
			if r := []rune(body); len(r) > maxBody {
				body = string(r[:maxBody]) + fmt.Sprintf("\n[... %d more characters; Read %s for the whole memory]", len(r)-maxBody, shown(tc, m.Path))
			}
			b.WriteString("\n" + body + "\n")
		}
	}
	if len(errs) > 0 {
		var names []string
		for _, e := range errs[:min(len(errs), maxReported)] {
			names = append(names, e.Error())
		}
		fmt.Fprintf(&b, "\n(%d memory file(s) could not be read and were skipped: %s)", len(errs), strings.Join(names, "; "))
	}
	return strings.TrimRight(b.String(), "\n")
}

func count(n int) string {
	if n == 1 {
		return "is 1 memory"
	}
	return fmt.Sprintf("are %d memories", n)
}

// shown renders a path relative to the working directory when inside it,
// so the model can pass it straight to Read.
func shown(tc *tools.Context, p string) string {
	if tc != nil && tc.WorkDir != "" {
		if rel, err := filepath.Rel(tc.WorkDir, p); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return p
}
