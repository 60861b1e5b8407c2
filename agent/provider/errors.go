package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ErrorKind sorts provider failures by what the person or the loop should do
// about them.
type ErrorKind string

const (
	ErrorAuth       ErrorKind = "auth"        // missing or rejected key: fix the key
	ErrorRateLimit  ErrorKind = "rate_limit"  // 429: wait and retry
	ErrorOverloaded ErrorKind = "overloaded"  // the service is busy: wait and retry
	ErrorServer     ErrorKind = "server"      // 5xx: retry
	ErrorNetwork    ErrorKind = "network"     // the server could not be reached
	ErrorBadRequest ErrorKind = "bad_request" // the request was refused as it is
	// ErrorPromptTooLong: the conversation no longer fits the model's
	// context window; the loop compacts it and tries once more.
	ErrorPromptTooLong ErrorKind = "prompt_too_long"
	ErrorStream        ErrorKind = "stream" // the stream broke or made no sense
)

// Error is the error every provider returns for a failed call. Its message is
// one line that names the provider, what happened, and what to do.
type Error struct {
	Provider string
	Kind     ErrorKind
	// Status is the HTTP status, or zero when none applies (a network error,
	// an error event inside a stream).
	Status  int
	Message string
	// Hint says what to do, e.g. "set ANTHROPIC_API_KEY".
	Hint      string
	Retryable bool
	// RetryAfter is the wait the server asked for; zero when it did not ask
	// (or asked for none).
	RetryAfter time.Duration
	// Err is the underlying error, if any.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Provider)
	b.WriteString(": ")
	b.WriteString(e.Kind.describe())
	if e.Status != 0 {
		fmt.Fprintf(&b, " (HTTP %d)", e.Status)
	}
	if msg := oneLine(e.Message); msg != "" {
		b.WriteString(": ")
		b.WriteString(msg)
	}
	if e.Hint != "" {
		b.WriteString("; ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

func (k ErrorKind) describe() string {
	switch k {
	case ErrorAuth:
		return "authentication failed"
	case ErrorRateLimit:
		return "rate limited"
	case ErrorOverloaded:
		return "overloaded"
	case ErrorServer:
		return "server error"
	case ErrorNetwork:
		return "cannot reach the server"
	case ErrorBadRequest:
		return "request rejected"
	case ErrorPromptTooLong:
		return "the prompt is too long for the model's context window"
	case ErrorStream:
		return "stream failed"
	}
	return string(k)
}

// oneLine folds whitespace runs so a server's multi-line message cannot break
// a status line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// StatusError builds the Error for an HTTP error status. Providers call it
// with the status and message the server sent, then add their own hint.
func StatusError(provider string, status int, header http.Header, message string) *Error {
	e := &Error{Provider: provider, Status: status, Message: message}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.Kind = ErrorAuth
	case status == http.StatusTooManyRequests:
		e.Kind, e.Retryable = ErrorRateLimit, true
	case status == statusOverloaded:
		e.Kind, e.Retryable = ErrorOverloaded, true
	case status == http.StatusRequestTimeout || status >= 500:
		e.Kind, e.Retryable = ErrorServer, true
	default:
		e.Kind = ErrorBadRequest
	}
	e.RetryAfter, _ = RetryAfter(header)
	return e
}

// statusOverloaded is the status Anthropic uses when the API is overloaded.
const statusOverloaded = 529

// RetryAfter reads how long the server asked the client to wait: the
// retry-after-ms header (used by Anthropic and OpenAI), or retry-after in
// seconds or as an HTTP date.
func RetryAfter(h http.Header) (time.Duration, bool) {
	if h == nil {
		return 0, false
	}
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0), true
	}
	return 0, false
}

// TransportError classifies an error that did not come from the API itself:
// a server that could not be reached or a connection that broke (kind
// network, named by baseURL, with networkHint), or an event that is not valid
// JSON (kind stream).
func TransportError(provider, baseURL, networkHint string, err error) *Error {
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &syntaxErr) || errors.As(err, &typeErr) {
		return &Error{Provider: provider, Kind: ErrorStream,
			Message: "malformed event from the server: " + err.Error(), Err: err}
	}
	var urlErr *url.Error
	var netErr net.Error
	if errors.As(err, &urlErr) || errors.As(err, &netErr) {
		cause := err
		if urlErr != nil {
			cause = urlErr.Err
		}
		return &Error{Provider: provider, Kind: ErrorNetwork,
			Message: baseURL + ": " + cause.Error(), Hint: networkHint, Err: err}
	}
	return &Error{Provider: provider, Kind: ErrorStream, Message: err.Error(), Err: err}
}

// IsPromptTooLong reports whether err says the request did not fit the
// model's context window, whichever provider said so.
func IsPromptTooLong(err error) bool {
	var pe *Error
	return errors.As(err, &pe) && pe.Kind == ErrorPromptTooLong
}

// contextOverflowPhrases are how servers word a prompt that does not fit:
// Anthropic ("prompt is too long: 201000 tokens > 200000 maximum", "input
// length and `max_tokens` exceed context limit"), OpenAI and the servers that
// copy it, vLLM, DeepSeek, OpenRouter ("maximum context length is ..."),
// llama.cpp ("exceeds the available context size"). A server sends no code
// for this that every implementation shares, so its words are all there is.
var contextOverflowPhrases = []string{
	"prompt is too long",
	"exceed context limit",
	"maximum context length",
	"context_length_exceeded",
	"exceeds the available context size",
	"exceed_context_size",
	"exceeds the context window",
	"input exceeds the context window",
}

// MentionsContextOverflow reports whether a server's error message says the
// prompt did not fit the model's context window. Providers call it on the
// message of a rejected request (HTTP 400 or 413) to tell that case from
// other bad requests.
func MentionsContextOverflow(message string) bool {
	m := strings.ToLower(message)
	for _, p := range contextOverflowPhrases {
		if strings.Contains(m, p) {
			return true
		}
	}
	return false
}
