package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Under --deny 'Read(./.env)' and the default sandbox, no process the agent
// starts reads the file: a foreground command, a script, a background task
// and a terminal session (issue 16). The analysis may also refuse some of
// these before they run; either way the secret never shows.
func TestH16_AReadDenyRuleHidesTheFileFromEveryProcess(t *testing.T) {
	c := newCLI(t)
	sandboxProject(t, c)
	const marker = "hunter2-dotenv"
	c.write(".env", "API_KEY="+marker+"\n")
	home := os.Getenv("HOME")
	for _, p := range []string{".aws/credentials", ".kube/config"} {
		full := filepath.Join(home, p)
		os.MkdirAll(filepath.Dir(full), 0o700)
		os.WriteFile(full, []byte("token="+marker+"-home\n"), 0o600)
	}
	s := c.script("s.json", `{"turns":[
	  {"tool_calls":[
	    {"id":"bg","name":"Bash","input":{"command":"cat .env; echo bg-ran","run_in_background":true}},
	    {"id":"cat","name":"Bash","input":{"command":"cat .env; echo cat-ran"}},
	    {"id":"py","name":"Bash","input":{"command":"python3 -c \"print(open('.env').read())\"; echo py-ran"}},
	    {"id":"home","name":"Bash","input":{"command":"cat ~/.aws/credentials ~/.kube/config; ls -A ~/.kube; echo home-ran"}}]},
	  {"tool_calls":[
	    {"id":"out","name":"TaskOutput","input":{"task_id":"task_1","block":true,"timeout_ms":20000}},
	    {"id":"open","name":"shell_open","input":{"command":"bash --norc --noprofile","mode":"hands-free"}}]},
	  {"tool_calls":[{"id":"send","name":"shell_send","input":{"session_id":"sh_1","text":"python3 -c \"print(open('.env').read())\"; echo pty-ran","submit":true,"prompt_regex":"(?m)^pty-ran","quiet_ms":0,"timeout_ms":20000}}]},
	  {"tool_calls":[{"id":"screen","name":"shell_read","input":{"session_id":"sh_1","view":"screen"}}]},
	  {"text":"done"}]}`)
	code, out, errb := c.run("", "--cwd", c.project, "--script", s, "--permission-mode", "bypassPermissions",
		"--deny", "Read(./.env)", "--deny", "Read(~/.aws/**)", "--deny", "Read(~/.kube/**)",
		"--output-format", "stream-json", "-p", "go")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	r := resultsByID(parseStream(t, out))
	for id, ran := range map[string]string{"cat": "cat-ran", "py": "py-ran", "home": "home-ran", "out": "bg-ran", "send": "pty-ran", "screen": "pty-ran"} {
		got := r[id]
		if strings.Contains(got.Content, marker) {
			t.Errorf("%s read the denied file: %s", id, got.Content)
		}
		// A call refused before it ran is as good; one that ran must have
		// run to its end with the file hidden.
		if !got.IsError && !strings.Contains(got.Content, ran) {
			t.Errorf("%s did not run to its end: %+v", id, got)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(c.project, ".env")); string(b) != "API_KEY="+marker+"\n" {
		t.Errorf("the denied file changed: %q", b)
	}
}

// A glob rule is expanded at each command start: a file it covers that
// appears after the session started is hidden from the next command.
func TestH16_AFileCreatedAfterStartIsHiddenByAGlobRule(t *testing.T) {
	c := newCLI(t)
	sandboxProject(t, c)
	os.Mkdir(filepath.Join(c.project, "keys"), 0o755)
	s := c.script("s.json", `{"turns":[
	  {"tool_calls":[{"id":"make","name":"Bash","input":{"command":"mkdir -p keys/deep && echo 'KEY=pem-made-later' > keys/deep/new.pem && echo made"}}]},
	  {"tool_calls":[{"id":"read","name":"Bash","input":{"command":"cat keys/deep/new.pem; python3 -c \"print(open('keys/deep/new.pem').read())\"; echo read-ran"}}]},
	  {"text":"done"}]}`)
	code, out, errb := c.run("", "--cwd", c.project, "--script", s, "--permission-mode", "bypassPermissions",
		"--deny", "Read(./**/*.pem)", "--output-format", "stream-json", "-p", "go")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	r := resultsByID(parseStream(t, out))
	if !strings.Contains(r["make"].Content, "made") {
		t.Fatalf("the file was not made: %+v", r["make"])
	}
	if got := r["read"]; strings.Contains(got.Content, "pem-made-later") || (!got.IsError && !strings.Contains(got.Content, "read-ran")) {
		t.Errorf("the next command read the file the glob rule covers: %+v", got)
	}
	if b, _ := os.ReadFile(filepath.Join(c.project, "keys", "deep", "new.pem")); !strings.Contains(string(b), "pem-made-later") {
		t.Errorf("the file is not there outside the sandbox: %q", b)
	}
}

// A rule over a directory that holds the workspace (as a glob over the
// whole home directory is) cannot be hidden whole; the start says what was
// and was not hidden.
func TestH16_ARuleOverTheWorkspacesParentIsReportedAtStart(t *testing.T) {
	c := newCLI(t)
	sandboxProject(t, c)
	code, _, errb := c.run("", "tool", "--cwd", c.project, "--deny", "Read(//"+strings.TrimPrefix(filepath.Dir(c.project), "/")+"/**)",
		"--permission-mode", "bypassPermissions", "Bash", `{"command":"true"}`)
	// The analysis may refuse the command itself (the rule covers its
	// working directory); the notes come at start either way.
	if code == exitUsage {
		t.Fatalf("exit %d\n%s", code, errb)
	}
	for _, want := range []string{"is only partly hidden from commands", "holds the workspace"} {
		if !strings.Contains(errb, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb)
		}
	}
}
