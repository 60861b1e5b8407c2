package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// userMessages are the texts of every user message of the only session.
func (c *cli) userMessages() []string {
	c.t.Helper()
	trs := c.transcripts()
	if len(trs) != 1 {
		c.t.Fatalf("%d transcripts", len(trs))
	}
	var out []string
	for _, line := range strings.Split(readFile(c.t, trs[0]), "\n") {
		var e struct {
			Type string `json:"type"`
			Data struct {
				Role   string `json:"role"`
				Blocks []struct {
					Text string `json:"text"`
				} `json:"blocks"`
			} `json:"data"`
		}
		if json.Unmarshal([]byte(line), &e) != nil || e.Type != "message" || e.Data.Role != "user" {
			continue
		}
		var b strings.Builder
		for _, bl := range e.Data.Blocks {
			b.WriteString(bl.Text)
		}
		out = append(out, b.String())
	}
	return out
}

// A .claude/rules file with paths joins the conversation after the first
// call that touches a file it names, once; a rule for other files stays out.
func TestPathScopedRuleJoinsWhenAMatchingFileIsRead(t *testing.T) {
	c := newCLI(t)
	c.write("src/api/users.ts", "export const users = 1\n")
	c.write("docs/a.md", "# a\n")
	c.write(".claude/rules/api.md", "---\npaths:\n  - \"src/api/**/*.ts\"\n---\nEvery API handler validates its input.\n")
	c.write(".claude/rules/docs.md", "---\npaths: docs/**/*.rst\n---\nWrap at 80.\n")
	s := c.script("s.json", `{"turns":[
	  {"tool_calls":[{"id":"a","name":"Read","input":{"file_path":"docs/a.md"}}]},
	  {"tool_calls":[{"id":"b","name":"Read","input":{"file_path":"src/api/users.ts"}}]},
	  {"tool_calls":[{"id":"c","name":"Read","input":{"file_path":"src/api/users.ts"}}]},
	  {"text":"done"}]}`)
	code, out, errb := c.run("", "--cwd", c.project, "--script", s, "-p", "look")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	msgs := c.userMessages()
	if len(msgs) != 4 {
		t.Fatalf("%d user messages: %q", len(msgs), msgs)
	}
	if strings.Contains(msgs[1], "<rule") {
		t.Errorf("a rule joined after reading docs/a.md: %s", msgs[1])
	}
	if !strings.Contains(msgs[2], "Every API handler validates its input.") {
		t.Errorf("the api rule did not join after reading src/api/users.ts: %s", msgs[2])
	}
	if strings.Contains(msgs[3], "<rule") {
		t.Errorf("the rule was given twice: %s", msgs[3])
	}
	for _, m := range msgs {
		if strings.Contains(m, "Wrap at 80.") {
			t.Errorf("the docs rule for .rst files joined: %s", m)
		}
	}
}
