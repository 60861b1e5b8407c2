package conversation

import (
	"encoding/json"

	"github.com/seed92b641c3/workbench/tools"
)

// bashRenderer shows the command, marked when it runs in the background,
// and the command's output.
type bashRenderer struct{}

// Summary implements toolRenderer.
func (bashRenderer) Summary(input json.RawMessage) string {
	var in struct {
		Command    string `json:"command"`
		Background bool   `json:"run_in_background"`
	}
	if json.Unmarshal(input, &in) != nil {
		return ""
	}
	cmd := oneLine(in.Command)
	if in.Background {
		cmd += " &"
	}
	return cmd
}

// Body implements toolRenderer.
func (bashRenderer) Body(_ json.RawMessage, res tools.Result) string { return res.Text }
