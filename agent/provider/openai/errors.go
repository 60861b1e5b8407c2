package openai

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/seed92b641c3/workbench/agent/provider"
)

// classify turns an error from the SDK into a *provider.Error with a hint. A
// done context wins over whatever error its cancellation caused, so callers
// can test for context.Canceled.
func (p *Provider) classify(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	var pe *provider.Error
	if errors.As(err, &pe) {
		return err
	}
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		return p.apiError(apiErr)
	}
	var streamErr *ssestream.StreamError
	if errors.As(err, &streamErr) {
		return streamError(streamErr)
	}
	hint := "check the network connection"
	if p.customURL {
		hint = "check that the server is running, or " + EnvBaseURL + " / --base-url"
	}
	return provider.TransportError(Name, p.baseURL, hint, err)
}

func (p *Provider) apiError(apiErr *sdk.Error) *provider.Error {
	msg := apiErr.Message
	var header http.Header
	if apiErr.Response != nil {
		header = apiErr.Response.Header
		if msg == "" {
			msg = bodyText(apiErr.Response)
		}
	}
	e := p.statusError(apiErr.StatusCode, header, msg, apiErr)
	if e.Kind == provider.ErrorBadRequest && (apiErr.Code == "context_length_exceeded" || provider.MentionsContextOverflow(msg) || provider.MentionsContextOverflow(apiErr.Type)) {
		e.Kind, e.Hint = provider.ErrorPromptTooLong, "compact the conversation (/compact) or start a new one"
	}
	if apiErr.Code == "insufficient_quota" || apiErr.Type == "insufficient_quota" {
		// A 429 that waiting will not fix.
		e.Retryable = false
		e.Hint = "the account is out of credit; check its plan and billing"
	}
	return e
}

// statusError classifies an HTTP error status and adds a hint.
func (p *Provider) statusError(status int, header http.Header, msg string, cause error) *provider.Error {
	e := provider.StatusError(Name, status, header, msg)
	e.Err = cause
	switch {
	case e.Kind == provider.ErrorAuth:
		e.Hint = "set " + EnvAPIKey + " to a valid key"
	case status == http.StatusNotFound:
		e.Hint = "check the model name (--model)"
		if p.customURL {
			e.Hint += " and " + EnvBaseURL
		}
	}
	return e
}

// streamError classifies an error object sent inside the stream, such as
// {"error":{"message":"...","type":"server_error","code":502}}.
func streamError(se *ssestream.StreamError) *provider.Error {
	var body struct {
		Error json.RawMessage `json:"error"`
	}
	var detail struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	_ = json.Unmarshal(se.Event.Data, &body)
	if json.Unmarshal(body.Error, &detail) != nil {
		// Some servers send the error as a bare string.
		_ = json.Unmarshal(body.Error, &detail.Message)
	}
	if detail.Message == "" {
		detail.Message = strings.TrimSpace(string(se.Event.Data))
	}
	code := strings.Trim(string(detail.Code), `"`)
	status, _ := strconv.Atoi(code)
	e := &provider.Error{Provider: Name, Kind: provider.ErrorStream, Message: detail.Message, Err: se}
	kind := strings.ToLower(detail.Type + " " + code)
	switch {
	case status == http.StatusTooManyRequests || strings.Contains(kind, "rate_limit"):
		e.Kind, e.Retryable = provider.ErrorRateLimit, true
	case status == 529 || strings.Contains(kind, "overloaded"):
		e.Kind, e.Retryable = provider.ErrorOverloaded, true
	case status >= 500 || strings.Contains(kind, "server_error"):
		e.Kind, e.Retryable = provider.ErrorServer, true
	case provider.MentionsContextOverflow(kind + " " + detail.Message):
		e.Kind = provider.ErrorPromptTooLong
	}
	return e
}

// maxErrorBody caps how much of an error body goes into a message.
const maxErrorBody = 512

// bodyText returns the start of an error response's body, for servers that
// answer in plain text or in a JSON shape the SDK does not parse.
func bodyText(resp *http.Response) string {
	if resp == nil || resp.Body == nil {
		return ""
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	// Compatible servers put the message in different places:
	// {"error": "..."}, {"message": "..."} (vLLM), {"detail": "..."}.
	var shapes struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  string          `json:"detail"`
	}
	if json.Unmarshal(b, &shapes) == nil {
		var s string
		if json.Unmarshal(shapes.Error, &s) == nil && s != "" {
			return s
		}
		if shapes.Message != "" {
			return shapes.Message
		}
		if shapes.Detail != "" {
			return shapes.Detail
		}
	}
	return strings.TrimSpace(string(b))
}
