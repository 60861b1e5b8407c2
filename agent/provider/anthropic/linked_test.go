package anthropic

import (
	"context"
	"os"
	"testing"

	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/agent/provider/internal/linked"
	"github.com/seed92b641c3/workbench/agent/provider/internal/replay"
)

// TestOnlyTheMessagesServiceIsLinked: the provider makes the SDK's Messages
// service alone, not a client with every service of the API, so the
// binary carries none of the others' code (the Beta and Models services
// here stand for them).
func TestOnlyTheMessagesServiceIsLinked(t *testing.T) {
	p := newProvider(t, "http://127.0.0.1:1")
	linked.OnlyUsed(t, p, os.Getenv("WORKBENCH_NO_SUCH_METHOD"),
		"github.com/anthropics/anthropic-sdk-go/v2.(*MessageService).NewStreaming",
		"github.com/anthropics/anthropic-sdk-go/v2.(*BetaService).",
		"github.com/anthropics/anthropic-sdk-go/v2.(*ModelService).",
		"github.com/anthropics/anthropic-sdk-go/v2.NewClient",
	)
}

// TestTheSDKsEnvironmentStaysOut: made without a client, the service
// still ignores the SDK's environment (key, base URL, custom headers) and
// sends what the provider was given.
func TestTheSDKsEnvironmentStaysOut(t *testing.T) {
	srv := replay.New(t, replay.Response{File: "testdata/text.sse"})
	t.Setenv(EnvAPIKey, "env-key")
	t.Setenv(EnvBaseURL, replay.ClosedURL(t))
	t.Setenv("ANTHROPIC_CUSTOM_HEADERS", "X-From-Env: 1")
	s, err := newProvider(t, srv.URL).Stream(context.Background(), provider.Request{Messages: []provider.Message{userText("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.Collect(s); err != nil {
		t.Fatal(err)
	}
	req := srv.Requests()[0]
	if got := req.Header.Get("Authorization"); got != "Bearer sk-test" {
		t.Errorf("Authorization = %q, want the provider's own key", got)
	}
	if got := req.Header.Get("X-From-Env"); got != "" {
		t.Errorf("the environment's custom header was sent: %q", got)
	}
	if got := req.Header.Get("Anthropic-Version"); got == "" {
		t.Error("no Anthropic-Version header: the service lacks the client's defaults")
	}
}
