package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// testServerEnv makes the test binary serve MCP on stdin/stdout instead of
// running tests, so the tests start a real server built with the same SDK.
const testServerEnv = "WORKBENCH_MCP_TEST_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(testServerEnv) == "1" {
		if err := newTestServer().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "test server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// newTestServer is the server both transports serve: each tool exercises
// one path of the client.
func newTestServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "workbench-test", Version: "1"}, nil)
	obj := func(props string, required ...string) json.RawMessage {
		req, _ := json.Marshal(required)
		if required == nil {
			req = []byte("[]")
		}
		return json.RawMessage(`{"type":"object","properties":{` + props + `},"required":` + string(req) + `}`)
	}
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	args := func(req *sdk.CallToolRequest) map[string]any {
		var m map[string]any
		_ = json.Unmarshal(req.Params.Arguments, &m)
		return m
	}
	s.AddTool(&sdk.Tool{Name: "echo", Description: "Echo the text back.", InputSchema: obj(`"text":{"type":"string"}`, "text")},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text(fmt.Sprint(args(req)["text"])), nil
		})
	s.AddTool(&sdk.Tool{Name: "env", Description: "Print the server's environment.", InputSchema: obj("")},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text(strings.Join(os.Environ(), "\n")), nil
		})
	s.AddTool(&sdk.Tool{Name: "fail", Description: "Always fails.", InputSchema: obj("")},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			r := text("fail: the tool failed on purpose")
			r.IsError = true
			return r, nil
		})
	s.AddTool(&sdk.Tool{Name: "lookup", Description: "Look a key up.", InputSchema: obj(`"key":{"type":"string"}`, "key"),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			k := fmt.Sprint(args(req)["key"])
			return &sdk.CallToolResult{Content: []sdk.Content{}, StructuredContent: map[string]any{"key": k, "value": "v-" + k}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "mixed", Description: "Return every kind of content.", InputSchema: obj("")},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.TextContent{Text: "first"},
				&sdk.ImageContent{Data: []byte("PNGDATA"), MIMEType: "image/png"},
				&sdk.ImageContent{Data: []byte("<svg>"), MIMEType: "image/svg+xml"},
				&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///notes.txt", MIMEType: "text/plain", Text: "resource body"}},
				&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///blob.bin", Blob: []byte{1, 2, 3}}},
				&sdk.ResourceLink{URI: "file:///linked.md", Name: "linked"},
			}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "slow", Description: "Report progress three times, then finish.", InputSchema: obj("")},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			token := req.Params.GetProgressToken()
			if token == nil {
				return text("no progress token"), nil
			}
			for i := 1; i <= 3; i++ {
				_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Progress: float64(i), Total: 3, Message: fmt.Sprintf("step %d", i)})
				time.Sleep(300 * time.Millisecond) // past the client's spacing, so each one is passed on
			}
			return text(fmt.Sprintf("done with token %v", token)), nil
		})
	s.AddTool(&sdk.Tool{Name: "dotted.name", Description: "A name that needs sanitising.", InputSchema: obj("")},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return text("dotted"), nil })
	s.AddTool(&sdk.Tool{Name: "broken", Description: "Its schema does not compile.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":"zero"}}}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text("unreachable"), nil
		})
	s.AddTool(&sdk.Tool{Name: "crash", Description: "Exit the server mid-call.", InputSchema: obj("")},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			os.Exit(3)
			return nil, nil
		})
	s.AddTool(&sdk.Tool{Name: "spawn", Description: "Start a long-lived child and print its pid.", InputSchema: obj("")},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			cmd := exec.Command("sleep", "300")
			if err := cmd.Start(); err != nil {
				return nil, err
			}
			return text(fmt.Sprint(cmd.Process.Pid)), nil
		})
	return s
}
