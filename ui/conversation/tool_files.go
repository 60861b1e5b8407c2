package conversation

import (
	"encoding/json"

	"github.com/seed92b641c3/workbench/tools"
)

// readRenderer shows only how many lines came back: the contents are for
// the model, and the person has the file.
type readRenderer struct{}

// Body implements toolRenderer.
func (readRenderer) Body(_ json.RawMessage, res tools.Result) string {
	if res.IsError || res.Spill != nil {
		return res.Text
	}
	return "Read " + plural(lineCount(res.Text), "line")
}
