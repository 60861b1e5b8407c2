package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/sandbox"
)

func TestH16_SandboxSettingsAreRead(t *testing.T) {
	t.Parallel()
	l, err := Parse("s.json", []byte(`{"sandbox": {"mode": "read-only", "network": true,
		"allowedDomains": ["example.com"], "allowWrite": ["build"], "denyRead": ["~/.netrc"], "allowRead": ["~/.npmrc"],
		"autoAllow": true, "allowUnsandboxedCommands": false, "required": true, "person": true,
		"allowAllUnixSockets": true}}`), false)
	if err != nil {
		t.Fatal(err)
	}
	s := &Settings{Sandbox: defaultSandbox()}
	s.mergeSandbox("/proj", l)
	got := s.Sandbox
	if got.Mode != sandbox.ReadOnly || !got.Network || !got.AutoAllow || got.AllowUnsandboxedCommands ||
		!got.Required || !got.Person || !got.AllowAllUnixSockets || got.AllowedDomains[0] != "example.com" ||
		got.AllowWrite[0] != "/proj/build" || got.DenyRead[0] != "~/.netrc" || len(got.AllowRead) != 1 || got.AllowRead[0] != "~/.npmrc" {
		t.Errorf("merged %+v", got)
	}
}

func TestH16_BadSandboxSettingsNameFileLineAndField(t *testing.T) {
	t.Parallel()
	cases := []struct{ doc, field, line string }{
		{"{\n  \"sandbox\": {\n    \"mode\": \"strict\"\n  }\n}", "sandbox.mode", "s.json:3:13"},
		{"{\n  \"sandbox\": {\n    \"netwrok\": true\n  }\n}", "sandbox.netwrok", "s.json:3:"},
		{"{\n  \"sandbox\": {\n    \"network\": \"yes\"\n  }\n}", "sandbox.network", "s.json:3:"},
		{"{\n  \"sandbox\": {\"allowWrite\": \"/x\"}\n}", "sandbox.allowWrite", "s.json:2:"},
	}
	for _, c := range cases {
		_, err := Parse("s.json", []byte(c.doc), false)
		var se *Error
		if !errors.As(err, &se) || se.Field != c.field || !strings.Contains(err.Error(), c.line) {
			t.Errorf("%s: err = %v, want field %s at %s", c.doc, err, c.field, c.line)
		}
	}
}

func TestH16_ClaudeCodeSandboxKeysAreRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".claude"), 0o755)
	os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte(`{"sandbox": {
		"enabled": false, "failIfUnavailable": true, "autoAllowBashIfSandboxed": true,
		"allowUnsandboxedCommands": false, "excludedCommands": ["docker"],
		"filesystem": {"allowWrite": ["/opt/cache"], "denyRead": ["~/.kube"]},
		"network": {"allowedDomains": ["github.com"], "allowLocalBinding": true, "allowAllUnixSockets": true}}}`), 0o644)
	s, err := Load(dir, DefaultPaths(dir), false)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Sandbox
	// "enabled": false does not turn the sandbox off.
	if got.Mode != sandbox.WorkspaceWrite || !got.Required || !got.AutoAllow || got.AllowUnsandboxedCommands ||
		len(got.AllowWrite) != 1 || got.AllowWrite[0] != "/opt/cache" || got.DenyRead[0] != "~/.kube" ||
		got.AllowedDomains[0] != "github.com" || !got.AllowAllUnixSockets {
		t.Errorf("merged %+v", got)
	}
}

func TestH16_SandboxDefaultsWithNoSettings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := Load(dir, Paths{Project: filepath.Join(dir, "none.json")}, true)
	if err != nil {
		t.Fatal(err)
	}
	if s.Sandbox.Mode != sandbox.WorkspaceWrite || s.Sandbox.Network || s.Sandbox.AutoAllow ||
		!s.Sandbox.AllowUnsandboxedCommands || s.Sandbox.Required || s.Sandbox.AllowAllUnixSockets {
		t.Errorf("defaults %+v", s.Sandbox)
	}
}

// Claude Code's filesystem.allowRead opens a default hidden path as
// Workbench's allowRead does; in an untrusted project it is withheld.
func TestH16_ClaudesAllowReadIsRead(t *testing.T) {
	t.Parallel()
	l, err := Parse("c.json", []byte(`{"sandbox": {"filesystem": {"allowRead": ["~/.kube"]}}}`), true)
	if err != nil {
		t.Fatal(err)
	}
	s := &Settings{Sandbox: defaultSandbox()}
	s.mergeSandbox("/proj", l)
	if len(s.Sandbox.AllowRead) != 1 || s.Sandbox.AllowRead[0] != "~/.kube" {
		t.Errorf("allowRead %v", s.Sandbox.AllowRead)
	}
	if _, loose := tighterSandbox(*l.Sandbox); len(loose) != 1 || !strings.Contains(loose[0], "allowRead") {
		t.Errorf("allowRead is not withheld from an untrusted project: %v", loose)
	}
}
