package openai

import (
	"context"
	"os"
	"testing"

	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/agent/provider/internal/linked"
	"github.com/seed92b641c3/workbench/agent/provider/internal/replay"
)

// TestOnlyTheChatCompletionsServiceIsLinked: the provider makes the SDK's
// chat completions service alone, not a client with every service of the
// API, so the binary carries none of the others' code (the Beta, Videos
// and Realtime services here stand for them).
func TestOnlyTheChatCompletionsServiceIsLinked(t *testing.T) {
	p, err := New(Options{APIKey: "sk-test", BaseURL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	linked.OnlyUsed(t, p, os.Getenv("WORKBENCH_NO_SUCH_METHOD"),
		"github.com/openai/openai-go/v3.(*ChatCompletionService).NewStreaming",
		"github.com/openai/openai-go/v3.(*BetaService).",
		"github.com/openai/openai-go/v3.(*VideoService).",
		"github.com/openai/openai-go/v3/realtime.(*RealtimeService).",
		"github.com/openai/openai-go/v3.NewClient",
	)
}

// TestTheSDKsEnvironmentDefaultsStillApply: made without a client, the
// service still gets the options a client would give it: the SDK's own
// environment defaults (here the organization) first, then ours, which win
// (the key and the base URL given here, not the environment's).
func TestTheSDKsEnvironmentDefaultsStillApply(t *testing.T) {
	srv := replay.New(t, replay.Response{File: "testdata/text.sse"})
	t.Setenv("OPENAI_ORG_ID", "org-from-env")
	t.Setenv(EnvAPIKey, "env-key")
	t.Setenv(EnvBaseURL, replay.ClosedURL(t))
	s, err := newProvider(t, srv.URL).Stream(context.Background(), hi)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.Collect(s); err != nil {
		t.Fatal(err)
	}
	req := srv.Requests()[0]
	if got := req.Header.Get("OpenAI-Organization"); got != "org-from-env" {
		t.Errorf("OpenAI-Organization = %q, want the environment's org-from-env", got)
	}
	if got := req.Header.Get("Authorization"); got != "Bearer sk-test" {
		t.Errorf("Authorization = %q, want the provider's own key", got)
	}
}
