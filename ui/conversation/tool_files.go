package conversation

import (
	"encoding/json"
	"fmt"

	"github.com/seed92b641c3/workbench/tools"
)

// fileRenderer shows the path a file tool changes and what the tool said.
type fileRenderer struct{}

// Summary implements toolRenderer.
func (fileRenderer) Summary(input json.RawMessage) string {
	return field(input, "file_path", "path")
}

// Body implements toolRenderer.
func (fileRenderer) Body(_ json.RawMessage, res tools.Result) string { return res.Text }

// readRenderer shows the path and the range read, and only how many lines
// came back: the contents are for the model, and the person has the file.
type readRenderer struct{}

// Summary implements toolRenderer.
func (readRenderer) Summary(input json.RawMessage) string {
	var in struct {
		Path   string `json:"file_path"`
		Offset int    `json:"offset"`
		Limit  int    `json:"limit"`
	}
	if json.Unmarshal(input, &in) != nil {
		return ""
	}
	switch {
	case in.Offset > 0 && in.Limit > 0:
		return fmt.Sprintf("%s:%d-%d", in.Path, in.Offset, in.Offset+in.Limit-1)
	case in.Offset > 0:
		return fmt.Sprintf("%s:%d-", in.Path, in.Offset)
	case in.Limit > 0:
		return fmt.Sprintf("%s:1-%d", in.Path, in.Limit)
	}
	return in.Path
}

// Body implements toolRenderer.
func (readRenderer) Body(_ json.RawMessage, res tools.Result) string {
	if res.IsError || res.Spill != nil {
		return res.Text
	}
	return "Read " + plural(lineCount(res.Text), "line")
}
