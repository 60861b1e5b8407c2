package mcp

import (
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestConvertResult(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		res  *sdk.CallToolResult
		want string
	}{
		{"structured content repeated as text appears once",
			&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: `{"a":1}`}}, StructuredContent: map[string]any{"a": 1}},
			`{"a":1}`},
		{"several text blocks are joined by lines",
			&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "one"}, &sdk.TextContent{Text: "two"}}},
			"one\ntwo"},
		{"an empty answer says so",
			&sdk.CallToolResult{},
			"(the tool returned no content)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := convertResult("s", "t", c.res).Text; got != c.want {
				t.Errorf("text = %q, want %q", got, c.want)
			}
		})
	}
}
