package conversation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/seed92b641c3/workbench/tools"
)

// toolRenderer draws one family of tools: what goes between the parentheses
// of the header line, and the text shown as the call's output. Each family
// lives in its own file, and renderers maps tool names to them, so a new
// tool needs one line here and never a case in a switch elsewhere.
type toolRenderer interface {
	// Summary is a short form of the input: a command, a path, a pattern.
	Summary(input json.RawMessage) string
	// Body is the output to show under the header; it may be shorter than
	// what the model read (a file's contents become a line count).
	Body(input json.RawMessage, res tools.Result) string
}

// renderers chooses the renderer of each known tool; every other tool (MCP
// tools, say) gets genericRenderer.
var renderers = map[string]toolRenderer{
	"Bash": bashRenderer{},

	"Read":      readRenderer{},
	"Write":     fileRenderer{},
	"Edit":      fileRenderer{},
	"MultiEdit": fileRenderer{},
	"LS":        keyRenderer{"path"},

	"Grep": searchRenderer{},
	"Glob": searchRenderer{},

	"WebFetch":  webRenderer{},
	"WebSearch": webRenderer{},

	"Agent":      keyRenderer{"description", "subagent_type"},
	"Monitor":    keyRenderer{"description", "command"},
	"TaskOutput": keyRenderer{"task_id"},
	"TaskStop":   keyRenderer{"task_id"},
	"TaskList":   keyRenderer{},
	"TodoWrite":  todoRenderer{},

	"Skill":        keyRenderer{"name"},
	"RecallMemory": keyRenderer{"query"},
}

// rendererFor returns the renderer of a tool, falling back to the generic
// one.
func rendererFor(name string) toolRenderer {
	if r, ok := renderers[name]; ok {
		return r
	}
	return genericRenderer{}
}

// genericClip bounds the compact JSON a generic summary shows before the
// header clips it to the width; it keeps the work of compacting a huge
// input small.
const genericClip = 200

// genericRenderer shows the input as compact JSON and the result text as
// it is.
type genericRenderer struct{}

// Summary implements toolRenderer.
func (genericRenderer) Summary(input json.RawMessage) string {
	if len(input) == 0 {
		return ""
	}
	var b bytes.Buffer
	if err := json.Compact(&b, input); err != nil {
		return string(input[:min(len(input), genericClip)])
	}
	s := b.String()
	if s == "{}" || s == "null" {
		return ""
	}
	if len(s) > genericClip {
		s = s[:genericClip] + "…"
	}
	return s
}

// Body implements toolRenderer.
func (genericRenderer) Body(_ json.RawMessage, res tools.Result) string { return res.Text }

// keyRenderer shows the first non-empty of some input fields, for tools
// whose input is summed up by one value (a URL, a task id).
type keyRenderer []string

// Summary implements toolRenderer.
func (k keyRenderer) Summary(input json.RawMessage) string { return field(input, k...) }

// Body implements toolRenderer.
func (keyRenderer) Body(_ json.RawMessage, res tools.Result) string { return res.Text }

// field returns the first of keys that the input object has as a non-empty
// string (or a number, printed).
func field(input json.RawMessage, keys ...string) string {
	if len(keys) == 0 || len(input) == 0 {
		return ""
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(input, &m) != nil {
		return ""
	}
	for _, k := range keys {
		raw, ok := m[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			if s != "" {
				return s
			}
			continue
		}
		var n json.Number
		if json.Unmarshal(raw, &n) == nil {
			return n.String()
		}
	}
	return ""
}

// lineCount counts the lines of a text, not counting a final newline.
func lineCount(s string) int {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return 0
	}
	return strings.Count(s, "\n") + 1
}

// plural writes "1 line" or "3 lines".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%s %ss", count(n), word)
}
