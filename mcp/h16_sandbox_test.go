package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed92b641c3/workbench/internal/sandboxtest"
)

// writeServerEnv makes the test binary serve one MCP tool, write, which
// writes a file where it is told: the server a sandbox must confine.
const writeServerEnv = "WORKBENCH_MCP_TEST_WRITE_SERVER"

// init serves the write server before any test machinery starts (the
// sandbox's launcher, which runs first, execs this binary as the server).
func init() {
	if os.Getenv(writeServerEnv) != "1" {
		return
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "workbench-write", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "write", Description: "Write a file.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var in struct{ Path string }
			_ = json.Unmarshal(req.Params.Arguments, &in)
			msg, failed := "written", false
			if err := os.WriteFile(in.Path, []byte("x"), 0o644); err != nil {
				msg, failed = err.Error(), true
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: msg}}, IsError: failed}, nil
		})
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "write server:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// A stdio server whose entry says "sandbox": true starts in the session's
// sandbox: it can write in the workspace and not outside it. Without the
// flag the same server runs as before; with it and no sandbox it does not
// start at all.
func TestH16_ASandboxedStdioServerIsConfined(t *testing.T) {
	ws, outside, sb := sandboxtest.Sandbox(t)
	entry := func(sandboxed bool) ServerConfig {
		return ServerConfig{Command: testExe(t), Sandbox: sandboxed,
			Env: map[string]string{writeServerEnv: "1", "GORACE": "atexit_sleep_ms=0"}}
	}
	m := start(t, Options{Dir: ws, Sandbox: sb.Wrap}, Config{"boxed": entry(true), "free": entry(false)})
	requireReady(t, m, "boxed")
	requireReady(t, m, "free")
	boxed, free := findTool(t, m, "mcp__boxed__write"), findTool(t, m, "mcp__free__write")
	out := filepath.Join(outside, "boxed")
	if res := call(t, boxed, `{"path": "`+out+`"}`); !res.IsError || !strings.Contains(res.Text, "permission denied") {
		t.Errorf("a sandboxed server's write outside: %+v", res)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a sandboxed MCP server wrote outside the workspace")
	}
	for _, rel := range []string{filepath.Join(ws, "inside"), "relative"} {
		if res := call(t, boxed, `{"path": "`+rel+`"}`); res.IsError {
			t.Errorf("a sandboxed server's write of %s in the workspace: %s", rel, res.Text)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "relative")); err != nil {
		t.Errorf("the relative write did not land in the workspace: %v", err)
	}
	if res := call(t, free, `{"path": "`+filepath.Join(outside, "free")+`"}`); res.IsError {
		t.Errorf("a server without the flag was confined: %s", res.Text)
	}
	// Asked for, the sandbox is not optional: no sandbox, no server.
	bare := start(t, Options{Dir: ws}, Config{"boxed": entry(true)})
	if st := status(t, bare, "boxed"); st.State != StateFailed || st.Err == nil || !strings.Contains(st.Err.Error(), `"sandbox": true`) {
		t.Errorf("without a sandbox: %s %v", st.State, st.Err)
	}
}
