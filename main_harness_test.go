package main

import (
	"context"
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed92b641c3/workbench/sandbox"
)

// TestMain lets the test binary stand in for the workbench binary (a test
// that needs a real process runs os.Args[0] with WORKBENCH_TEST_MAIN=1) and
// for an MCP server (WORKBENCH_TEST_MCP=1), so end-to-end tests use real
// processes without building anything.
func TestMain(m *testing.M) {
	sandbox.Dispatch() // the test binary is the sandbox launcher too, as the real one is
	switch {
	case os.Getenv("WORKBENCH_TEST_MAIN") == "1":
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	case os.Getenv("WORKBENCH_TEST_MCP") == "1":
		if err := testMCPServer().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// testMCPServer serves two tools: echo, and env (its own environment, to
// show what a server inherits, H13).
func testMCPServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "workbench-e2e", Version: "1"}, nil)
	schema := func(props string, required ...string) json.RawMessage {
		req, _ := json.Marshal(required)
		if required == nil {
			req = []byte("[]")
		}
		return json.RawMessage(`{"type":"object","properties":{` + props + `},"required":` + string(req) + `}`)
	}
	text := func(t string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: t}}}
	}
	s.AddTool(&sdk.Tool{Name: "echo", Description: "Echo the text back.", InputSchema: schema(`"text":{"type":"string"}`, "text")},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var v struct{ Text string }
			json.Unmarshal(req.Params.Arguments, &v)
			return text("echo: " + v.Text), nil
		})
	s.AddTool(&sdk.Tool{Name: "env", Description: "Print the server's environment.", InputSchema: schema("")},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			env := os.Environ()
			sort.Strings(env)
			return text(strings.Join(env, "\n")), nil
		})
	return s
}
