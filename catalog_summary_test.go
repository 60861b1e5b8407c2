package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/session"
	"github.com/seed92b641c3/workbench/ui/summary"
)

// Every tool of the catalog `workbench tools` lists has a readable summary
// in the conversation's and the panel's headers: never raw JSON, and
// saying what the call does. A tool added to the catalog without an entry
// here fails, so its summary is looked at before it ships.
func TestSummaryOfEveryCatalogTool(t *testing.T) {
	c := newCLI(t)
	c.mcpSettings(t, "") // the test binary as the MCP server "t"
	code, out, errb := c.run("", "tools", "--cwd", c.project, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var entries []session.CatalogEntry
	if err := json.Unmarshal([]byte(out), &entries); err != nil {
		t.Fatal(err)
	}
	examples := map[string]struct{ input, want string }{
		"Agent":            {`{"description":"find the tests","prompt":"Look for tests.","subagent_type":"general-purpose"}`, "find the tests"},
		"AskUserQuestion":  {`{"questions":[{"question":"Which database?","header":"Storage","options":[{"label":"pg","description":"Postgres"}],"multiSelect":false}]}`, "Storage: Which database?"},
		"Bash":             {`{"command":"go test ./...","timeout":60000}`, "go test ./..."},
		"Edit":             {`{"file_path":"main.go","old_string":"a","new_string":"b"}`, "main.go"},
		"EnterPlanMode":    {`{}`, ""},
		"ExitPlanMode":     {`{"plan":"1. Read\n2. Fix"}`, "1. Read …"},
		"Glob":             {`{"pattern":"**/*.go","path":"cmd"}`, "**/*.go in cmd"},
		"Grep":             {`{"pattern":"func main","output_mode":"content"}`, "func main"},
		"LS":               {`{"path":"src"}`, "src"},
		"Monitor":          {`{"command":"tail -f app.log","description":"app errors","watch":["ERROR"]}`, "app errors · watching ERROR"},
		"MultiEdit":        {`{"file_path":"a.go","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d"}]}`, "a.go · 2 edits"},
		"Read":             {`{"file_path":"README.md","limit":5}`, "README.md:1-5"},
		"RecallMemory":     {`{"query":"linter preferences"}`, "linter preferences"},
		"RecordMemory":     {`{"name":"tabs","content":"Use tabs.","type":"feedback"}`, "tabs"},
		"Skill":            {`{"name":"release"}`, "release"},
		"TaskList":         {`{}`, ""},
		"TaskOutput":       {`{"task_id":"task_2","block":true}`, "task_2"},
		"TaskStop":         {`{"task_id":"task_2"}`, "task_2"},
		"TodoWrite":        {`{"todos":[{"content":"a","status":"in_progress","activeForm":"A"},{"content":"b","status":"pending","activeForm":"B"},{"content":"c","status":"pending","activeForm":"C"}]}`, "3 todos, 1 in progress"},
		"WebFetch":         {`{"url":"https://go.dev/doc/","prompt":"summarise"}`, "https://go.dev/doc/"},
		"WebSearch":        {`{"query":"bubbletea v2"}`, "bubbletea v2"},
		"Write":            {`{"file_path":"notes.md","content":"one\ntwo\nthree\n"}`, "notes.md · 3 lines"},
		"shell_close":      {`{"session_id":"pty_1"}`, "pty_1"},
		"shell_list":       {`{}`, ""},
		"shell_open":       {`{"command":"python3 -q","rows":24,"cols":80}`, "python3 -q"},
		"shell_read":       {`{"session_id":"pty_1","view":"screen"}`, "pty_1 · screen"},
		"shell_resize":     {`{"session_id":"pty_1","rows":40,"cols":120}`, "pty_1 · 120×40"},
		"shell_send":       {`{"session_id":"pty_1","text":"print(1)","submit":true}`, `pty_1: "print(1)" enter`},
		"sleep":            {`{"seconds":30,"reason":"wait for CI"}`, "30s · wait for CI"},
		"SearchExtraTools": {`{"query":"select:mcp__db__query"}`, "select:mcp__db__query"},
		"ExecuteExtraTool": {`{"tool_name":"mcp__db__query","params":{"sql":"select 1"}}`, "mcp__db__query: select 1"},
	}
	mcp := 0
	for _, e := range entries {
		ex, ok := examples[e.Name]
		if strings.HasPrefix(e.Name, "mcp__t__") {
			// An MCP tool: its server and tool head the line, then its
			// first argument.
			mcp++
			ex, ok = struct{ input, want string }{`{"text":"hi","n":2}`, "hi"}, true
			if got, want := summary.Name(e.Name), "t · "+strings.TrimPrefix(e.Name, "mcp__t__"); got != want {
				t.Errorf("%s: name %q, want %q", e.Name, got, want)
			}
		}
		if !ok {
			t.Errorf("%s is in the catalog without an example here: add one and check its summary reads well", e.Name)
			continue
		}
		got := summary.Of(e.Name, json.RawMessage(ex.input))
		if strings.HasPrefix(got, "{") || strings.HasPrefix(got, "[") {
			t.Errorf("%s: summary %q is JSON", e.Name, got)
		}
		if got != ex.want {
			t.Errorf("%s: summary %q, want %q", e.Name, got, ex.want)
		}
	}
	if mcp == 0 {
		t.Error("the catalog has no MCP tool of the test server")
	}
	if len(entries) < 25 {
		t.Errorf("only %d tools in the catalog", len(entries))
	}
}
