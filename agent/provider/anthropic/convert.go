package anthropic

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/seed92b641c3/workbench/agent/provider"
)

// params converts a Request into the SDK's parameters.
//
// Prompt caching: the system prompt, the last tool, and the last block of the
// conversation carry cache breakpoints, so each turn of an agent loop reads
// the unchanged prefix (tools, system, earlier turns) from the cache.
func (p *Provider) params(req provider.Request) (sdk.MessageNewParams, error) {
	params := sdk.MessageNewParams{
		Model:     p.model,
		MaxTokens: int64(p.maxTokens),
	}
	if req.Model != "" {
		params.Model = req.Model
	}
	if req.MaxTokens > 0 {
		params.MaxTokens = int64(req.MaxTokens)
	}
	if req.System != "" {
		params.System = []sdk.TextBlockParam{{Text: req.System, CacheControl: sdk.NewCacheControlEphemeralParam()}}
	}
	for i, t := range req.Tools {
		tool, err := toolParam(t)
		if err != nil {
			return params, err
		}
		if i == len(req.Tools)-1 {
			tool.CacheControl = sdk.NewCacheControlEphemeralParam()
		}
		params.Tools = append(params.Tools, sdk.ToolUnionParam{OfTool: &tool})
	}
	for i, m := range req.Messages {
		blocks, err := contentBlocks(m, i)
		if err != nil {
			return params, err
		}
		if len(blocks) == 0 {
			continue
		}
		switch m.Role {
		case provider.RoleUser:
			params.Messages = append(params.Messages, sdk.NewUserMessage(blocks...))
		case provider.RoleAssistant:
			params.Messages = append(params.Messages, sdk.NewAssistantMessage(blocks...))
		default:
			return params, badRequest("message %d has unknown role %q", i, m.Role)
		}
	}
	markLastBlock(params.Messages)
	return params, nil
}

func contentBlocks(m provider.Message, i int) ([]sdk.ContentBlockParamUnion, error) {
	var out []sdk.ContentBlockParamUnion
	for j, b := range m.Blocks {
		switch b.Type {
		case provider.BlockText:
			// The API refuses empty text blocks.
			if b.Text != "" {
				out = append(out, sdk.NewTextBlock(b.Text))
			}
		case provider.BlockThinking:
			out = append(out, sdk.NewThinkingBlock(b.Signature, b.Thinking))
		case provider.BlockToolUse:
			input, err := inputValue(b.Input)
			if err != nil {
				return nil, badRequest("message %d block %d: tool %s input: %v", i, j, b.ToolName, err)
			}
			out = append(out, sdk.NewToolUseBlock(b.ToolUseID, input, b.ToolName))
		case provider.BlockToolResult:
			r := sdk.ToolResultBlockParam{ToolUseID: b.ToolUseID}
			if b.IsError {
				r.IsError = sdk.Bool(true)
			}
			// An empty result is sent without content: an empty text
			// block would be refused.
			if b.Content != "" {
				r.Content = []sdk.ToolResultBlockParamContentUnion{{OfText: &sdk.TextBlockParam{Text: b.Content}}}
			}
			for _, img := range b.Images {
				src := sdk.NewImageBlockBase64(img.MediaType, base64.StdEncoding.EncodeToString(img.Data)).OfImage
				r.Content = append(r.Content, sdk.ToolResultBlockParamContentUnion{OfImage: src})
			}
			out = append(out, sdk.ContentBlockParamUnion{OfToolResult: &r})
		default:
			return nil, badRequest("message %d block %d has unknown type %q", i, j, b.Type)
		}
	}
	return out, nil
}

// inputValue decodes a tool input so the SDK's encoder writes it as JSON
// (it would write a raw byte slice as base64).
func inputValue(raw json.RawMessage) (any, error) {
	if len(raw) == 0 {
		return map[string]any{}, nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// toolParam converts a tool definition; the schema's properties and required
// list have fields of their own in the SDK, everything else rides along.
func toolParam(t provider.ToolDef) (sdk.ToolParam, error) {
	tool := sdk.ToolParam{Name: t.Name}
	if t.Description != "" {
		tool.Description = sdk.String(t.Description)
	}
	var schema map[string]any
	if len(t.Schema) > 0 {
		if err := json.Unmarshal(t.Schema, &schema); err != nil {
			return tool, badRequest("tool %s: schema is not a JSON object: %v", t.Name, err)
		}
	}
	if props, ok := schema["properties"]; ok {
		tool.InputSchema.Properties = props
	} else {
		tool.InputSchema.Properties = map[string]any{}
	}
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				tool.InputSchema.Required = append(tool.InputSchema.Required, s)
			}
		}
	}
	for k, v := range schema {
		switch k {
		case "type", "properties", "required":
		default:
			if tool.InputSchema.ExtraFields == nil {
				tool.InputSchema.ExtraFields = map[string]any{}
			}
			tool.InputSchema.ExtraFields[k] = v
		}
	}
	return tool, nil
}

// markLastBlock puts a cache breakpoint on the last block of the
// conversation when that block can carry one.
func markLastBlock(msgs []sdk.MessageParam) {
	if len(msgs) == 0 {
		return
	}
	last := msgs[len(msgs)-1]
	var blocks []sdk.ContentBlockParamUnion
	switch {
	case last.OfUser != nil:
		blocks = last.OfUser.Content
	case last.OfAssistant != nil:
		blocks = last.OfAssistant.Content
	}
	if len(blocks) == 0 {
		return
	}
	b := blocks[len(blocks)-1]
	switch {
	case b.OfText != nil:
		b.OfText.CacheControl = sdk.NewCacheControlEphemeralParam()
	case b.OfToolResult != nil:
		b.OfToolResult.CacheControl = sdk.NewCacheControlEphemeralParam()
	}
}

func badRequest(format string, args ...any) *provider.Error {
	return &provider.Error{Provider: Name, Kind: provider.ErrorBadRequest, Message: fmt.Sprintf(format, args...)}
}
