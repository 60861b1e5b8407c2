package files

import (
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

//go:embed write.md
var writePrompt string

const writeSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "description": "The file to create or replace: absolute, or relative to the working directory."},
    "content": {"type": "string", "description": "The complete new content of the file."}
  },
  "required": ["file_path", "content"],
  "additionalProperties": false
}`

type writeInput struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content"`
}

// Write creates a file or replaces its whole content. It is a mutating tool
// and asks for approval unless a rule allows it.
func Write() tools.Tool {
	return tools.Build(tools.Spec{
		Name:        "Write",
		Description: "Create a file, or replace the whole content of an existing one. Parent directories are created as needed.",
		Prompt:      writePrompt,
		Schema:      writeSchema,
		Target: func(input json.RawMessage, tc *tools.Context) permission.Target {
			return writeTargetOf[writeInput](input, tc, func(in writeInput) string { return in.FilePath })
		},
		Permission: func(_ context.Context, input json.RawMessage, tc *tools.Context) permission.Decision {
			in, err := decode[writeInput](input)
			if err != nil {
				return permission.AskUser("approve Write?")
			}
			path := tc.Abs(in.FilePath)
			if unchangedNow(tc, path, in.Content) {
				return permission.Decision{Behavior: permission.Allow, Rule: "tool",
					Message: shown(tc, path) + " already holds exactly this content, so the Write changes nothing"}
			}
			msg := fmt.Sprintf("write %s to %s", plural(len(in.Content), "byte", "bytes"), shown(tc, path))
			switch fi, err := os.Stat(path); {
			case errors.Is(err, fs.ErrNotExist):
				msg += " (new file)"
			case err == nil && fi.Mode().IsRegular():
				msg += fmt.Sprintf(" (replacing %s)", plural(int(fi.Size()), "byte", "bytes"))
			}
			return permission.AskUser(msg)
		},
		Run: runWrite,
	})
}

// writeTargetOf is the Target of a tool that writes the one file its input
// names.
func writeTargetOf[T any](input json.RawMessage, tc *tools.Context, path func(T) string) permission.Target {
	in, err := decode[T](input)
	if err != nil {
		return permission.Target{Access: permission.AccessWrite}
	}
	return permission.Target{Paths: []string{tc.Abs(path(in))}, Access: permission.AccessWrite}
}

func runWrite(ctx context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
	in, err := decode[writeInput](input)
	if err != nil {
		return tools.Result{}, err
	}
	path := tc.Abs(in.FilePath)
	display := shown(tc, path)
	target, err := checkedTarget(tc, path)
	if err != nil {
		return tools.Error(fmt.Sprintf("Cannot write %s: %v", display, err)), nil
	}
	prev, err := target.existing(maxDiffBytes, false)
	if err != nil {
		return tools.Error(fmt.Sprintf("Cannot write %s: %v", display, err)), nil
	}
	if err := ctx.Err(); err != nil {
		return tools.Result{}, err
	}
	if hiddenFromAgent(tc, path, target.real) {
		// Whether it held this content, or existed at all, would tell
		// what a file the Read rules hide holds: write it, say only that.
		if err := target.writeAtomic([]byte(in.Content), prev.mode); err != nil {
			return tools.Error(fmt.Sprintf("Cannot write %s: %v", display, err)), nil
		}
		return tools.Text(fmt.Sprintf("Wrote %s (%s)", display, plural(len(in.Content), "byte", "bytes"))), nil
	}
	if prev.found && prev.loaded && string(prev.content) == in.Content {
		return tools.Text(fmt.Sprintf("Unchanged: %s already holds this content (%s); nothing was written.",
			display, plural(len(in.Content), "byte", "bytes"))), nil
	}
	if allowedAsUnchanged(tc, path) {
		// No one approved a change: the check let the call run only
		// because it changed nothing, and now it would.
		return tools.Error(fmt.Sprintf("Cannot write %s: it changed after the permission check found it already holding this content; nothing was written (call Write again to be asked).", display)), nil
	}
	if err := target.writeAtomic([]byte(in.Content), prev.mode); err != nil {
		return tools.Error(fmt.Sprintf("Cannot write %s: %v", display, err)), nil
	}
	verb := "Created"
	if prev.found {
		verb = "Overwrote"
	}
	return tools.Result{
		Text: fmt.Sprintf("%s %s (%s)", verb, display, plural(len(in.Content), "byte", "bytes")),
		Meta: diffMeta(path, display, string(prev.content), in.Content, prev.loaded),
	}, nil
}

// hiddenFromAgent reports whether a Read rule keeps the file at path (as
// named, or where it really is) from the agent.
func hiddenFromAgent(tc *tools.Context, path, real string) bool {
	if tc.Paths == nil {
		return false
	}
	for _, p := range []string{path, real} {
		if b, _ := tc.Paths.Readable(p); p != "" && b != permission.Allow {
			return true
		}
	}
	return false
}

// unchangedNow reports whether the regular file at path holds exactly
// content now, so writing it would change nothing and need not ask. A file
// the agent may not read is never compared: the answer would tell what it
// holds. Run compares again through the checked descriptor (runWrite).
func unchangedNow(tc *tools.Context, path, content string) bool {
	if tc.Paths != nil {
		if b, _ := tc.Paths.Readable(path); b != permission.Allow {
			return false
		}
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(content)) || fi.Size() > maxDiffBytes {
		return false
	}
	data, err := os.ReadFile(path)
	return err == nil && string(data) == content
}

// allowedAsUnchanged reports whether the permission check let this call
// run only on the tool's own word that it changes nothing.
func allowedAsUnchanged(tc *tools.Context, path string) bool {
	for _, c := range tc.Checked {
		if c.Path == path {
			return c.AllowedBy == "tool"
		}
	}
	return false
}
