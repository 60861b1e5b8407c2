package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/settings"
)

// firstPrompt is the first user message the only session of c sent to the
// model, as its transcript recorded it.
func (c *cli) firstPrompt() string {
	c.t.Helper()
	trs := c.transcripts()
	if len(trs) != 1 {
		c.t.Fatalf("%d transcripts", len(trs))
	}
	for _, line := range strings.Split(readFile(c.t, trs[0]), "\n") {
		var e struct {
			Type string `json:"type"`
			Data struct {
				Role   string `json:"role"`
				Blocks []struct {
					Type string `json:"type"`
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
		return b.String()
	}
	c.t.Fatal("no user message in the transcript")
	return ""
}

// homeFile writes a file under the test's HOME (the person's ~/.claude).
func homeFile(t *testing.T, rel, content string) {
	t.Helper()
	p := filepath.Join(os.Getenv("HOME"), rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCustomCommandRunsWithItsArgumentsHeadless(t *testing.T) {
	c := newCLI(t)
	c.write(".claude/commands/git/review.md", "---\ndescription: Review a change\nargument-hint: [pr] [focus]\nmodel: claude-opus-4\n---\nReview PR #$1 with a focus on $2.\nAll: $ARGUMENTS\n")
	homeFile(t, ".claude/commands/hello.md", "Say hello to the team.")
	s := c.script("s.json", `{"turns":[{"text":"ok"}]}`)
	code, out, errb := c.run("", "--cwd", c.project, "--script", s, "-p", `/review 42 "error handling"`)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	got := c.firstPrompt()
	if want := "Review PR #42 with a focus on error handling.\nAll: 42 \"error handling\""; got != want {
		t.Errorf("prompt %q, want %q", got, want)
	}
	if !strings.Contains(errb, "review.md:4: model claude-opus-4 is not used") {
		t.Errorf("the unused model key is not a notice with file and line:\n%s", errb)
	}

	c2 := newCLI(t)
	homeFile(t, ".claude/commands/hello.md", "Say hello to the team.")
	code, out, errb = c2.run("", "--cwd", c2.project, "--script", s, "-p", "/hello in French")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	if got, want := c2.firstPrompt(), "Say hello to the team.\n\nARGUMENTS: in French"; got != want {
		t.Errorf("a user command without placeholders: prompt %q, want %q", got, want)
	}
}

func TestCustomCommandBuiltinWinsAndUnknownIsAPrompt(t *testing.T) {
	c := newCLI(t)
	c.write(".claude/commands/clear.md", "Delete everything.")
	s := c.script("s.json", `{"turns":[{"text":"ok"}]}`)
	code, _, errb := c.run("", "--cwd", c.project, "--script", s, "-p", "/nosuch thing")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errb)
	}
	if !strings.Contains(errb, "clear.md: /clear is a built-in command, which wins") {
		t.Errorf("no notice for the clash:\n%s", errb)
	}
	if got := c.firstPrompt(); got != "/nosuch thing" {
		t.Errorf("a line naming no command must go as typed, got %q", got)
	}
}

func TestH05_CustomCommandShellLinesGoThroughThePipeline(t *testing.T) {
	c := newCLI(t)
	c.write("notes.txt", "the notes\n")
	c.write(".claude/commands/status.md", "---\nallowed-tools: Bash(echo:*)\n---\nBranch: !`echo on-main`\nDenied: !`cat notes.txt`\nRead @notes.txt please.\n")
	c.trust() // the person trusts the project with its command file
	s := c.script("s.json", `{"turns":[{"text":"ok"}]}`)
	code, out, errb := c.run("", "--cwd", c.project, "--script", s, "--trace", "--output-format", "stream-json", "-p", "/status")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	got := c.firstPrompt()
	if !strings.Contains(got, "Branch: on-main\n") {
		t.Errorf("the allowed command's output is not in the prompt:\n%s", got)
	}
	if strings.Contains(got, "Denied: the notes") || !strings.Contains(got, "cat notes.txt did not run") {
		t.Errorf("a command outside allowed-tools ran without approval (headless cannot approve):\n%s", got)
	}
	if !strings.Contains(got, "Contents of @notes.txt:") || !strings.Contains(got, "the notes") {
		t.Errorf("the @notes.txt reference was not included:\n%s", got)
	}
	// Each part ran as a pipeline call, so the trace shows its stages.
	if !strings.Contains(out, `"tool":"Bash"`) || !strings.Contains(out, `"tool":"Read"`) {
		t.Errorf("the command's calls are not in the trace:\n%s", out)
	}
}

func TestH04_CustomCommandFileReferenceObeysReadDenyRules(t *testing.T) {
	c := newCLI(t)
	c.write(".env", "SECRET=hunter2\n")
	c.write(".claude/settings.json", `{"permissions":{"deny":["Read(.env)"]}}`)
	c.write(".claude/commands/leak.md", "Look at @.env and @../outside.txt now.")
	if err := os.WriteFile(filepath.Join(filepath.Dir(c.project), "outside.txt"), []byte("outside secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := c.script("s.json", `{"turns":[{"text":"ok"}]}`)
	code, _, errb := c.run("", "--cwd", c.project, "--script", s, "-p", "/leak")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errb)
	}
	got := c.firstPrompt()
	if strings.Contains(got, "hunter2") || strings.Contains(got, "outside secret") {
		t.Fatalf("a denied or outside file reached the prompt:\n%s", got)
	}
	if !strings.Contains(got, "@.env was not included") {
		t.Errorf("the refusal is not said:\n%s", got)
	}
}

func TestCustomCommandOfAnUntrustedProjectGetsNoGrant(t *testing.T) {
	c := newCLI(t)
	c.write(".claude/commands/run.md", "---\nallowed-tools: Bash(touch:*)\n---\nDone: !`touch made.txt`\n")
	c.untrusting = true
	if _, err := settings.SetTrust(settings.TrustFile(settings.DefaultPaths(c.project)), c.project, false); err != nil {
		t.Fatal(err)
	}
	s := c.script("s.json", `{"turns":[{"text":"ok"}]}`)
	code, _, errb := c.run("", "--cwd", c.project, "--script", s, "-p", "/run")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errb)
	}
	if _, err := os.Stat(filepath.Join(c.project, "made.txt")); err == nil {
		t.Fatal("an untrusted repository's command file granted itself a command")
	}
	if !strings.Contains(errb, "run.md: allowed-tools is not granted") {
		t.Errorf("no notice that the grant was withheld:\n%s", errb)
	}
}

// A command file that names allowed-tools is a power like an allow rule:
// one a `git pull` adds to a trusted project makes it untrusted again, so
// it grants nothing until the person trusts the project as it is now.
func TestCustomCommandGrantAddedToATrustedProjectWaitsForTrust(t *testing.T) {
	// The key as written, and spelled with a YAML escape, which is the
	// same key to the parser that grants it.
	for _, key := range []string{"allowed-tools", `"allowed\x2dtools"`, `"allowed\u002dtools"`, `'allowed-tools'`, `? allowed-tools
`} {
		t.Run(key, func(t *testing.T) { commandGrantWaitsForTrust(t, key) })
	}
}

func commandGrantWaitsForTrust(t *testing.T, key string) {
	c := newCLI(t)
	c.write(".claude/commands/run.md", "---\n"+key+": Bash(touch:*)\n---\nDone: !`touch made.txt`\n")
	s := c.script("s.json", `{"turns":[{"text":"ok"}]}`)
	code, _, errb := c.run("", "--cwd", c.project, "--script", s, "-p", "/run")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errb)
	}
	if _, err := os.Stat(filepath.Join(c.project, "made.txt")); err == nil {
		t.Fatal("a command file added after the trust granted itself a command")
	}
	if !strings.Contains(errb, "changed since you trusted it") || !strings.Contains(errb, "allowed-tools of slash commands and skills: .claude/commands/run.md") {
		t.Errorf("the notice does not say the command file needs trust again:\n%s", errb)
	}
	c.trust()
	if code, _, errb = c.run("", "--cwd", c.project, "--script", s, "-p", "/run"); code != exitOK {
		t.Fatalf("exit %d\n%s", code, errb)
	}
	if _, err := os.Stat(filepath.Join(c.project, "made.txt")); err != nil {
		t.Errorf("trusted again, the command's allowed-tools did not hold: %v\n%s", err, errb)
	}
}
