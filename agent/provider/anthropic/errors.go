package anthropic

import (
	"context"
	"errors"
	"net/http"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

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
	hint := "check the network connection"
	if p.customURL {
		hint = "check " + EnvBaseURL + " or --base-url"
	}
	return provider.TransportError(Name, p.baseURL, hint, err)
}

// apiError classifies an error the API returned, either as an HTTP status or
// as an error event inside a stream that had started (status 200).
func (p *Provider) apiError(apiErr *sdk.Error) *provider.Error {
	msg := apiErr.Message
	if msg == "" {
		msg = strings.TrimSpace(apiErr.RawJSON())
	}
	var header http.Header
	if apiErr.Response != nil {
		header = apiErr.Response.Header
	}
	status := apiErr.StatusCode
	var e *provider.Error
	if status >= 400 {
		e = provider.StatusError(Name, status, header, msg)
	} else {
		e = &provider.Error{Provider: Name, Kind: provider.ErrorStream, Message: msg}
	}
	// The error type in the body is more precise than the status, and it is
	// all there is for an error event inside a stream.
	switch string(apiErr.Type()) {
	case "overloaded_error":
		e.Kind, e.Retryable = provider.ErrorOverloaded, true
	case "rate_limit_error":
		e.Kind, e.Retryable = provider.ErrorRateLimit, true
	case "api_error", "timeout_error":
		e.Kind, e.Retryable = provider.ErrorServer, true
	case "authentication_error", "permission_error":
		e.Kind, e.Retryable = provider.ErrorAuth, false
	case "invalid_request_error", "not_found_error", "request_too_large":
		e.Kind, e.Retryable = provider.ErrorBadRequest, false
	}
	if string(apiErr.Type()) == "request_too_large" || (e.Kind == provider.ErrorBadRequest && provider.MentionsContextOverflow(msg)) {
		// Too long for the window (400) or for the API's request size
		// (413): either way a shorter conversation is the cure.
		e.Kind, e.Retryable = provider.ErrorPromptTooLong, false
	}
	if status < 400 {
		// A status of 200 describes the stream, not the error.
		e.Status = 0
	}
	switch {
	case e.Kind == provider.ErrorAuth:
		e.Hint = "set " + EnvAPIKey + " to a valid key"
	case e.Kind == provider.ErrorPromptTooLong:
		e.Hint = "compact the conversation (/compact) or start a new one"
	case string(apiErr.Type()) == "not_found_error" || status == http.StatusNotFound:
		e.Hint = "check the model name and " + EnvBaseURL
	}
	e.Err = apiErr
	return e
}
