package conversation

import (
	"encoding/json"
	"strings"

	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/ui/format"
)

// toolRenderer draws the output of one family of tools: the text shown
// under the call's header, which may be shorter than what the model read (a
// file's contents become a line count). The header's summary of the input
// is summary.Of's, the same in the conversation and the panel. renderers
// maps tool names to the families with a body of their own, so a new tool
// needs one line here and never a case in a switch elsewhere.
type toolRenderer interface {
	Body(input json.RawMessage, res tools.Result) string
}

// renderers chooses the renderer of each tool whose output is shown other
// than as it came; every other tool gets genericRenderer.
var renderers = map[string]toolRenderer{
	"Read":      readRenderer{},
	"Edit":      editRenderer{},
	"MultiEdit": editRenderer{},
	"Write":     writeRenderer{},
	"TodoWrite": todoRenderer{},
	"LS":        lsRenderer{},
	"Bash":      bashRenderer{},
}

// rendererFor returns the renderer of a tool, falling back to the generic
// one.
func rendererFor(name string) toolRenderer {
	if r, ok := renderers[name]; ok {
		return r
	}
	return genericRenderer{}
}

// genericRenderer shows the result text as it is.
type genericRenderer struct{}

// Body implements toolRenderer.
func (genericRenderer) Body(_ json.RawMessage, res tools.Result) string { return res.Text }

// lineCount counts the lines of a text, not counting a final newline.
func lineCount(s string) int {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return 0
	}
	return strings.Count(s, "\n") + 1
}

// plural writes "1 line" or "3,000 lines".
func plural(n int, word string) string { return format.Plural(n, word) }
