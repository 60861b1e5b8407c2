package files

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed multiedit.md
var multiEditPrompt string

const multiEditSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "description": "The file to change: absolute, or relative to the working directory."},
    "edits": {
      "type": "array",
      "minItems": 1,
      "description": "Replacements applied one after another, each to the result of the previous one.",
      "items": {
        "type": "object",
        "properties": {
          "old_string": {"type": "string", "description": "The exact text to replace, as it is after the earlier edits. Empty only in the first edit, to create the file."},
          "new_string": {"type": "string", "description": "The text to put in its place; must differ from old_string."},
          "replace_all": {"type": "boolean", "default": false, "description": "Replace every occurrence of old_string instead of requiring exactly one."}
        },
        "required": ["old_string", "new_string"],
        "additionalProperties": false
      }
    }
  },
  "required": ["file_path", "edits"],
  "additionalProperties": false
}`

type multiEditInput struct {
	FilePath string        `json:"file_path"`
	Edits    []replacement `json:"edits"`
}

// MultiEdit makes several replacements in one file as a single change: all
// of them are written, or none. It is a mutating tool and asks for approval
// unless a rule allows it.
func MultiEdit() tools.Tool {
	return tools.Build(tools.Spec{
		Name:        "MultiEdit",
		Description: "Make several exact-text replacements in one file in a single step. They apply in order; if any fails, the file is left unchanged.",
		Prompt:      multiEditPrompt,
		Schema:      multiEditSchema,
		Target: func(input json.RawMessage, tc *tools.Context) permission.Target {
			return writeTargetOf[multiEditInput](input, tc, func(in multiEditInput) string { return in.FilePath })
		},
		Permission: func(_ context.Context, input json.RawMessage, tc *tools.Context) permission.Decision {
			in, err := decode[multiEditInput](input)
			if err != nil {
				return permission.AskUser("approve MultiEdit?")
			}
			return permission.AskUser(fmt.Sprintf("edit %s: apply %s", shown(tc, tc.Abs(in.FilePath)), plural(len(in.Edits), "edit", "edits")))
		},
		Run: runMultiEdit,
	})
}

func runMultiEdit(ctx context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
	in, err := decode[multiEditInput](input)
	if err != nil {
		return tools.Result{}, err
	}
	if len(in.Edits) == 0 {
		return tools.Error("edits is empty; give at least one replacement."), nil
	}
	return editFile(ctx, tc, in.FilePath, in.Edits)
}
