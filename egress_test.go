package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mcpSettings writes the person's own settings (a project's servers wait
// for trust) to start the test binary as an MCP server named "t", passing
// it one variable by name.
func (c *cli) mcpSettings(t *testing.T, extra string) {
	t.Helper()
	exe, _ := json.Marshal(os.Args[0])
	c.userSettings(`{"mcpServers":{"t":{"command":` + string(exe) + `,
	  "env":{"WORKBENCH_TEST_MCP":"1","NAMED_FOR_SERVER":"yes"}}}` + extra + `}`)
}

// userSettings writes the Workbench user settings file of the test's
// XDG_CONFIG_HOME.
func (c *cli) userSettings(content string) {
	c.t.Helper()
	p := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "workbench", "settings.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		c.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		c.t.Fatal(err)
	}
}

func TestMCPToolRunsThroughThePipeline(t *testing.T) {
	c := newCLI(t)
	c.mcpSettings(t, "")
	code, out, errb := c.run("", "tools", "--cwd", c.project)
	if code != exitOK || !strings.Contains(out, "mcp__t__echo") {
		t.Fatalf("catalog lacks the MCP tool: exit %d\n%s\n%s", code, out, errb)
	}
	code, out, errb = c.run("", "tool", "--cwd", c.project, "--allow", "mcp__t__*", "--trace", "mcp__t__echo", `{"text":"hi"}`)
	if code != exitOK || !strings.Contains(out, "echo: hi") {
		t.Fatalf("exit %d out %q err %s", code, out, errb)
	}
	if !strings.Contains(errb, `"stage":"permission"`) {
		t.Error("the MCP call did not go through the pipeline's stages")
	}
	code, out, _ = c.run("", "tool", "--cwd", c.project, "--allow", "mcp__t__*", "--deny", "mcp__t__echo", "mcp__t__echo", `{"text":"hi"}`)
	if code != exitError || !strings.Contains(out, "denied") {
		t.Errorf("a deny rule must stop an MCP tool: exit %d %q", code, out)
	}
	code, out, _ = c.run("", "tool", "--cwd", c.project, "mcp__t__echo", `{"text":"hi"}`)
	if code != exitError || !strings.Contains(out, "--allow") {
		t.Errorf("an MCP tool that is not read-only must ask: exit %d %q", code, out)
	}
}

func TestH13_MCPServerGetsAMinimalEnvironment(t *testing.T) {
	c := newCLI(t)
	t.Setenv("ANTHROPIC_API_KEY", "sk-host-secret")
	t.Setenv("GITHUB_TOKEN", "ghp-host-secret")
	c.mcpSettings(t, "")
	code, out, errb := c.run("", "tool", "--cwd", c.project, "--allow", "mcp__t__env", "mcp__t__env", `{}`)
	if code != exitOK {
		t.Fatalf("exit %d %s %s", code, out, errb)
	}
	if strings.Contains(out, "host-secret") {
		t.Errorf("the server inherited the host's secrets:\n%s", out)
	}
	if !strings.Contains(out, "NAMED_FOR_SERVER=yes") || !strings.Contains(out, "PATH=") {
		t.Errorf("the server lacks what its entry names or PATH:\n%s", out)
	}
}

func TestH12_MisconfiguredToolsAreReported(t *testing.T) {
	c := newCLI(t)
	c.userSettings(`{"webSearch":{"backend":"brave"},
	  "mcpServers":{"broken":{"command":"/nonexistent/server"}}}`)
	code, out, errb := c.run("", "tools", "--cwd", c.project)
	if code != exitOK {
		t.Fatalf("exit %d %s", code, errb)
	}
	if !strings.Contains(errb, "WebSearch") || !strings.Contains(errb, "broken") {
		t.Errorf("stderr must report both problems: %s", errb)
	}
	if !strings.Contains(out, "WebSearch") || !strings.Contains(out, "unavailable") {
		t.Errorf("the catalog must list WebSearch as unavailable with the reason:\n%s", out)
	}
}

func TestH11_WebFetchReachesLoopbackOnlyWithARuleNamingIt(t *testing.T) {
	c := newCLI(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body><h1>Local page</h1><p>served on loopback</p></body></html>")
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	in := `{"url":"` + srv.URL + `/page"}`
	// A broad rule does not open loopback.
	code, out, _ := c.run("", "tool", "--cwd", c.project, "--allow", "WebFetch", "WebFetch", in)
	if code != exitError || strings.Contains(out, "Local page") {
		t.Errorf("loopback was reached without a rule naming it: %q", out)
	}
	code, out, errb := c.run("", "tool", "--cwd", c.project, "--allow", "WebFetch(domain:"+u.Hostname()+")", "WebFetch", in)
	if code != exitOK || !strings.Contains(out, "Local page") {
		t.Errorf("exit %d %q %s", code, out, errb)
	}
}
