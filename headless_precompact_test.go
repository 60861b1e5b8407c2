package main

import (
	"os"
	"strings"
	"testing"
)

// precompactSession runs three prompts against the loopback model with the
// given PreCompact hook scripts, then `-p "/compact"` on the session, and
// returns its exit code and output and the server.
func precompactSession(t *testing.T, scripts ...string) (c *cli, srv *loopbackChat, code int, out, errb string) {
	t.Helper()
	c = newCLI(t)
	var entries []string
	for i, body := range scripts {
		p := c.write(".workbench/precompact"+string(rune('a'+i))+".sh", "#!/bin/sh\ncat >/dev/null\n"+body)
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
		entries = append(entries, `{"type":"command","command":"`+p+`"}`)
	}
	c.write(".workbench/settings.json", `{"hooks":{"PreCompact":[{"hooks":[`+strings.Join(entries, ",")+`]}]}}`)
	srv = newLoopbackChat(t,
		loopbackReply{text: "one done", prompt: 100},
		loopbackReply{text: "two done", prompt: 100},
		loopbackReply{text: "three done", prompt: 100},
		loopbackReply{text: "four done", prompt: 100},
	)
	model := []string{"--cwd", c.project, "--provider", "openai", "--base-url", srv.URL, "--model", "loopback-model", "--context-window", "100000"}
	for i, p := range []string{"first: the codename is HERON", "second", "third"} {
		args := append(model, "-p", p)
		if i > 0 {
			args = append(model, "--continue", "-p", p)
		}
		if code, out, errb := c.run("", args...); code != exitOK {
			t.Fatalf("prompt %q: exit %d\n%s\n%s", p, code, out, errb)
		}
	}
	code, out, errb = c.run("", append(model, "--continue", "--output-format", "stream-json", "-p", "/compact keep the test names")...)
	return c, srv, code, out, errb
}

// What PreCompact hooks print for the summary (additionalContext, or the
// Agent SDK's customInstructions, in hookSpecificOutput) goes into the
// summary request beside the person's instructions, and the transcript's
// compaction record keeps it. A hook that fails is noted and the
// compaction goes on.
func TestPreCompactHookOutputReachesTheSummary(t *testing.T) {
	c, srv, code, out, errb := precompactSession(t,
		`echo '{"hookSpecificOutput":{"hookEventName":"PreCompact","additionalContext":"Keep the codename HERON verbatim."}}'`,
		`echo '{"hookSpecificOutput":{"hookEventName":"PreCompact","customInstructions":"List every open migration."}}'`,
		`echo 'broken' >&2; exit 1`,
	)
	if code != exitOK || !strings.Contains(out, "Compacted (manual)") {
		t.Fatalf("/compact: exit %d\n%s\n%s", code, out, errb)
	}
	if !strings.Contains(out+errb, "A PreCompact hook failed") {
		t.Errorf("the failing hook is not noted:\n%s\n%s", out, errb)
	}
	reqs := srv.requests()
	sum := reqs[len(reqs)-1]
	for _, want := range []string{"Write a summary of it now", "keep the test names", "PreCompact hooks ask", "Keep the codename HERON verbatim.", "List every open migration."} {
		if !strings.Contains(sum, want) {
			t.Errorf("the summary request lacks %q: %s", want, sum)
		}
	}
	if tr := readFile(t, c.transcripts()[0]); !strings.Contains(tr, `"hook_instructions":"Keep the codename HERON verbatim.\nList every open migration."`) {
		t.Error("the transcript's compaction record does not keep what the hooks asked for")
	}
}

// A PreCompact hook that exits 2, or answers "decision": "block", stops
// the compaction with its reason, and the conversation stays whole: no
// summary is asked for.
func TestPreCompactHookBlocksTheCompaction(t *testing.T) {
	for name, script := range map[string]string{
		"exit 2":          `echo 'a migration is half done' >&2; exit 2`,
		"decision: block": `echo '{"decision":"block","reason":"a migration is half done"}'`,
		"continue: false": `echo '{"continue":false,"stopReason":"a migration is half done"}'`,
	} {
		t.Run(name, func(t *testing.T) {
			_, srv, code, out, errb := precompactSession(t, script)
			if code == exitOK || !strings.Contains(out+errb, "a PreCompact hook blocked the compaction") || !strings.Contains(out+errb, "a migration is half done") {
				t.Fatalf("/compact with a blocking hook: exit %d\n%s\n%s", code, out, errb)
			}
			for _, r := range srv.requests() {
				if strings.Contains(r, "Write a summary of it now") {
					t.Fatal("a summary was asked for although the hook blocked the compaction")
				}
			}
		})
	}
}
