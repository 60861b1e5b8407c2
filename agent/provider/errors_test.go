package provider

import (
	"errors"
	"io"
	"net/http"
	"testing"
	"time"
)

func TestStatusErrorKinds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status    int
		kind      ErrorKind
		retryable bool
	}{
		{400, ErrorBadRequest, false},
		{401, ErrorAuth, false},
		{403, ErrorAuth, false},
		{404, ErrorBadRequest, false},
		{408, ErrorServer, true},
		{429, ErrorRateLimit, true},
		{500, ErrorServer, true},
		{503, ErrorServer, true},
		{529, ErrorOverloaded, true},
	} {
		e := StatusError("p", tc.status, http.Header{"Retry-After": {"7"}}, "m")
		if e.Kind != tc.kind || e.Retryable != tc.retryable || e.Status != tc.status || e.RetryAfter != 7*time.Second {
			t.Errorf("status %d: %+v, want kind %s retryable %v", tc.status, e, tc.kind, tc.retryable)
		}
	}
}

func TestErrorIsOneLineNamingProviderAndHint(t *testing.T) {
	t.Parallel()
	e := &Error{Provider: "anthropic", Kind: ErrorAuth, Status: 401, Message: "invalid\n  key", Hint: "set ANTHROPIC_API_KEY", Err: io.EOF}
	if got, want := e.Error(), "anthropic: authentication failed (HTTP 401): invalid key; set ANTHROPIC_API_KEY"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(e, io.EOF) {
		t.Error("the cause does not unwrap")
	}
}
