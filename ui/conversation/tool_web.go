package conversation

import (
	"encoding/json"

	"github.com/seed92b641c3/workbench/tools"
)

// webRenderer shows the URL fetched, whole, since what the agent reads from
// the network is worth seeing exactly, or the query searched for, and what
// came back.
type webRenderer struct{}

// Summary implements toolRenderer.
func (webRenderer) Summary(input json.RawMessage) string {
	return field(input, "url", "query")
}

// Body implements toolRenderer.
func (webRenderer) Body(_ json.RawMessage, res tools.Result) string { return res.Text }
