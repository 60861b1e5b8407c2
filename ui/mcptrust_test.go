package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The one-time MCP question starts with nothing checked, ignores keys in
// its first moments, shows a server's hidden characters as escapes, and
// answers with exactly the servers checked (none for n, no answer at all
// for esc).
func TestMCPAskAnswersWithTheCheckedServers(t *testing.T) {
	t.Parallel()
	clock := newTestClock()
	var got []string
	answered := false
	ask := &MCPAsk{AnswerFile: "/p/.claude/settings.local.json",
		Servers: []MCPAskServer{{Name: "db", File: "/p/.mcp.json", Runs: "sh -c x\u202e"}, {Name: "docs", File: "/p/.mcp.json", Runs: "https://docs.example/mcp"}},
		Answer: func(_ context.Context, use []string) (string, error) {
			got, answered = use, true
			return "ok", nil
		}}
	m := New(Config{Bridge: NewBridge(), MCPAsk: ask, Now: clock.now})
	m.mcpAsk.shown(true, clock.now()) // drawn, as the root's render does
	view := ansi.Strip(m.mcpAsk.View(100, 30))
	if !strings.Contains(view, "[ ] db") || !strings.Contains(view, "[ ] docs") || !strings.Contains(view, "<U+202E>") {
		t.Fatalf("the question:\n%s", view)
	}
	press := func(k string) tea.Cmd {
		cmd, ok := m.mcpAskUpdate(keyPress(k))
		if !ok {
			t.Fatalf("%s did not reach the question", k)
		}
		return cmd
	}
	if press("enter") != nil {
		t.Fatal("a key in the grace period answered")
	}
	clock.advance(pastGrace)
	press("down")
	press("space")
	cmd := press("enter")
	if cmd == nil {
		t.Fatal("enter gave no answer")
	}
	m.mcpAskUpdate(cmd())
	if !answered || strings.Join(got, ",") != "docs" || m.mcpAsk != nil {
		t.Fatalf("answered %v with %v", answered, got)
	}

	answered = false
	m.openMCPAsk()
	m.mcpAsk.shown(true, clock.now())
	clock.advance(pastGrace)
	if press("esc") != nil || answered || m.mcpAsk != nil {
		t.Fatal("esc recorded an answer or left the question open")
	}
	m.openMCPAsk()
	m.mcpAsk.shown(true, clock.now())
	clock.advance(pastGrace)
	if cmd := press("n"); cmd == nil {
		t.Fatal("n gave no answer")
	} else {
		cmd()
	}
	if !answered || len(got) != 0 {
		t.Fatalf("n answered %v", got)
	}
}

// keyPress is the key message bubbletea sends for a key's name.
func keyPress(name string) tea.KeyPressMsg {
	switch name {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}
