package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/permission"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCompat8_ProjectRootIsTheNearestMarkedAncestor checks the three
// markers, the nearest winning, and that the home directory's ~/.claude does
// not make a project of everything below it.
func TestCompat8_ProjectRootIsTheNearestMarkedAncestor(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	writeFile(t, filepath.Join(home, ".claude", "settings.json"), "{}")
	repo := filepath.Join(home, "src", "repo")
	deep := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	inner := filepath.Join(repo, "a")
	loose := filepath.Join(home, "notes", "x")
	if err := os.MkdirAll(loose, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ dir, want string }{
		{deep, repo},
		{repo, repo},
		{loose, loose},
		{home, home},
	} {
		if got := ProjectRoot(tc.dir, home); got != tc.want {
			t.Errorf("ProjectRoot(%s) = %s, want %s", tc.dir, got, tc.want)
		}
	}
	for _, m := range []string{".claude", ".workbench"} {
		if err := os.MkdirAll(filepath.Join(inner, m), 0o755); err != nil {
			t.Fatal(err)
		}
		if got := ProjectRoot(deep, home); got != inner {
			t.Errorf("with %s in %s: ProjectRoot = %s", m, inner, got)
		}
		os.RemoveAll(filepath.Join(inner, m))
	}
}

// TestCompat7_ClaudeUserSettingsApply checks that ~/.claude/settings.json
// contributes permissions and hooks, and that its other keys are ignored.
func TestCompat7_ClaudeUserSettingsApply(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := Paths{ClaudeUser: filepath.Join(dir, "home", ".claude", "settings.json")}
	writeFile(t, p.ClaudeUser, `{"permissions":{"deny":["Read(./secrets/**)"]},"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]},"model":"claude-x","theme":"dark"}`)
	s, err := Load(dir, p, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Rules[permission.Deny]) != 1 || s.Rules[permission.Deny][0].Source != p.ClaudeUser || len(s.Hooks) != 1 || s.Model != "" {
		t.Fatalf("rules %v, hooks %d, model %q", s.Rules, len(s.Hooks), s.Model)
	}
	s, err = Load(dir, p, true)
	if err != nil || len(s.Rules[permission.Deny]) != 0 {
		t.Fatalf("--no-claude-settings still read %s: %v %v", p.ClaudeUser, s.Rules, err)
	}
}

// TestCompat9_DisableBypass checks the setting's value, its source in the
// message, and that a wrong value is an error with its place.
func TestCompat9_DisableBypass(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := Paths{ClaudeProject: filepath.Join(dir, ".claude", "settings.json")}
	writeFile(t, p.ClaudeProject, `{"permissions":{"disableBypassPermissionsMode":"disable"}}`)
	s, err := Load(dir, p, false)
	if err != nil {
		t.Fatal(err)
	}
	why := s.RefuseMode(permission.ModeBypass)
	if !strings.Contains(why, "bypassPermissions is disabled") || !strings.Contains(why, p.ClaudeProject) {
		t.Fatalf("RefuseMode = %q", why)
	}
	if s.RefuseMode(permission.ModeAcceptEdits) != "" {
		t.Fatal("only bypass is refused")
	}
	writeFile(t, p.ClaudeProject, "{\n  \"permissions\": {\"disableBypassPermissionsMode\": \"yes\"}\n}")
	_, err = Load(dir, p, false)
	if err == nil || !strings.Contains(err.Error(), ":2:") || !strings.Contains(err.Error(), `the only value is "disable"`) {
		t.Fatalf("error = %v", err)
	}
}

// TestCompat10_OnlyThePersonTrustsProjectServers checks that the trust keys
// count in user settings and the --settings file, and in a project's own
// only as answers, and only once the project is trusted.
func TestCompat10_OnlyThePersonTrustsProjectServers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := Paths{
		ClaudeUser:    filepath.Join(dir, "home", ".claude", "settings.json"),
		ClaudeProject: filepath.Join(dir, ".claude", "settings.json"),
		ClaudeLocal:   filepath.Join(dir, ".claude", "settings.local.json"),
		Local:         filepath.Join(dir, ".workbench", "settings.local.json"),
	}
	writeFile(t, p.ClaudeProject, `{"enableAllProjectMcpServers":true}`)
	writeFile(t, p.ClaudeLocal, `{"enabledMcpjsonServers":["evil"],"disabledMcpjsonServers":["noisy"]}`)
	writeFile(t, p.Local, `{"enabledMcpjsonServers":["evil2"]}`)
	s, err := Load(dir, p, false)
	if err != nil {
		t.Fatal(err)
	}
	// In a trusted project the names are answers only (each needs this
	// machine's approval of its server, see mcp.ProjectPolicy).
	if s.ProjectMCP.EnableAll || len(s.ProjectMCP.Enabled) != 0 || !s.ProjectMCP.AnsweredAll || len(s.ProjectMCP.Answered) != 2 {
		t.Fatalf("a project trusted itself: %+v, notices %q", s.ProjectMCP, s.Notices)
	}
	untrusted := p
	untrusted.Untrusted = true
	u, err := Load(dir, untrusted, false)
	if err != nil {
		t.Fatal(err)
	}
	if u.ProjectMCP.AnsweredAll || len(u.ProjectMCP.Answered) != 0 || len(u.Notices) != 3 || !strings.Contains(u.Notices[0], "wait until you trust this project") {
		t.Fatalf("an untrusted project's answers counted: %+v, notices %q", u.ProjectMCP, u.Notices)
	}
	if len(s.ProjectMCP.Disabled) != 1 || s.ProjectMCP.Disabled[0] != "noisy" {
		t.Fatalf("disabledMcpjsonServers from a project file must count: %+v", s.ProjectMCP)
	}
	writeFile(t, p.ClaudeUser, `{"enabledMcpjsonServers":["docs"]}`)
	s, err = Load(dir, p, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.ProjectMCP.Enabled) != 1 || s.ProjectMCP.Enabled[0] != "docs" || s.ProjectMCP.Sources[0] != p.ClaudeUser {
		t.Fatalf("user settings did not trust: %+v", s.ProjectMCP)
	}
}

// A Claude Code settings file's keys Workbench does not read there (env,
// model, statusLine...) make one notice naming them at the first one's
// line; the keys it reads, and $schema, make none.
func TestClaudeKeysNotReadAreANotice(t *testing.T) {
	data := []byte("{\n  \"$schema\": \"https://json.schemastore.org/claude-code-settings.json\",\n  \"permissions\": {\"allow\": [\"Bash(ls)\"]},\n  \"env\": {\"A\": \"1\"},\n  \"model\": \"opus\",\n  \"statusLine\": {\"type\": \"command\", \"command\": \"x\"}\n}\n")
	l, err := Parse("/p/.claude/settings.json", data, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Notices) != 1 {
		t.Fatalf("notices: %v", l.Notices)
	}
	got := l.Notices[0].String()
	for _, want := range []string{"/p/.claude/settings.json:4:3", "env, model, statusLine", "not read from Claude Code's files"} {
		if !strings.Contains(got, want) {
			t.Errorf("the notice %q lacks %q", got, want)
		}
	}
	l, err = Parse("/p/.claude/settings.json", []byte(`{"permissions": {"deny": ["Read(.env)"]}, "hooks": {}, "sandbox": {}}`), true)
	if err != nil || len(l.Notices) != 0 {
		t.Errorf("keys Workbench reads: %v %v", l.Notices, err)
	}
	// The same keys in Workbench's own files are read, or refused.
	if _, err := Parse("/p/.workbench/settings.json", []byte(`{"statusLine": {}}`), false); err == nil {
		t.Error("an unknown key in Workbench's own file was not refused")
	}
}

// A file cut off in the middle names the line where it ends.
func TestACutOffSettingsFileNamesItsLastLine(t *testing.T) {
	_, err := Parse("/p/.workbench/settings.json", []byte("{\n  \"permissions\": {\n    \"allow\": [1\n\n"), false)
	if err == nil || !strings.Contains(err.Error(), "settings.json:3:") || !strings.Contains(err.Error(), "ends before") {
		t.Errorf("error %v", err)
	}
}

// The keys of Claude Code's sandbox object Workbench does not follow
// (excludedCommands, network.allowUnixSockets, allowLocalBinding, an
// "enabled": false) are one notice at the first one's line saying what
// happens instead; those it reads make none, nor does "enabled": true.
func TestClaudeSandboxKeysNotReadAreANotice(t *testing.T) {
	data := []byte("{\"sandbox\": {\n  \"enabled\": false,\n  \"autoAllowBashIfSandboxed\": true,\n  \"excludedCommands\": [\"docker\"],\n  \"network\": {\"allowedDomains\": [\"x.org\"], \"allowUnixSockets\": [\"/var/run/docker.sock\"]},\n  \"filesystem\": {\"allowWrite\": [\"/opt\"]}\n}}\n")
	l, err := Parse("/p/.claude/settings.json", data, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Notices) != 1 {
		t.Fatalf("notices: %v", l.Notices)
	}
	got := l.Notices[0].String()
	for _, want := range []string{"/p/.claude/settings.json:2:", "sandbox.enabled", "sandbox.excludedCommands", "sandbox.network.allowUnixSockets",
		"the sandbox stays on", "run in the sandbox", "sockets stay closed"} {
		if !strings.Contains(got, want) {
			t.Errorf("the notice %q lacks %q", got, want)
		}
	}
	for _, read := range []string{"autoAllowBashIfSandboxed", "allowedDomains", "allowWrite"} {
		if strings.Contains(got, read) {
			t.Errorf("the notice names %s, which is read: %q", read, got)
		}
	}
	l, err = Parse("/p/.claude/settings.json", []byte(`{"sandbox": {"enabled": true, "failIfUnavailable": true, "network": {"allowAllUnixSockets": false}}}`), true)
	if err != nil || len(l.Notices) != 0 {
		t.Errorf("keys Workbench reads: %v %v", l.Notices, err)
	}
}
