// Package summary turns a tool call's input into the short line a person
// reads in the call's header, in the conversation and in the pipeline
// panel alike: the command of a shell call, the file of a file call, the
// question asked, "3 todos, 1 in progress". Never the raw JSON: a tool this
// package does not know is summed up by its first argument.
//
// The text is not made safe for the screen here; each view cleans what it
// draws (control characters, bidi marks) at the one place it turns outside
// text into a line.
package summary

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/seed92b641c3/workbench/ui/format"
)

// summarizer sums up one tool's input, already decoded into an object.
type summarizer func(in args) string

// byTool chooses the summarizer of each built-in tool; MCP tools
// (mcp__server__tool) and every other tool are summed up by their first
// argument.
var byTool = map[string]summarizer{
	"Bash":      bash,
	"Read":      read,
	"Write":     write,
	"Edit":      pathOf,
	"MultiEdit": multiEdit,
	"LS":        func(in args) string { return in.str("path") },
	"Grep":      search,
	"Glob":      search,

	"WebFetch":  func(in args) string { return in.str("url") },
	"WebSearch": func(in args) string { return in.str("query") },

	"AskUserQuestion": question,
	"TodoWrite":       todos,
	"EnterPlanMode":   func(args) string { return "" },
	"ExitPlanMode":    func(in args) string { return firstLine(in.str("plan")) },
	"Agent":           agentCall,
	"Skill":           skill,
	"RecallMemory":    func(in args) string { return in.str("query") },
	"RecordMemory":    func(in args) string { return in.first("name", "description") },
	"sleep":           sleep,

	"Monitor":    monitor,
	"TaskOutput": func(in args) string { return in.str("task_id") },
	"TaskStop":   func(in args) string { return orAll(in.str("task_id")) },
	"TaskList":   func(args) string { return "" },

	"shell_open":   func(in args) string { return in.str("command") },
	"shell_send":   shellSend,
	"shell_read":   shellRead,
	"shell_resize": shellResize,
	"shell_close":  func(in args) string { return in.str("session_id") },
	"shell_list":   func(args) string { return "" },

	"SearchExtraTools": func(in args) string { return in.str("query") },
}

// ExecuteExtraTool runs another tool, so its summary is that tool's; it
// is added at init because it refers back to Of.
func init() { byTool["ExecuteExtraTool"] = executeExtra }

// Of returns the summary of a call of tool with input: one line, or ""
// when the input says nothing worth a line (TaskList, an empty object).
func Of(tool string, input json.RawMessage) string {
	in, ok := decode(input)
	if !ok {
		return notAnObject(input)
	}
	if f, ok := byTool[tool]; ok {
		return f(in)
	}
	return in.firstArg()
}

// Name is a tool's name as a header shows it: an MCP tool's server and
// tool (mcp__github__create_issue is "github · create_issue"), any other
// tool's name as it is. With Of's first argument, an MCP call reads
// "github · create_issue(Fix the build)".
func Name(tool string) string {
	if server, name, ok := mcpName(tool); ok {
		return server + " · " + name
	}
	return tool
}

// mcpName splits an MCP tool's name (mcp__server__tool) into its server
// and tool.
func mcpName(tool string) (server, name string, ok bool) {
	rest, ok := strings.CutPrefix(tool, "mcp__")
	if !ok {
		return "", "", false
	}
	server, name, ok = strings.Cut(rest, "__")
	if !ok || server == "" || name == "" {
		return "", "", false
	}
	return server, name, true
}

// notAnObject sums up an input that is not a JSON object (the model sent
// something malformed): what kind of value it is, never the value itself,
// which could be any size and shape.
func notAnObject(input json.RawMessage) string {
	t := bytes.TrimSpace(input)
	switch {
	case len(t) == 0 || string(t) == "null":
		return ""
	case t[0] == '[':
		return "(a list instead of arguments)"
	case t[0] == '"':
		var s string
		if json.Unmarshal(t, &s) == nil {
			return firstLine(s)
		}
	}
	return "(arguments that are not a JSON object)"
}

// firstLine is the first non-blank line of s, marked when more follow.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	line, rest, more := strings.Cut(s, "\n")
	line = strings.TrimSpace(line)
	if more && strings.TrimSpace(rest) != "" {
		line += " …"
	}
	return line
}

func orAll(id string) string {
	if id == "" {
		return "all"
	}
	return id
}

// count and plural are format's, so a summary's figures read as the rest
// of the screen's.
func count(n int) string { return format.Count(n) }

func plural(n int, word string) string { return format.Plural(n, word) }
