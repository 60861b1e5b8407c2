package conversation

import (
	"encoding/json"

	"github.com/seed92b641c3/workbench/tools"
)

// searchRenderer shows a Grep or Glob pattern, with the directory when the
// search is not from the working directory, and the matches.
type searchRenderer struct{}

// Summary implements toolRenderer.
func (searchRenderer) Summary(input json.RawMessage) string {
	var in struct {
		Pattern string `json:"pattern"`
		Path    string `json:"path"`
		Glob    string `json:"glob"`
	}
	if json.Unmarshal(input, &in) != nil {
		return ""
	}
	s := in.Pattern
	if in.Glob != "" {
		s += " " + in.Glob
	}
	if in.Path != "" && in.Path != "." {
		s += " in " + in.Path
	}
	return s
}

// Body implements toolRenderer.
func (searchRenderer) Body(_ json.RawMessage, res tools.Result) string { return res.Text }
