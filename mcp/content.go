package mcp

import (
	"encoding/json"
	"fmt"
	"slices"
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
	Images  int    `json:"images,omitempty"`
}

// Image limits: the media types both model APIs take, and a size well
// within their per-image limits (Anthropic's is 5 MB), so one screenshot
// cannot make the whole request fail.
const maxImageBytes = 3_750_000

var imageTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// imageRefused says why an image cannot go to the model, or "".
func imageRefused(c *sdk.ImageContent) string {
	switch {
	case !slices.Contains(imageTypes, c.MIMEType):
		return "the model takes PNG, JPEG, GIF and WebP images only"
	case len(c.Data) == 0:
		return "it is empty"
	case len(c.Data) > maxImageBytes:
		return fmt.Sprintf("it is over the %d-byte limit for an image", maxImageBytes)
	}
	return ""
}

// convertResult turns a server's answer into what the model reads. Text
// and text resources are kept; images go to the model as images (each
// with a line in the text saying where it stands); audio and binary
// resources become a one-line note. Structured content is added as JSON
// only when no text block came with it, because servers are asked to repeat
// it as text and it should not appear twice.
func convertResult(server, tool string, res *sdk.CallToolResult) tools.Result {
	var parts []string
	var images []tools.Image
	meta := resultMeta{Server: server, Tool: tool}
	hasText := false
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			hasText = true
			parts = append(parts, c.Text)
		case *sdk.ImageContent:
			if why := imageRefused(c); why != "" {
				meta.Omitted++
				parts = append(parts, fmt.Sprintf("[image (%s, %d bytes) returned by the tool, not shown: %s]", orUnknown(c.MIMEType), len(c.Data), why))
				continue
			}
			images = append(images, tools.Image{MediaType: c.MIMEType, Data: c.Data})
			meta.Images++
			parts = append(parts, fmt.Sprintf("[image %d (%s, %d bytes) attached]", len(images), c.MIMEType, len(c.Data)))
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
	out := tools.Result{Text: text, IsError: res.IsError, Images: images}
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
