package memory

import (
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed record.md
var recordPrompt string

const recordSchema = `{
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "maxLength": 100, "description": "A short title; saving under an existing name replaces that memory."},
    "content": {"type": "string", "minLength": 1, "description": "The memory in Markdown: the fact or rule first, then why."},
    "description": {"type": "string", "maxLength": 300, "description": "One line saying what the memory is about."},
    "type": {"type": "string", "enum": ["user", "feedback", "project", "reference"], "default": "project", "description": "What kind of memory this is."},
    "scope": {"type": "string", "enum": ["project", "user"], "description": "Where to keep it, when the type's usual place is wrong."}
  },
  "required": ["name", "content"],
  "additionalProperties": false
}`

type recordInput struct {
	Name        string `json:"name"`
	Content     string `json:"content"`
	Description string `json:"description"`
	Type        string `json:"type"`
	Scope       string `json:"scope"`
}

func (in recordInput) memory() Memory {
	return Memory{Name: in.Name, Description: in.Description, Type: in.Type, Scope: in.Scope, Body: in.Content}
}

// Record is the RecordMemory tool over s: it writes one memory file. It
// allows itself, because it only ever writes a Markdown file inside the two
// memory directories; its Target still names that file with write access,
// so the session's deny and ask rules and the workspace check see it.
func Record(s *Store) tools.Tool {
	return tools.Build(tools.Spec{
		Name:        "RecordMemory",
		Description: "Save a memory for later sessions as a Markdown file the person can read and edit; saving under an existing name updates it.",
		Prompt:      recordPrompt,
		Schema:      recordSchema,
		Permission:  tools.AllowSelf,
		Target: func(input json.RawMessage, _ *tools.Context) permission.Target {
			t := permission.Target{Access: permission.AccessWrite}
			var in recordInput
			if json.Unmarshal(input, &in) != nil {
				return t
			}
			if p, err := s.PathFor(in.memory()); err == nil {
				t.Paths = []string{p}
			}
			return t
		},
		Run: func(_ context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
			var in recordInput
			if err := json.Unmarshal(input, &in); err != nil {
				return tools.Result{}, fmt.Errorf("input: %w", err)
			}
			m := in.memory()
			before, err := s.PathFor(m)
			if err != nil {
				return tools.Error(err.Error()), nil
			}
			_, statErr := os.Lstat(before)
			verb := "Updated"
			if errors.Is(statErr, fs.ErrNotExist) {
				verb = "Saved"
			}
			path, err := s.Save(m)
			if err != nil {
				return tools.Error(err.Error()), nil
			}
			return tools.Text(fmt.Sprintf("%s %s memory %q in %s.", verb, cmp.Or(in.Type, TypeProject), in.Name, shown(tc, path))), nil
		},
	})
}
