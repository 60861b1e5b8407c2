package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hookPrinting writes a hook script that reads its event and prints out,
// and returns the command that runs it.
func (c *cli) hookPrinting(name, out string) string {
	p := c.write(filepath.Join("hooks", name+".sh"), "#!/bin/sh\ncat >/dev/null\ncat <<'EOF'\n"+out+"\nEOF\n")
	return "sh " + p
}

// hooksSettings writes .claude/settings.json with one command hook per
// event (matcher "" where the event has one).
func (c *cli) hooksSettings(byEvent map[string]string) {
	groups := map[string]any{}
	for ev, cmd := range byEvent {
		groups[ev] = []any{map[string]any{"matcher": "", "hooks": []any{map[string]any{"type": "command", "command": cmd}}}}
	}
	raw, err := json.MarshalIndent(map[string]any{"hooks": groups}, "", "  ")
	if err != nil {
		c.t.Fatal(err)
	}
	c.write(".claude/settings.json", string(raw))
}

// hookEntries are the transcript's hook entries of the only session.
func (c *cli) hookEntries() []map[string]any {
	c.t.Helper()
	trs := c.transcripts()
	if len(trs) != 1 {
		c.t.Fatalf("%d transcripts", len(trs))
	}
	var out []map[string]any
	for _, line := range strings.Split(readFile(c.t, trs[0]), "\n") {
		var e map[string]any
		if json.Unmarshal([]byte(line), &e) == nil && e["type"] == "hook" {
			if d, ok := e["data"].(map[string]any); ok {
				out = append(out, d)
			}
		}
	}
	return out
}

// result reads a --output-format json result line.
func jsonResult(t *testing.T, stdout string) (stop, text string) {
	t.Helper()
	var r struct {
		Stop string `json:"stop_reason"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(stdout)), &r); err != nil {
		t.Fatalf("result is not JSON: %v\n%s", err, stdout)
	}
	return r.Stop, r.Text
}

// A hook's "continue": false ends the run in every event Claude Code's
// reference gives it, before anything more goes to the model, and the
// stopReason is what the person reads as the run's last word.
func TestCompat5_ContinueFalseEndsTheRunWithItsStopReason(t *testing.T) {
	read := sseTool("toolu_1", "Read", `{"file_path":"a.txt"}`)
	cases := []struct {
		event    string
		replies  []string
		requests int // model requests before the run ended
		stop     string
	}{
		{"SessionStart", nil, 0, "stop_hook_prevented"},
		{"UserPromptSubmit", nil, 0, "prompt_blocked"},
		{"PreToolUse", []string{read}, 1, "stop_hook_prevented"},
		{"PermissionRequest", []string{sseTool("toolu_1", "Write", `{"file_path":"b.txt","content":"x"}`)}, 1, "stop_hook_prevented"},
		{"PostToolUse", []string{read}, 1, "stop_hook_prevented"},
		{"PostToolUseFailure", []string{sseTool("toolu_1", "Read", `{"file_path":"missing.txt"}`)}, 1, "stop_hook_prevented"},
		{"SubagentStart", []string{sseTool("toolu_1", "Agent", `{"description":"look","prompt":"look around","subagent_type":"explore"}`)}, 1, "stop_hook_prevented"},
		{"Stop", nil, 1, "stop_hook_prevented"},
		// The subagent's own stop ends the person's run too: its
		// request is the second.
		{"SubagentStop", []string{sseTool("toolu_1", "Agent", `{"description":"look","prompt":"look around","subagent_type":"explore"}`)}, 2, "stop_hook_prevented"},
		// The first request would fill the tiny window: the compaction
		// before it is stopped, and the run with it.
		{"PreCompact", []string{read}, 0, "stop_hook_prevented"},
	}
	for _, tc := range cases {
		t.Run(tc.event, func(t *testing.T) {
			c := newCLI(t)
			c.write("a.txt", "alpha\n")
			reason := "stopped by the " + tc.event + " hook"
			c.hooksSettings(map[string]string{tc.event: c.hookPrinting("stop", `{"continue": false, "stopReason": "`+reason+`", "decision": "block", "reason": "for the model"}`)})
			srv := newModelServer(t, append(tc.replies, sseText("the model went on"))...)
			args := []string{"--cwd", c.project, "--output-format", "json", "-p", "go"}
			if tc.event == "PreCompact" {
				args = append(args, "--context-window", "10")
			}
			code, out, errb := c.run("", args...)
			if want := map[bool]int{true: exitError, false: exitOK}[tc.stop == "prompt_blocked"]; code != want {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, want, out, errb)
			}
			stop, text := jsonResult(t, out)
			if stop != tc.stop || !strings.Contains(text, reason) {
				t.Fatalf("stop %q text %q, want %q with %q\n%s", stop, text, tc.stop, reason, errb)
			}
			if n := len(srv.requests()); n != tc.requests {
				t.Fatalf("%d model requests, want %d: the run went on", n, tc.requests)
			}
		})
	}
}

// additionalContext reaches the model where Claude Code's reference
// documents it: with the prompt (UserPromptSubmit, SessionStart), with
// the tool result (PreToolUse, PostToolUse, PostToolUseFailure) and in
// the subagent's task (SubagentStart).
func TestCompat5_AdditionalContextReachesTheModel(t *testing.T) {
	cases := []struct {
		event   string
		replies []string
		// where finds the text the context must be in.
		where func(reqs []map[string]any) string
	}{
		{"SessionStart", nil, func(r []map[string]any) string { return fmt.Sprint(r[0]["messages"]) }},
		{"UserPromptSubmit", nil, func(r []map[string]any) string { return fmt.Sprint(r[0]["messages"]) }},
		{"PreToolUse", []string{sseTool("toolu_1", "Read", `{"file_path":"a.txt"}`)}, func(r []map[string]any) string { return fmt.Sprint(toolResults(r[1])) }},
		{"PostToolUse", []string{sseTool("toolu_1", "Read", `{"file_path":"a.txt"}`)}, func(r []map[string]any) string { return fmt.Sprint(toolResults(r[1])) }},
		{"PostToolUseFailure", []string{sseTool("toolu_1", "Read", `{"file_path":"missing.txt"}`)}, func(r []map[string]any) string { return fmt.Sprint(toolResults(r[1])) }},
		{"SubagentStart", []string{sseTool("toolu_1", "Agent", `{"description":"look","prompt":"look around","subagent_type":"explore"}`)}, func(r []map[string]any) string { return userText(r[1]) }},
	}
	for _, tc := range cases {
		t.Run(tc.event, func(t *testing.T) {
			c := newCLI(t)
			c.write("a.txt", "alpha\n")
			note := "context from the " + tc.event + " hook"
			c.hooksSettings(map[string]string{tc.event: c.hookPrinting("ctx", `{"hookSpecificOutput": {"hookEventName": "`+tc.event+`", "additionalContext": "`+note+`"}}`)})
			srv := newModelServer(t, append(tc.replies, sseText("done"), sseText("done"))...)
			code, out, errb := c.run("", "--cwd", c.project, "-p", "go")
			if code != exitOK {
				t.Fatalf("exit %d\n%s\n%s", code, out, errb)
			}
			reqs := srv.requests()
			if len(reqs) <= len(tc.replies) {
				t.Fatalf("%d requests", len(reqs))
			}
			if got := tc.where(reqs); !strings.Contains(got, note) {
				t.Fatalf("the context is not where it belongs:\n%s", got)
			}
		})
	}
}

// A hook's systemMessage is for the person, not the model: headless it is
// a line on stderr naming the event and the hook (stream-json also has it
// as a notice), it is recorded with the verdict, and no request to the
// model carries it.
func TestCompat5_SystemMessageIsShownToThePerson(t *testing.T) {
	c := newCLI(t)
	c.write("a.txt", "alpha\n")
	cmd := c.hookPrinting("sys", `{"systemMessage": "the linter is slow today"}`)
	c.hooksSettings(map[string]string{"PostToolUse": cmd})
	srv := newModelServer(t, sseTool("toolu_1", "Read", `{"file_path":"a.txt"}`), sseText("done"))
	code, out, errb := c.run("", "--cwd", c.project, "--output-format", "stream-json", "-p", "go")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	want := "PostToolUse hook " + cmd + ": the linter is slow today"
	if !strings.Contains(errb, "workbench: "+want) {
		t.Errorf("stderr lacks the message:\n%s", errb)
	}
	var notice bool
	for _, l := range parseStream(t, out) {
		notice = notice || (l.Type == "notice" && l.Text == want)
	}
	if !notice {
		t.Errorf("stream-json has no notice with the message:\n%s", out)
	}
	for _, r := range srv.requests() {
		if strings.Contains(fmt.Sprint(r["messages"]), "slow today") {
			t.Fatal("the person's message reached the model")
		}
	}
	var recorded bool
	for _, e := range c.hookEntries() {
		recorded = recorded || e["system_message"] == "the linter is slow today"
	}
	if !recorded {
		t.Error("the transcript does not record the message")
	}

	// `workbench tool` prints it on stderr as well.
	code, out, errb = c.run("", "tool", "--cwd", c.project, "Read", `{"file_path":"a.txt"}`)
	if code != exitOK || !strings.Contains(errb, "workbench: "+want) {
		t.Fatalf("workbench tool: exit %d\n%s\n%s", code, out, errb)
	}
}

// A hook's stdout is recorded with its verdict in the transcript, unless
// it says "suppressOutput": true; its decision and context still count.
func TestCompat5_SuppressOutputKeepsTheHooksStdoutOutOfTheTranscript(t *testing.T) {
	c := newCLI(t)
	c.write("a.txt", "alpha\n")
	c.write(".claude/settings.json", fmt.Sprintf(`{"hooks": {"PostToolUse": [{"matcher": "Read", "hooks": [
  {"type": "command", "command": %q},
  {"type": "command", "command": %q}
]}]}}`, c.hookPrinting("loud", "formatted 2 files (loud-marker)"),
		c.hookPrinting("quiet", `{"suppressOutput": true, "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "quiet-marker for the model"}}`)))
	code, out, errb := c.run("", "tool", "--cwd", c.project, "Read", `{"file_path":"a.txt"}`)
	if code != exitOK || !strings.Contains(out, "quiet-marker for the model") {
		t.Fatalf("exit %d, the suppressed hook's context is lost:\n%s\n%s", code, out, errb)
	}
	entries := c.hookEntries()
	if len(entries) != 2 {
		t.Fatalf("%d hook entries: %v", len(entries), entries)
	}
	loud, quiet := entries[0], entries[1]
	if loud["stdout"] != "formatted 2 files (loud-marker)" {
		t.Errorf("the hook's stdout is not recorded: %v", loud)
	}
	raw, _ := json.Marshal(quiet)
	if quiet["suppress_output"] != true || strings.Contains(string(raw), "quiet-marker") {
		t.Errorf("a suppressOutput hook's output is recorded: %s", raw)
	}
	if _, err := os.Stat(c.transcripts()[0]); err != nil {
		t.Fatal(err)
	}
}
