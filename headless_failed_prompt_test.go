package main

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
)

// sseReplay is an Anthropic Messages endpoint on the loopback interface: it
// answers each request with the next recorded stream of the provider tests
// (agent/provider/anthropic/testdata) and keeps the requests.
type sseReplay struct {
	*httptest.Server
	mu     sync.Mutex
	files  []string
	bodies [][]byte
}

func newSSEReplay(t *testing.T, files ...string) *sseReplay {
	t.Helper()
	r := &sseReplay{files: files}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.bodies = append(r.bodies, body)
		if len(r.files) == 0 {
			r.mu.Unlock()
			t.Errorf("request %d has no recorded stream", len(r.bodies))
			http.Error(w, "no more streams", http.StatusTeapot)
			return
		}
		file := r.files[0]
		r.files = r.files[1:]
		r.mu.Unlock()
		data, err := os.ReadFile(filepath.Join("agent", "provider", "anthropic", "testdata", file))
		if err != nil {
			t.Error(err)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(data)
	}))
	t.Cleanup(r.Close)
	return r
}

// sentMessage is a message of a request as the model receives it.
type sentMessage struct {
	Role  string
	Texts []string
}

// messages returns the conversation request n (from 0) carried.
func (r *sseReplay) messages(t *testing.T, n int) []sentMessage {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if n >= len(r.bodies) {
		t.Fatalf("only %d requests, want request %d", len(r.bodies), n+1)
	}
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Type, Text string
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(r.bodies[n], &req); err != nil {
		t.Fatal(err)
	}
	var out []sentMessage
	for _, m := range req.Messages {
		sm := sentMessage{Role: m.Role}
		for _, c := range m.Content {
			if c.Type == "text" {
				sm.Texts = append(sm.Texts, c.Text)
			}
		}
		out = append(out, sm)
	}
	return out
}

// wellFormed fails the test when the conversation does not alternate
// between the person and the model, starting with the person.
func wellFormed(t *testing.T, msgs []sentMessage) {
	t.Helper()
	for i, m := range msgs {
		want := "user"
		if i%2 == 1 {
			want = "assistant"
		}
		if m.Role != want {
			t.Fatalf("message %d is the %s's, want the %s's: %+v", i+1, m.Role, want, msgs)
		}
	}
}

// After the first request fails (the stream broke, and broke again when
// the turn was tried once more), the next prompt joins the unanswered one:
// the model receives one message of the person's holding both, never two
// in a row, in the session that failed and in the ones that --continue or
// --resume it; a prompt sent again as it was is not repeated.
func TestFailedFirstPromptJoinsTheNext(t *testing.T) {
	c := newCLI(t)
	srv := newSSEReplay(t, "overloaded_midstream.sse", "overloaded_midstream.sse", "text.sse", "text.sse", "overloaded_midstream.sse", "overloaded_midstream.sse", "text.sse")
	model := []string{"--cwd", c.project, "--provider", "anthropic", "--base-url", srv.URL}
	code, out, errb := c.run("", append(model, "-p", "Fix the build")...)
	if code == exitOK || !strings.Contains(errb+out, "overloaded") {
		t.Fatalf("the broken stream did not fail the run: exit %d\n%s\n%s", code, out, errb)
	}
	code, out, errb = c.run("", append(model, "--continue", "-p", "Try again, please")...)
	if code != exitOK || !strings.Contains(out, "Hello from the replay server.") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	retry := srv.messages(t, 2)
	wellFormed(t, retry)
	if len(retry) != 1 || strings.Join(retry[0].Texts, "|") != "Fix the build|Try again, please" {
		t.Fatalf("the retry sent %+v, want one message with both prompts", retry)
	}
	id := onlySession(t, c.state)
	code, out, errb = c.run("", append(model, "--resume", id, "-p", "Thanks")...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	resumed := srv.messages(t, 3)
	wellFormed(t, resumed)
	if len(resumed) != 3 || strings.Join(resumed[0].Texts, "|") != "Fix the build|Try again, please" || resumed[2].Texts[0] != "Thanks" {
		t.Fatalf("the resumed session sent %+v", resumed)
	}
	// The same prompt sent again after a failure is sent once.
	code, _, _ = c.run("", append(model, "--continue", "-p", "Run the tests")...)
	if code == exitOK {
		t.Fatal("the broken stream did not fail the run")
	}
	code, out, errb = c.run("", append(model, "--continue", "-p", "Run the tests")...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	again := srv.messages(t, 6)
	wellFormed(t, again)
	if len(again) != 5 || strings.Join(again[4].Texts, "|") != "Run the tests" {
		t.Fatalf("the prompt sent again sent %+v, want it once at the end", again)
	}
}

// onlySession is the id of the one session in a state directory: --continue
// appends to the session it continues.
func onlySession(t *testing.T, state string) string {
	t.Helper()
	dirs, err := os.ReadDir(filepath.Join(state, "workbench", "sessions"))
	if err != nil || len(dirs) != 1 {
		t.Fatalf("want one session in %s: %v %v", state, dirs, err)
	}
	return dirs[0].Name()
}

// A stream cut off mid-reply and tried again prints, in stream-json, the
// reply of the attempt that finished: the broken attempt's words are not
// glued in front of it ("The build fails because the MakefileThe build
// fails because ..."), as the model never received them either.
func TestStreamJSONDropsTheTextOfABrokenAttempt(t *testing.T) {
	c := newCLI(t)
	srv := newSSEReplay(t, "cut_midreply.sse", "whole_reply.sse")
	code, out, errb := c.run("", "--cwd", c.project, "--provider", "anthropic", "--base-url", srv.URL,
		"--output-format", "stream-json", "-p", "Why does the build fail?")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	var texts []string
	for _, l := range parseStream(t, out) {
		if l.Type == "text" {
			texts = append(texts, l.Text)
		}
	}
	want := "The build fails because the Makefile names a missing target."
	if len(texts) != 1 || texts[0] != want {
		t.Fatalf("text lines %q, want only %q\n%s", texts, want, out)
	}
}
