package files

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed edit.md
var editPrompt string

const editSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "description": "The file to change: absolute, or relative to the working directory."},
    "old_string": {"type": "string", "description": "The exact text to replace, as it appears in the file (without Read's line numbers). Empty only to create a new file."},
    "new_string": {"type": "string", "description": "The text to put in its place; must differ from old_string."},
    "replace_all": {"type": "boolean", "default": false, "description": "Replace every occurrence of old_string instead of requiring exactly one."}
  },
  "required": ["file_path", "old_string", "new_string"],
  "additionalProperties": false
}`

type editInput struct {
	FilePath string `json:"file_path"`
	replacement
}

// Edit replaces one exact piece of text in a file (or every occurrence of
// it). It is a mutating tool and asks for approval unless a rule allows it.
func Edit() tools.Tool {
	return tools.Build(tools.Spec{
		Name:        "Edit",
		Description: "Replace an exact piece of text in a file with new text. The text must occur once, unless replace_all is set.",
		Prompt:      editPrompt,
		Schema:      editSchema,
		Target: func(input json.RawMessage, tc *tools.Context) permission.Target {
			return writeTargetOf[editInput](input, tc, func(in editInput) string { return in.FilePath })
		},
		Permission: func(_ context.Context, input json.RawMessage, tc *tools.Context) permission.Decision {
			in, err := decode[editInput](input)
			if err != nil {
				return permission.AskUser("approve Edit?")
			}
			path := tc.Abs(in.FilePath)
			if _, err := os.Stat(path); in.Old == "" && errors.Is(err, fs.ErrNotExist) {
				return permission.AskUser(fmt.Sprintf("create %s with %s", shown(tc, path), plural(len(in.New), "byte", "bytes")))
			}
			msg := fmt.Sprintf("edit %s: replace %s with %s", shown(tc, path),
				plural(lineCount(in.Old), "line", "lines"), plural(lineCount(in.New), "line", "lines"))
			if in.All {
				msg += " (every occurrence)"
			}
			return permission.AskUser(msg)
		},
		Run: runEdit,
	})
}

func runEdit(ctx context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
	in, err := decode[editInput](input)
	if err != nil {
		return tools.Result{}, err
	}
	return editFile(ctx, tc, in.FilePath, []replacement{in.replacement})
}

// editFile applies edits in order to an in-memory copy of the file and
// writes the result once, atomically, keeping the file's mode. Any failing
// edit leaves the file as it was.
func editFile(ctx context.Context, tc *tools.Context, file string, edits []replacement) (tools.Result, error) {
	path := tc.Abs(file)
	display := shown(tc, path)
	target, err := checkedTarget(tc, path)
	if err != nil {
		return tools.Error(fmt.Sprintf("Cannot edit %s: %v", display, err)), nil
	}
	prev, err := target.existing(maxEditBytes, true)
	if err != nil {
		return tools.Error(fmt.Sprintf("Cannot edit %s: %v", display, err)), nil
	}
	if !prev.found && edits[0].Old != "" {
		return tools.Error(fmt.Sprintf("File does not exist: %s. To create it, use Write, or Edit with an empty old_string.", display)), nil
	}
	old := string(prev.content)
	content := old
	results := make([]applied, len(edits))
	for i, e := range edits {
		next, a, err := apply(content, e)
		if err != nil {
			if len(edits) == 1 {
				return tools.Error(fmt.Sprintf("Cannot edit %s: %v.", display, err)), nil
			}
			return tools.Error(fmt.Sprintf("Edit %d of %d failed, so %s was not changed: %v.", i+1, len(edits), display, err)), nil
		}
		content, results[i] = next, a
	}
	if err := ctx.Err(); err != nil {
		return tools.Result{}, err
	}
	if err := target.writeAtomic([]byte(content), prev.mode); err != nil {
		return tools.Error(fmt.Sprintf("Cannot write %s: %v", display, err)), nil
	}
	res := tools.Result{Meta: diffMeta(path, display, old, content, true)}
	if len(edits) == 1 {
		a := results[0]
		verb := "Edited"
		if !prev.found {
			verb = "Created"
		}
		res.Text = fmt.Sprintf("%s %s (%s)", verb, display, plural(a.count, "replacement", "replacements"))
		if a.count > 1 {
			res.Text += "; the first is shown"
		}
		res.Text += ":\n" + snippet(content, a.start, a.size)
		return res, nil
	}
	total := 0
	for _, a := range results {
		total += a.count
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Edited %s (%s, %s):", display, plural(len(edits), "edit", "edits"), plural(total, "replacement", "replacements"))
	// Offsets of earlier edits move as later ones change the text, so the
	// summary names what each edit did rather than where it now sits.
	for i, a := range results {
		fmt.Fprintf(&b, "\n- edit %d: %s", i+1, plural(a.count, "replacement", "replacements"))
	}
	res.Text = b.String()
	return res, nil
}

// lineCount is the number of lines s spans, for approval messages.
func lineCount(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}
