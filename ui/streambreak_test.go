package ui

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/seed92b641c3/workbench/agent/provider/anthropic"
)

// heldStreams is an Anthropic endpoint on the loopback interface that
// answers request n with the recorded stream files[n]. A stream cut off
// mid-reply (no message_stop) is held open after its last event until the
// test releases it, so the test can see the partial reply on screen before
// the connection drops.
type heldStreams struct {
	mu      sync.Mutex
	files   []string
	release chan struct{}
}

func newHeldStreams(t *testing.T, files ...string) (*heldStreams, *anthropic.Provider) {
	t.Helper()
	h := &heldStreams{files: files, release: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		if len(h.files) == 0 {
			h.mu.Unlock()
			t.Error("a request with no recorded stream left")
			http.Error(w, "no more streams", http.StatusTeapot)
			return
		}
		file := h.files[0]
		h.files = h.files[1:]
		h.mu.Unlock()
		data, err := os.ReadFile(filepath.Join("..", "agent", "provider", "anthropic", "testdata", file))
		if err != nil {
			t.Error(err)
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(data)
		w.(http.Flusher).Flush()
		if !strings.Contains(string(data), "message_stop") {
			select {
			case <-h.release:
			case <-r.Context().Done():
			}
		}
	}))
	t.Cleanup(srv.Close)
	prov, err := anthropic.New(anthropic.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	return h, prov
}

// cut drops the connection of the stream being held.
func (h *heldStreams) cut() { h.release <- struct{}{} }

// TestAStreamCutOffMidReplyShowsItsTextOnce: the model's stream breaks in
// the middle of a sentence and the turn is tried again, and the new reply
// starts with the same words. The person saw the partial sentence as it
// streamed; after the retry the screen shows the notice and the whole
// reply, and the partial words are not left above it a second time.
func TestAStreamCutOffMidReplyShowsItsTextOnce(t *testing.T) {
	t.Parallel()
	h, prov := newHeldStreams(t, "cut_midreply.sse", "whole_reply.sse")
	a := newApp(t, "", 80, 24, appOptions{provider: prov})
	a.prompt("Why does the build fail?")
	a.shows("The build fails because the Makefile")
	h.cut()
	a.idle()
	s := a.screen(t)
	if n := strings.Count(s, "The build fails because"); n != 1 {
		t.Errorf("the reply's first words are on screen %d times, want once:\n%s", n, s)
	}
	if !strings.Contains(s, "names a missing target.") || !strings.Contains(s, "trying the turn again") || strings.Contains(s, "✗") {
		t.Errorf("the screen does not show the retry notice and the whole reply, with no error:\n%s", s)
	}
	a.snap(t, "after the retry")
}

// TestAStreamCutOffTwiceShowsTheLastPartOnce: both attempts break; the
// screen keeps what the last one said (the person may want it) once,
// under the notice, and then the error.
func TestAStreamCutOffTwiceShowsTheLastPartOnce(t *testing.T) {
	t.Parallel()
	h, prov := newHeldStreams(t, "cut_midreply.sse", "cut_midreply.sse")
	a := newApp(t, "", 80, 24, appOptions{provider: prov})
	a.prompt("Why does the build fail?")
	a.shows("The build fails because the Makefile")
	h.cut()
	a.shows("trying the turn again")
	h.cut()
	a.idle()
	s := a.screen(t)
	if n := strings.Count(s, "The build fails because"); n != 1 {
		t.Errorf("the partial reply is on screen %d times, want once:\n%s", n, s)
	}
	if !strings.Contains(s, "✗ The model call failed") {
		t.Errorf("the screen does not show the error:\n%s", s)
	}
}
