package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// promptHookSettings is a .claude/settings.json with one PreToolUse
// prompt hook on Read, as Claude Code's hooks reference writes them.
const promptHookSettings = `{
  "hooks": {
    "PreToolUse": [{"matcher": "Read", "hooks": [
      {"type": "prompt", "prompt": "Only files named public-* may be read. The call: $ARGUMENTS", "timeout": 20}
    ]}]
  }
}
`

// userText joins the text of a request's first message.
func userText(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	if len(msgs) == 0 {
		return ""
	}
	first, _ := msgs[0].(map[string]any)
	switch c := first["content"].(type) {
	case string:
		return c
	case []any:
		var b strings.Builder
		for _, blk := range c {
			if m, ok := blk.(map[string]any); ok {
				b.WriteString(fmt.Sprint(m["text"]))
			}
		}
		return b.String()
	}
	return ""
}

// A prompt hook asks the session's model, through the loopback server, a
// question built from its prompt with $ARGUMENTS replaced by the event,
// in a request of its own without tools; its "ok": false blocks the call
// with the model's reason.
func TestCompat1_PromptHookAsksTheSessionsModel(t *testing.T) {
	c := newCLI(t)
	c.write(".claude/settings.json", promptHookSettings)
	c.write("secret.txt", "the secret\n")
	srv := newModelServer(t,
		sseTool("toolu_1", "Read", `{"file_path":"secret.txt"}`),
		sseText("```json\n{\"ok\": false, \"reason\": \"secret.txt is not a public file\"}\n```"),
		sseText("Understood."))
	code, out, errb := c.run("", "--cwd", c.project, "-p", "read the secret")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	reqs := srv.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (turn, hook question, turn):\n%s", len(reqs), errb)
	}
	q := reqs[1]
	if _, has := q["tools"]; has {
		t.Errorf("the hook's question offers tools: %v", q["tools"])
	}
	if !strings.Contains(system(q), "judge one condition") {
		t.Errorf("the hook's question has the session's system prompt, not its own: %q", system(q))
	}
	text := userText(q)
	start := strings.Index(text, "The call: ")
	if !strings.HasPrefix(text, "Only files named public-* may be read.") || start < 0 || strings.Contains(text, "$ARGUMENTS") {
		t.Fatalf("the question is not the hook's prompt with the event in place of $ARGUMENTS:\n%s", text)
	}
	var ev map[string]any
	dec := json.NewDecoder(strings.NewReader(text[start+len("The call: "):]))
	if err := dec.Decode(&ev); err != nil {
		t.Fatalf("$ARGUMENTS is not the event as JSON: %v\n%s", err, text)
	}
	if ev["hook_event_name"] != "PreToolUse" || ev["tool_name"] != "Read" || ev["tool_use_id"] != "toolu_1" ||
		!strings.Contains(fmt.Sprint(ev["tool_input"]), "secret.txt") {
		t.Errorf("the event in the question: %v", ev)
	}
	r := toolResults(reqs[2])
	if len(r) != 1 || r[0]["is_error"] != true || !strings.Contains(resultText(r[0]), "secret.txt is not a public file") {
		t.Fatalf("the model's no did not block the call with its reason: %v", r)
	}
	if strings.Contains(resultText(r[0]), "the secret") {
		t.Fatal("the blocked call read the file")
	}
}

// The model's yes lets the call go on (it is no objection, not an
// approval: the rules still decide, and Read in the project is allowed).
func TestCompat1_PromptHookYesLetsTheCallRun(t *testing.T) {
	c := newCLI(t)
	c.write(".claude/settings.json", promptHookSettings)
	c.write("public-notes.txt", "public words\n")
	newModelServer(t, sseText(`{"ok": true, "reason": "a public file"}`))
	code, out, errb := c.run("", "tool", "--cwd", c.project, "Read", `{"file_path":"public-notes.txt"}`)
	if code != exitOK || !strings.Contains(out, "public words") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
}

// A model that answers something other than the decision, or fails,
// has approved nothing: the PreToolUse call is blocked and the reason
// says why (H6).
func TestCompat1_PromptHookFailsClosed(t *testing.T) {
	for name, reply := range map[string]string{
		"prose":       sseText("Sure, reading that file looks fine to me."),
		"no decision": sseText(`{"verdict": "fine"}`),
		"wrong type":  sseText(`{"ok": "yes"}`),
		"model error": sse(`{"type":"error","error":{"type":"overloaded_error","message":"the model is overloaded"}}`),
		"no text":     sse(`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":0}}`),
	} {
		t.Run(name, func(t *testing.T) {
			c := newCLI(t)
			c.write(".claude/settings.json", promptHookSettings)
			c.write("public-notes.txt", "public words\n")
			newModelServer(t, reply)
			code, out, errb := c.run("", "tool", "--cwd", c.project, "Read", `{"file_path":"public-notes.txt"}`)
			if code != exitError || strings.Contains(out, "public words") {
				t.Fatalf("exit %d, the call was not blocked:\n%s\n%s", code, out, errb)
			}
			if !strings.Contains(out, `PreToolUse hook "prompt: Only files named public-*`) || !strings.Contains(out, "failed, so the call was blocked") {
				t.Fatalf("the reason does not say the prompt hook failed:\n%s", out)
			}
		})
	}
}
