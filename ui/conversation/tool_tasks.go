package conversation

import (
	"encoding/json"
	"strings"

	"github.com/seed92b641c3/workbench/tools"
)

// todoRenderer shows a TodoWrite call as the list it wrote, because the
// list is what the person wants to see, not the tool's acknowledgement.
type todoRenderer struct{}

type todoInput struct {
	Todos []struct {
		Content string `json:"content"`
		Status  string `json:"status"`
	} `json:"todos"`
}

// Body implements toolRenderer.
func (todoRenderer) Body(input json.RawMessage, res tools.Result) string {
	var in todoInput
	if res.IsError || json.Unmarshal(input, &in) != nil || len(in.Todos) == 0 {
		return res.Text
	}
	var b strings.Builder
	for _, t := range in.Todos {
		switch t.Status {
		case "completed":
			b.WriteString("[x] ")
		case "in_progress":
			b.WriteString("[~] ")
		default:
			b.WriteString("[ ] ")
		}
		b.WriteString(oneLine(t.Content))
		b.WriteByte('\n')
	}
	return b.String()
}
