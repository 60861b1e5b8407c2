package openai

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/seed92b641c3/workbench/agent/provider"
)

// params converts a Request into the SDK's parameters.
func (p *Provider) params(req provider.Request) (sdk.ChatCompletionNewParams, error) {
	params := sdk.ChatCompletionNewParams{Model: p.model}
	if req.Model != "" {
		params.Model = req.Model
	}
	// Ask for a final chunk with the token counts.
	params.StreamOptions.IncludeUsage = sdk.Bool(true)
	if n := req.MaxTokens; n > 0 || p.maxTokens > 0 {
		if n <= 0 {
			n = p.maxTokens
		}
		// OpenAI's own models take max_completion_tokens (and its reasoning
		// models refuse max_tokens); compatible servers all take max_tokens,
		// and not all of them know the newer name.
		if p.customURL {
			params.MaxTokens = sdk.Int(int64(n))
		} else {
			params.MaxCompletionTokens = sdk.Int(int64(n))
		}
	}
	if req.System != "" {
		params.Messages = append(params.Messages, sdk.SystemMessage(req.System))
	}
	for _, t := range req.Tools {
		def := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters{"type": "object", "properties": map[string]any{}}}
		if t.Description != "" {
			def.Description = sdk.String(t.Description)
		}
		if len(t.Schema) > 0 {
			var schema map[string]any
			if err := json.Unmarshal(t.Schema, &schema); err != nil {
				return params, badRequest("tool %s: schema is not a JSON object: %v", t.Name, err)
			}
			def.Parameters = schema
		}
		params.Tools = append(params.Tools, sdk.ChatCompletionFunctionTool(def))
	}
	for i, m := range req.Messages {
		var msgs []sdk.ChatCompletionMessageParamUnion
		var err error
		switch m.Role {
		case provider.RoleUser:
			msgs = userMessages(m)
		case provider.RoleAssistant:
			msgs, err = assistantMessage(m, i)
		default:
			err = badRequest("message %d has unknown role %q", i, m.Role)
		}
		if err != nil {
			return params, err
		}
		params.Messages = append(params.Messages, msgs...)
	}
	return params, nil
}

// userMessages splits a user turn the way Chat Completions wants it: each
// tool result is a "tool" message, and they must come right after the
// assistant message that made the calls, so any text follows them.
//
// A tool message holds text only, so the images of tool results follow in
// that user message as image parts (data URLs), each after a line naming
// the call it came from.
func userMessages(m provider.Message) []sdk.ChatCompletionMessageParamUnion {
	var out []sdk.ChatCompletionMessageParamUnion
	var text []string
	var images []sdk.ChatCompletionContentPartUnionParam
	for _, b := range m.Blocks {
		switch b.Type {
		case provider.BlockToolResult:
			content := b.Content
			// The API has no error flag for a tool result; say it in words.
			if b.IsError {
				content = "Error: " + content
			}
			if len(b.Images) > 0 {
				content += fmt.Sprintf("\n[%d image(s) of this result follow in the next user message]", len(b.Images))
				images = append(images, sdk.TextContentPart(fmt.Sprintf("Images returned by tool call %s:", b.ToolUseID)))
				for _, img := range b.Images {
					url := "data:" + img.MediaType + ";base64," + base64.StdEncoding.EncodeToString(img.Data)
					images = append(images, sdk.ImageContentPart(sdk.ChatCompletionContentPartImageImageURLParam{URL: url}))
				}
			}
			out = append(out, sdk.ToolMessage(content, b.ToolUseID))
		case provider.BlockText:
			if b.Text != "" {
				text = append(text, b.Text)
			}
		}
	}
	switch {
	case len(images) > 0:
		parts := images
		if len(text) > 0 {
			parts = append(parts, sdk.TextContentPart(strings.Join(text, "\n\n")))
		}
		out = append(out, sdk.UserMessage(parts))
	case len(text) > 0:
		out = append(out, sdk.UserMessage(strings.Join(text, "\n\n")))
	}
	return out
}

// assistantMessage converts an assistant turn. Thinking is not sent back:
// the API has no place for it.
func assistantMessage(m provider.Message, i int) ([]sdk.ChatCompletionMessageParamUnion, error) {
	var a sdk.ChatCompletionAssistantMessageParam
	var text []string
	for j, b := range m.Blocks {
		switch b.Type {
		case provider.BlockText:
			if b.Text != "" {
				text = append(text, b.Text)
			}
		case provider.BlockToolUse:
			args := string(b.Input)
			if args == "" {
				args = "{}"
			}
			if !json.Valid([]byte(args)) {
				return nil, badRequest("message %d block %d: tool %s input is not valid JSON", i, j, b.ToolName)
			}
			a.ToolCalls = append(a.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
					ID:       b.ToolUseID,
					Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: b.ToolName, Arguments: args},
				},
			})
		}
	}
	if len(text) == 0 && len(a.ToolCalls) == 0 {
		return nil, nil
	}
	if len(text) > 0 {
		a.Content.OfString = sdk.String(strings.Join(text, "\n\n"))
	}
	return []sdk.ChatCompletionMessageParamUnion{{OfAssistant: &a}}, nil
}

func badRequest(format string, args ...any) *provider.Error {
	return &provider.Error{Provider: Name, Kind: provider.ErrorBadRequest, Message: fmt.Sprintf(format, args...)}
}
