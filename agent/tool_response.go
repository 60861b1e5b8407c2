package agent

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/seed92b641c3/workbench/tools"
)

// toolResponse is the tool_response PostToolUse hooks get: Workbench's
// own fields (content, is_error, spill) and, for the core tools, the
// fields Claude Code's hooks reference shows for them, so scripts that
// read .tool_response.stdout or .tool_response.filePath work unchanged.
// Bash's output is one stream (stdout and stderr merged, as the model sees
// it), so it is all in stdout and stderr is empty.
func (r *run) toolResponse(res tools.Result) json.RawMessage {
	m := map[string]any{"content": res.Text, "is_error": res.IsError}
	if res.Spill != nil {
		m["spill"] = res.Spill
	}
	var in struct {
		FilePath string `json:"file_path"`
		Offset   int    `json:"offset"`
	}
	_ = json.Unmarshal(r.input, &in)
	switch r.call.Name {
	case "Bash":
		var meta struct {
			TimedOut    bool `json:"timed_out"`
			Interrupted bool `json:"interrupted"`
		}
		_ = json.Unmarshal(res.Meta, &meta)
		m["stdout"], m["stderr"] = res.Text, ""
		m["interrupted"] = meta.Interrupted || meta.TimedOut || r.ctx.Err() != nil
		m["isImage"] = false
	case "Read":
		if in.Offset < 1 {
			in.Offset = 1
		}
		m["type"] = "text"
		m["file"] = map[string]any{
			"filePath": r.absPath(in.FilePath), "content": res.Text,
			"startLine": in.Offset, "numLines": strings.Count(strings.TrimSuffix(res.Text, "\n"), "\n") + 1,
		}
	case "Write", "Edit", "MultiEdit":
		m["filePath"], m["success"] = r.absPath(in.FilePath), !res.IsError
	}
	b, _ := json.Marshal(m)
	return b
}

// absPath resolves a path of the input against the working directory, as
// Claude Code's hooks receive file paths: absolute.
func (r *run) absPath(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(r.p.WorkDir, p)
}
