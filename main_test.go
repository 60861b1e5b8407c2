package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/session"
	"github.com/seed92b641c3/workbench/settings"
)

// cli runs the command in-process with its own state and config homes, so
// tests never touch the user's.
type cli struct {
	t       *testing.T
	project string
	state   string
	// untrusting stops write from trusting the project's settings files
	// as the test writes them (TestTrust_* works on an untrusted clone).
	untrusting bool
}

func newCLI(t *testing.T) *cli {
	t.Helper()
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	// The person's ~/.claude is read too; tests must not see the real one.
	t.Setenv("HOME", t.TempDir())
	project := t.TempDir()
	if real, err := filepath.EvalSymlinks(project); err == nil {
		project = real
	}
	// The person trusts the project, as they would once for their own
	// repository, so its settings files apply whole (TestTrust_* covers
	// the untrusted case).
	if _, err := settings.SetTrust(settings.TrustFile(settings.DefaultPaths(project)), project, true); err != nil {
		t.Fatal(err)
	}
	return &cli{t: t, project: project, state: state}
}

func (c *cli) run(stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func (c *cli) write(rel, content string) string {
	p := filepath.Join(c.project, rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		c.t.Fatal(err)
	}
	// The person trusts the settings they write themselves; trust follows
	// content, so it is recorded again. A file that does not parse is left
	// for the test to see refused.
	if !c.untrusting && strings.HasPrefix(filepath.Base(rel), "settings") &&
		(strings.HasPrefix(rel, ".claude/") || strings.HasPrefix(rel, ".workbench/")) {
		c.trust()
	}
	return p
}

// trust records the person's trust in the project's settings files as they
// are now, as `workbench trust` does.
func (c *cli) trust() {
	settings.SetTrust(settings.TrustFile(settings.DefaultPaths(c.project)), c.project, true)
}

func traceLines(t *testing.T, stderr string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(stderr))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("trace line is not JSON: %q", sc.Text())
		}
		out = append(out, m)
	}
	return out
}

func TestToolBashAsksAndHeadlessDeniesWithTheAllowRule(t *testing.T) {
	c := newCLI(t)
	code, stdout, stderr := c.run("", "tool", "--cwd", c.project, "--trace", "Bash", `{"command":"ls"}`)
	if code != exitError {
		t.Fatalf("exit %d, want 1; stdout %s", code, stdout)
	}
	if !strings.Contains(stdout, "--allow 'Bash(ls:*)'") {
		t.Errorf("the denial must name the rule to pass: %s", stdout)
	}
	var stages []string
	for _, l := range traceLines(t, stderr) {
		for _, k := range []string{"call_id", "tool", "stage", "outcome", "duration_us"} {
			if _, ok := l[k]; !ok {
				t.Errorf("trace line lacks %s: %v", k, l)
			}
		}
		stages = append(stages, l["stage"].(string)+":"+l["outcome"].(string))
	}
	got := strings.Join(stages, " ")
	if !strings.HasPrefix(got, "lookup:ok schema:ok permission:ask pre_hook:skipped permission:rejected result:error") {
		t.Errorf("stages %s", got)
	}
}

func TestToolBashAllowedRuns(t *testing.T) {
	c := newCLI(t)
	c.write("hello.txt", "x")
	code, stdout, _ := c.run("", "tool", "--cwd", c.project, "--allow", "Bash(ls:*)", "Bash", `{"command":"ls"}`)
	if code != exitOK || !strings.Contains(stdout, "hello.txt") {
		t.Fatalf("exit %d stdout %q", code, stdout)
	}
}

func TestToolInputFromStdin(t *testing.T) {
	c := newCLI(t)
	c.write("a.txt", "alpha\nbeta\n")
	code, stdout, _ := c.run(`{"file_path":"a.txt"}`, "tool", "--cwd", c.project, "Read")
	if code != exitOK || !strings.Contains(stdout, "beta") {
		t.Fatalf("exit %d stdout %q", code, stdout)
	}
}

func TestToolExitStatuses(t *testing.T) {
	c := newCLI(t)
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"unknown tool is an error result", []string{"tool", "--cwd", c.project, "Raed", `{}`}, exitError},
		{"invalid input is an error result", []string{"tool", "--cwd", c.project, "Read", `{"limit":0}`}, exitError},
		{"bad flag is a usage error", []string{"tool", "--bogus", "Read"}, exitUsage},
		{"bad mode is a usage error", []string{"tool", "--permission-mode", "yolo", "Read", `{}`}, exitUsage},
		{"bad rule is a usage error", []string{"tool", "--allow", "Bash(", "Read", `{}`}, exitUsage},
		{"hard deny holds in bypass mode", []string{"tool", "--cwd", c.project, "--permission-mode", "bypassPermissions", "Bash", `{"command":"rm -rf /"}`}, exitError},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if code, out, errb := c.run("", tc.args...); code != tc.want {
				t.Errorf("exit %d, want %d\nstdout %s\nstderr %s", code, tc.want, out, errb)
			}
		})
	}
}

func TestBrokenSettingsStopWithFileLineAndField(t *testing.T) {
	cases := []struct {
		name, content, want string
	}{
		{"syntax error", "{\n  \"permissions\": {\n    \"allow\": [\"Bash(ls:*)\",]\n  }\n}\n", "settings.json:3:"},
		{"unknown key", "{\n  \"permisions\": {}\n}\n", "settings.json:2:3: permisions"},
		{"bad rule", "{\n  \"permissions\": {\n    \"deny\": [\"Read\", \"Bash(rm\"]\n  }\n}\n", "settings.json:3:22: permissions.deny[1]"},
		{"bad mode", "{\"permissions\": {\"defaultMode\": \"yolo\"}}", "permissions.defaultMode"},
		{"wrong type", "{\"permissions\": {\"allow\": \"Bash\"}}", "settings.json:1:"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCLI(t)
			c.write(".workbench/settings.json", tc.content)
			code, stdout, stderr := c.run("", "tool", "--cwd", c.project, "Read", `{"file_path":"x"}`)
			if code != exitUsage {
				t.Fatalf("exit %d, want 2; stdout %s", code, stdout)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q does not contain %q", stderr, tc.want)
			}
		})
	}
}

func TestSettingsRulesApply(t *testing.T) {
	c := newCLI(t)
	c.write(".workbench/settings.json", `{"permissions":{"allow":["Bash(echo:*)"]}}`)
	c.write(".claude/settings.json", `{"permissions":{"deny":["Bash(echo secret:*)"]},"model":"whatever","statusLine":{}}`)
	if code, out, _ := c.run("", "tool", "--cwd", c.project, "Bash", `{"command":"echo hi"}`); code != exitOK || !strings.Contains(out, "hi") {
		t.Errorf("allowed by project settings: exit %d %q", code, out)
	}
	if code, _, _ := c.run("", "tool", "--cwd", c.project, "Bash", `{"command":"echo secret"}`); code != exitError {
		t.Errorf("denied by .claude settings: exit %d", code)
	}
	if code, _, _ := c.run("", "tool", "--cwd", c.project, "--no-claude-settings", "Bash", `{"command":"echo secret"}`); code != exitOK {
		t.Errorf("--no-claude-settings must skip .claude: exit %d", code)
	}
}

func TestSessionTranscriptRecordsEveryStage(t *testing.T) {
	c := newCLI(t)
	c.run("", "tool", "--cwd", c.project, "--allow", "Bash(seq:*)", "--max-output", "100", "Bash", `{"command":"seq 1 1000"}`)
	matches, _ := filepath.Glob(filepath.Join(c.state, "workbench", "sessions", "*", "transcript.jsonl"))
	if len(matches) != 1 {
		t.Fatalf("want one session transcript, found %v", matches)
	}
	data, _ := os.ReadFile(matches[0])
	text := string(data)
	for _, want := range []string{`"type":"session"`, `"stage":"permission"`, `"stage":"capture"`, `"type":"spill"`, `"sha256"`} {
		if !strings.Contains(text, want) {
			t.Errorf("transcript lacks %s", want)
		}
	}
	spills, _ := filepath.Glob(filepath.Join(filepath.Dir(matches[0]), "spill", "*"))
	if len(spills) != 1 {
		t.Errorf("want one spill file in the session, found %v", spills)
	}
}

func TestSpillDirFlag(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	code, out, _ := c.run("", "tool", "--cwd", c.project, "--allow", "Bash(seq:*)", "--max-output", "50", "--spill-dir", dir, "Bash", `{"command":"seq 1 500"}`)
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if code != exitOK || len(files) != 1 {
		t.Fatalf("exit %d, spill files %v, out %s", code, files, out)
	}
}

func TestToolsCatalogListsMetadata(t *testing.T) {
	c := newCLI(t)
	code, out, _ := c.run("", "tools", "--cwd", c.project, "--json")
	if code != exitOK {
		t.Fatal(code)
	}
	var entries []session.CatalogEntry
	if err := json.Unmarshal([]byte(out), &entries); err != nil {
		t.Fatal(err)
	}
	byName := map[string]session.CatalogEntry{}
	for _, e := range entries {
		byName[e.Name] = e
	}
	for _, n := range []string{"Read", "Write", "Edit", "MultiEdit", "LS", "Glob", "Grep", "Bash"} {
		if _, ok := byName[n]; !ok {
			t.Errorf("catalog lacks %s", n)
		}
	}
	if e := byName["Bash"]; e.ReadOnly || e.ConcurrencySafe || e.Approval != "ask" {
		t.Errorf("Bash metadata %+v", e)
	}
	if e := byName["Read"]; !e.ReadOnly || !e.ConcurrencySafe {
		t.Errorf("Read metadata %+v", e)
	}
}
