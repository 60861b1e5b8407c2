package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// writeMCPEnv makes the test binary serve one MCP tool, write, which writes
// a file where it is told.
const writeMCPEnv = "WORKBENCH_TEST_MCP_WRITE"

// init serves the write server before TestMain (the sandbox's launcher,
// whose package init runs first, execs this binary as the server).
func init() {
	if os.Getenv(writeMCPEnv) != "1" {
		return
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "workbench-e2e-write", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "write", Description: "Write a file.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var in struct{ Path string }
			_ = json.Unmarshal(req.Params.Arguments, &in)
			if err := os.WriteFile(in.Path, []byte("x"), 0o644); err != nil {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}, IsError: true}, nil
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "written"}}}, nil
		})
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// An MCP server whose settings entry says "sandbox": true starts inside the
// sandbox of the agent's commands: its writes outside the workspace fail,
// inside they succeed; with the sandbox off it does not start.
func TestH16_AnMCPServerWithSandboxTrueIsConfined(t *testing.T) {
	c := newCLI(t)
	outside := sandboxProject(t, c)
	exe, _ := json.Marshal(os.Args[0])
	c.userSettings(`{"mcpServers":{"w":{"command":` + string(exe) + `,"sandbox":true,
	  "env":{"` + writeMCPEnv + `":"1","GORACE":"atexit_sleep_ms=0"}}}}`)
	target := filepath.Join(outside, "planted")
	code, out, errb := c.run("", "tool", "--cwd", c.project, "--allow", "mcp__w__*", "mcp__w__write", `{"path":"`+target+`"}`)
	if _, err := os.Stat(target); err == nil || code == exitOK {
		t.Fatalf("a sandboxed MCP server wrote outside the workspace: exit %d\n%s\n%s", code, out, errb)
	}
	inside := filepath.Join(c.project, "made")
	code, out, errb = c.run("", "tool", "--cwd", c.project, "--allow", "mcp__w__*", "mcp__w__write", `{"path":"`+inside+`"}`)
	if _, err := os.Stat(inside); err != nil || code != exitOK {
		t.Errorf("a sandboxed MCP server could not write in the workspace: exit %d\n%s\n%s", code, out, errb)
	}
	code, out, errb = c.run("", "tools", "--cwd", c.project, "--sandbox", "off")
	if strings.Contains(out, "mcp__w__write") || !strings.Contains(errb, "the sandbox is off") {
		t.Errorf("with the sandbox off the server started, or the reason is not given: exit %d\n%s\n%s", code, out, errb)
	}
}
