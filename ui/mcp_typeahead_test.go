package ui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// recordingAsk is an MCP question whose answers are kept.
func recordingAsk() (*MCPAsk, func() [][]string) {
	var mu sync.Mutex
	var answers [][]string
	ask := &MCPAsk{AnswerFile: "/p/.claude/settings.local.json",
		Servers: []MCPAskServer{{Name: "db", File: "/p/.mcp.json", Runs: "sh -c db"}, {Name: "docs", File: "/p/.mcp.json", Runs: "sh -c docs"}},
		Answer: func(_ context.Context, use []string) (string, error) {
			mu.Lock()
			answers = append(answers, use)
			mu.Unlock()
			return "Started: " + strings.Join(use, ", "), nil
		}}
	return ask, func() [][]string {
		mu.Lock()
		defer mu.Unlock()
		return append([][]string(nil), answers...)
	}
}

// Keys typed before the start ("a", Enter: check all, start them) never
// answer the MCP servers' question, however late the program's first
// frame comes (here two seconds after the app was built, as on a loaded
// machine): the question waits with nothing checked, and once the person
// has answered it, the keys reach the input as what they were, a prompt.
func TestMCPQuestionIsNotAnsweredByKeysTypedBeforeIt(t *testing.T) {
	t.Parallel()
	ask, answers := recordingAsk()
	a := newApp(t, `{"turns":[{"text":"Hello."}]}`, 100, 34, appOptions{
		typed: "a\rhello", mcpAsk: ask, slowStart: 2 * time.Second})
	if got := answers(); len(got) != 0 {
		t.Fatalf("the keys typed before the question answered it: %v", got)
	}
	s := a.screen(t)
	if !strings.Contains(s, "[ ] db") || !strings.Contains(s, "[ ] docs") {
		t.Fatalf("the question is not on screen with nothing checked:\n%s", s)
	}
	a.answer('n')
	a.shows("Hello.")
	if got := answers(); len(got) != 1 || len(got[0]) != 0 {
		t.Fatalf("answers %v, want the person's n (none)", got)
	}
	s = a.screen(t)
	if !strings.Contains(s, "› a") || !strings.Contains(s, "› hello") {
		t.Errorf("the keys typed before the start did not reach the input after the question:\n%s", s)
	}
}

// A key pressed the moment the question comes on screen, by someone still
// typing, is ignored as the approval dialog ignores it: the grace period
// starts when the question is drawn.
func TestMCPQuestionIgnoresKeysUntilItHasBeenOnScreen(t *testing.T) {
	t.Parallel()
	ask, answers := recordingAsk()
	a := newApp(t, `{"turns":[{"text":"Hello."}]}`, 100, 34, appOptions{mcpAsk: ask, slowStart: 2 * time.Second})
	a.typeText("a")
	a.key('\r', 0)
	if got := answers(); len(got) != 0 || strings.Contains(a.screen(t), "[x] db") {
		t.Fatalf("keys pressed as the question appeared answered it: %v\n%s", got, a.screen(t))
	}
}
