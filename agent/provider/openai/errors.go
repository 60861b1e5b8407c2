package openai

import (
	"context"
	"encoding/json"
	"errors"
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
	if msg == "" {
		msg = strings.TrimSpace(apiErr.RawJSON())
	}
	var header http.Header
	if apiErr.Response != nil {
		header = apiErr.Response.Header
	}
	e := provider.StatusError(Name, apiErr.StatusCode, header, msg)
	e.Err = apiErr
	switch {
	case apiErr.Code == "insufficient_quota" || apiErr.Type == "insufficient_quota":
		// A 429 that waiting will not fix.
		e.Retryable = false
		e.Hint = "the account is out of credit; check its plan and billing"
	case e.Kind == provider.ErrorAuth:
		e.Hint = "set " + EnvAPIKey + " to a valid key"
	case apiErr.StatusCode == http.StatusNotFound:
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
	}
	return e
}
