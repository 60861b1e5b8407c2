package main

import (
	"fmt"
	"strings"
	"testing"
)

// toolNames are the names of the tools a model request offered.
func toolNames(body map[string]any) []string {
	var out []string
	list, _ := body["tools"].([]any)
	for _, t := range list {
		if m, ok := t.(map[string]any); ok {
			out = append(out, fmt.Sprint(m["name"]))
		}
	}
	return out
}

// A Claude Code subagent file is a subagent type of the Agent tool: the
// model is told of it, its body is in the subagent's system prompt, and
// the subagent is offered only the tools its file lists. A file Workbench
// cannot use, or one naming a built-in, is a notice.
func TestCustomSubagentFromClaudeAgents(t *testing.T) {
	c := newCLI(t)
	c.write(".claude/agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews code for bugs.\ntools: Read, Grep, Glob\nmodel: sonnet\ncolor: blue\n---\nYou are a strict reviewer. Mention REVIEWER-MARK.\n")
	c.write(".claude/agents/explore.md", "---\nname: explore\ndescription: mine\n---\nx")
	c.write(".claude/agents/broken.md", "no front matter")
	homeFile(t, ".claude/agents/helper.md", "---\nname: helper\ndescription: The person's helper.\n---\nHelp.")
	srv := newModelServer(t,
		sseTool("toolu_1", "Agent", `{"description":"review","prompt":"review main.go","subagent_type":"reviewer"}`),
		sseText("no bugs"),
		sseText("all done"))
	code, out, errb := c.run("", "--cwd", c.project, "--output-format", "json", "-p", "go")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	reqs := srv.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3\n%s", len(reqs), errb)
	}
	var agentPrompt string
	for _, tl := range reqs[0]["tools"].([]any) {
		if m := tl.(map[string]any); m["name"] == "Agent" {
			agentPrompt = fmt.Sprint(m["description"], m["input_schema"])
		}
	}
	for _, want := range []string{"reviewer: Reviews code for bugs.", "helper: The person's helper."} {
		if !strings.Contains(agentPrompt, want) {
			t.Errorf("the Agent tool does not offer %q: %s", want, agentPrompt)
		}
	}
	child := reqs[1]
	if !strings.Contains(system(child), "You are a strict reviewer. Mention REVIEWER-MARK.") {
		t.Errorf("the subagent's system prompt lacks the file's body:\n%s", system(child))
	}
	if got := strings.Join(toolNames(child), ","); got != "Read,Glob,Grep" && got != "Read,Grep,Glob" {
		t.Errorf("the subagent was offered %s, want only Read, Grep and Glob", got)
	}
	for _, want := range []string{"reviewer.md:5: model sonnet is not used", "reviewer.md:6: front matter key color", "explore.md: subagent explore is also a built-in", "broken.md:1:"} {
		if !strings.Contains(errb, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb)
		}
	}
}
