package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed92b641c3/workbench/tools"
)

// resultMeta is what the UI and transcript learn about an MCP call beyond
// the text: which server and tool answered, and what was left out.
type resultMeta struct {
	Server  string `json:"mcpServer"`
	Tool    string `json:"mcpTool"`
	Omitted int    `json:"omittedBinary,omitempty"`
}

// convertResult turns a server's answer into text the model reads. Text
// and text resources are kept; images, audio and binary resources become a
// one-line note, since results are text. Structured content is added as JSON
// only when no text block came with it, because servers are asked to repeat
// it as text and it should not appear twice.
func convertResult(server, tool string, res *sdk.CallToolResult) tools.Result {
	var parts []string
	meta := resultMeta{Server: server, Tool: tool}
	hasText := false
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			hasText = true
			parts = append(parts, c.Text)
		case *sdk.ImageContent:
			meta.Omitted++
			parts = append(parts, fmt.Sprintf("[image (%s, %d bytes) returned by the tool; images are not shown]", orUnknown(c.MIMEType), len(c.Data)))
		case *sdk.AudioContent:
			meta.Omitted++
			parts = append(parts, fmt.Sprintf("[audio (%s, %d bytes) returned by the tool; audio is not played]", orUnknown(c.MIMEType), len(c.Data)))
		case *sdk.EmbeddedResource:
			parts = append(parts, embedded(c.Resource, &meta))
		case *sdk.ResourceLink:
			line := fmt.Sprintf("[resource %s", c.URI)
			if c.Name != "" {
				line += " " + c.Name
			}
			line += "]"
			if c.Description != "" {
				line += " " + c.Description
			}
			parts = append(parts, line)
		default:
			parts = append(parts, fmt.Sprintf("[content of type %T that Workbench cannot show]", c))
		}
	}
	if res.StructuredContent != nil && !hasText {
		if b, err := json.MarshalIndent(res.StructuredContent, "", "  "); err == nil {
			parts = append(parts, string(b))
		}
	}
	text := strings.Join(parts, "\n")
	if text == "" {
		text = "(the tool returned no content)"
	}
	out := tools.Result{Text: text, IsError: res.IsError}
	if b, err := json.Marshal(meta); err == nil {
		out.Meta = b
	}
	return out
}

// embedded renders an embedded resource: its text under a header naming
// it, or a note when it is binary.
func embedded(r *sdk.ResourceContents, meta *resultMeta) string {
	if r == nil {
		return "[empty resource]"
	}
	if r.Text == "" && len(r.Blob) > 0 {
		meta.Omitted++
		return fmt.Sprintf("[resource %s (%s, %d bytes of binary data, not shown)]", r.URI, orUnknown(r.MIMEType), len(r.Blob))
	}
	head := "[resource " + r.URI
	if r.MIMEType != "" {
		head += " (" + r.MIMEType + ")"
	}
	return head + "]\n" + r.Text
}

func orUnknown(mime string) string {
	if mime == "" {
		return "unknown type"
	}
	return mime
}
