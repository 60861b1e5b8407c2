package ui

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/seed92b641c3/workbench/agent/provider/anthropic"
)

// TestRetryAfterAFailedFirstPrompt: the first request breaks (a recorded
// overloaded stream, twice, as the turn is tried once more); the person
// sees the error and sends the prompt again. The screen shows the prompt,
// the error, the prompt again and the answer; the model receives the
// prompt once, in one message of the person's, not two in a row.
func TestRetryAfterAFailedFirstPrompt(t *testing.T) {
	t.Parallel()
	streams := []string{"overloaded_midstream.sse", "overloaded_midstream.sse", "text.sse"}
	var mu sync.Mutex
	var bodies [][]byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, body)
		file := streams[min(len(bodies), len(streams))-1]
		mu.Unlock()
		data, err := os.ReadFile(filepath.Join("..", "agent", "provider", "anthropic", "testdata", file))
		if err != nil {
			t.Error(err)
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	prov, err := anthropic.New(anthropic.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	a := newApp(t, "", 80, 24, appOptions{provider: prov})
	a.prompt("Fix the build")
	a.idle()
	a.shows("overloaded")
	a.prompt("Fix the build")
	a.idle()
	a.snap(t, "after the retry")
	mu.Lock()
	defer mu.Unlock()
	if len(bodies) != 3 {
		t.Fatalf("%d requests, want the two that broke and the retry", len(bodies))
	}
	var req struct {
		Messages []struct {
			Role    string                  `json:"role"`
			Content []struct{ Text string } `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(bodies[2], &req); err != nil {
		t.Fatal(err)
	}
	if len(req.Messages) != 1 || req.Messages[0].Role != "user" || len(req.Messages[0].Content) != 1 ||
		req.Messages[0].Content[0].Text != "Fix the build" {
		t.Fatalf("the retry sent %s, want the prompt once", bodies[2])
	}
	if s := a.screen(t); strings.Count(s, "› Fix the build") != 2 || !strings.Contains(s, "Hello from the replay server.") {
		t.Errorf("the screen does not show both prompts and the answer:\n%s", s)
	}
}
