package summary

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSummariesReadAsWhatTheCallDoes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, tool, input, want string
	}{
		{"a command", "Bash", `{"command":"go test ./..."}`, "go test ./..."},
		{"a background command is marked", "Bash", `{"command":"npm run dev","run_in_background":true}`, "npm run dev &"},
		{"a read with its range", "Read", `{"file_path":"a.go","offset":10,"limit":20}`, "a.go:10-29"},
		{"a write with its size", "Write", `{"file_path":"a.go","content":"a\nb\n"}`, "a.go · 2 lines"},
		{"an empty write", "Write", `{"file_path":"a.go","content":""}`, "a.go · 0 lines"},
		{"an edit", "Edit", `{"file_path":"a.go","old_string":"x","new_string":"y"}`, "a.go"},
		{"a multi-edit counts its edits", "MultiEdit", `{"file_path":"a.go","edits":[{},{},{}]}`, "a.go · 3 edits"},
		{"a grep with glob and directory", "Grep", `{"pattern":"TODO","glob":"*.go","path":"cmd"}`, "TODO *.go in cmd"},
		{"a question with its header", "AskUserQuestion",
			`{"questions":[{"question":"Which one?","header":"Pick","options":[]},{"question":"And?","options":[]}]}`, "Pick: Which one? (+1 more)"},
		{"a question without a header", "AskUserQuestion", `{"questions":[{"question":"Ready?\nSay so.","options":[]}]}`, "Ready? …"},
		{"todos counted by state", "TodoWrite",
			`{"todos":[{"content":"a","status":"in_progress"},{"content":"b","status":"pending"},{"content":"c","status":"pending"}]}`, "3 todos, 1 in progress"},
		{"an empty todo list", "TodoWrite", `{"todos":[]}`, "0 todos"},
		{"a plan's first line", "ExitPlanMode", `{"plan":"# Plan\n\n1. do it"}`, "# Plan …"},
		{"a subagent with its kind", "Agent", `{"description":"find tests","prompt":"…","subagent_type":"Explore"}`, "find tests · Explore"},
		{"a skill", "Skill", `{"name":"release","args":"v1.2"}`, "release v1.2"},
		{"sleep", "sleep", `{"seconds":1.5,"reason":"wait for the server"}`, "1.5s · wait for the server"},
		{"a monitor", "Monitor", `{"command":"tail -f log","watch":["ERROR"]}`, "tail -f log · watching ERROR"},
		{"task stop without an id stops all", "TaskStop", `{}`, "all"},
		{"a terminal's command", "shell_open", `{"command":"python3","rows":30}`, "python3"},
		{"what is typed into a terminal", "shell_send", `{"session_id":"pty_1","text":"ls","submit":true}`, `pty_1: "ls" enter`},
		{"keys typed into a terminal", "shell_send", `{"session_id":"pty_1","keys":["ctrl+c"]}`, "pty_1: ctrl+c"},
		{"a terminal's resize", "shell_resize", `{"session_id":"pty_1","cols":120,"rows":40}`, "pty_1 · 120×40"},
		{"a deferred tool run names the tool", "ExecuteExtraTool", `{"tool_name":"mcp__db__query","params":{"sql":"select 1"}}`, "mcp__db__query: select 1"},
		{"an MCP tool's first argument, in the order written", "mcp__db__query", `{"sql":"select 1","limit":5}`, "select 1"},
		{"an MCP tool whose first argument is a number", "mcp__x__y", `{"n":5,"s":"later"}`, "5"},
		{"an MCP tool with only an object", "mcp__x__y", `{"filter":{"a":1,"b":2}}`, "filter: 2 fields"},
		{"an unknown tool with nothing but nested values", "Mystery", `{"opts":[1,2]}`, "opts: 2 items"},
		{"an empty object", "mcp__x__y", `{}`, ""},
		{"not an object", "Mystery", `[1,2]`, "(a list instead of arguments)"},
		{"broken JSON", "Bash", `{"command":`, "(arguments that are not a JSON object)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := Of(c.tool, json.RawMessage(c.input))
			if got != c.want {
				t.Errorf("Of(%s, %s) = %q, want %q", c.tool, c.input, got, c.want)
			}
			if strings.HasPrefix(got, "{") || strings.HasPrefix(got, "[") {
				t.Errorf("Of(%s) is JSON: %q", c.tool, got)
			}
		})
	}
}

func TestNameShowsAnMCPToolsServerAndTool(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"mcp__github__create_issue": "github · create_issue",
		"mcp__a__b__c":              "a · b__c",
		"mcp__":                     "mcp__",
		"mcp__x":                    "mcp__x",
		"Bash":                      "Bash",
	} {
		if got := Name(in); got != want {
			t.Errorf("Name(%q) = %q, want %q", in, got, want)
		}
	}
}
