package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/session"
)

// projectServers writes mcpServers into a project settings file: one
// server, the test binary's MCP server, started through sh so that it
// leaves a marker file when it starts. extra goes into its environment.
func (c *cli) projectServers(rel, extra string) (marker string) {
	c.t.Helper()
	exe, err := os.Executable()
	if err != nil {
		c.t.Fatal(err)
	}
	srv := map[string]any{"local": map[string]any{
		"command": "sh", "args": []string{"-c", `echo started > ran; exec "$0"`, exe},
		"env": map[string]string{"WORKBENCH_TEST_MCP": "1", "EXTRA": extra},
	}}
	raw, _ := json.Marshal(map[string]any{"mcpServers": srv})
	c.write(rel, string(raw))
	return filepath.Join(c.project, "ran")
}

// mcpServers in a project's own settings are the project's, like its
// .mcp.json: they start nothing on any entry point until the person trusts
// them, the trust is remembered for exactly those servers, and a change
// to them waits for trust again.
func TestCompat10_ProjectSettingsMCPServersWaitForTrust(t *testing.T) {
	c := newCLI(t)
	marker := c.projectServers(".workbench/settings.json", "one")
	for _, args := range [][]string{{"tools", "--cwd", c.project}, {"tool", "--cwd", c.project, "Read", `{"file_path":".workbench/settings.json"}`}} {
		code, out, errb := c.run("", args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s\n%s", args[0], code, out, errb)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("workbench %s started a server of the project's settings before it was trusted", args[0])
		}
		if !strings.Contains(errb, filepath.Join(c.project, ".workbench", "settings.json")+" defines MCP servers (local) in mcpServers") ||
			!strings.Contains(errb, "none of them starts until you trust them") {
			t.Fatalf("%s: stderr does not say the servers wait:\n%s", args[0], errb)
		}
	}

	// The person trusts them (the TUI's /mcp trust or its question).
	cfg, err := session.Load(session.Options{Dir: c.project})
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.Open(cfg, session.Model{}, session.Wiring{Approver: agent.Headless{}})
	if err != nil {
		t.Fatal(err)
	}
	status, err := s.MCP().Trust(context.Background())
	s.Close("exit")
	if err != nil || !strings.Contains(status, "local") {
		t.Fatalf("trust: %v\n%s", err, status)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the trusted server did not start: %v", err)
	}

	// Remembered: the next run starts them without a word.
	os.Remove(marker)
	code, out, errb := c.run("", "tools", "--cwd", c.project)
	if code != exitOK || !strings.Contains(out, "mcp__local__echo") || strings.Contains(errb, "until you trust them") {
		t.Fatalf("a trusted server did not start again: exit %d\n%s\n%s", code, out, errb)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("the trusted server did not start again")
	}

	// Changed servers wait again; so do those of settings.local.json.
	os.Remove(marker)
	c.projectServers(".workbench/settings.json", "two")
	c.projectServers(".workbench/settings.local.json", "three")
	code, out, errb = c.run("", "tools", "--cwd", c.project)
	if code != exitOK || strings.Contains(out, "mcp__local__echo") {
		t.Fatalf("exit %d, a changed server started:\n%s\n%s", code, out, errb)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a changed server started before it was trusted again")
	}
	if !strings.Contains(errb, "settings.local.json defines MCP servers (local)") {
		t.Errorf("settings.local.json's servers are not named as waiting:\n%s", errb)
	}
}
