package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// loopbackChat is an OpenAI-compatible server on the loopback interface:
// it answers a summary request with a summary and every other request with
// the next of its replies, reporting the prompt size given with it.
type loopbackChat struct {
	*httptest.Server
	mu      sync.Mutex
	bodies  []string
	replies []loopbackReply
}

type loopbackReply struct {
	text, call string // call: a tool call's name, with {} as input
	prompt     int
}

func newLoopbackChat(t *testing.T, replies ...loopbackReply) *loopbackChat {
	l := &loopbackChat{replies: replies}
	l.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		l.mu.Lock()
		l.bodies = append(l.bodies, string(b))
		rep := loopbackReply{text: "SUMMARY that keeps the API names", prompt: 500}
		if !strings.Contains(string(b), "Write a summary of it now") {
			rep, l.replies = l.replies[0], l.replies[1:]
		}
		l.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		delta, finish := fmt.Sprintf(`{"role":"assistant","content":%q}`, rep.text), "stop"
		if rep.call != "" {
			delta, finish = fmt.Sprintf(`{"tool_calls":[{"index":0,"id":"call_%d","type":"function","function":{"name":%q,"arguments":"{\"pattern\":\"*.md\"}"}}]}`, len(l.bodies), rep.call), "tool_calls"
		}
		fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":null}]}\n\n", delta)
		fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":%q}]}\n\n", finish)
		fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[],\"usage\":{\"prompt_tokens\":%d,\"completion_tokens\":5,\"total_tokens\":%d}}\n\ndata: [DONE]\n\n", rep.prompt, rep.prompt+5)
	}))
	t.Cleanup(l.Close)
	return l
}

func (l *loopbackChat) requests() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.bodies...)
}

// A headless run compacts by itself when the window fills (--context-window
// for a model Workbench does not know), `-p "/compact ..." --continue`
// compacts with instructions, and the next --continue sends the summary in
// place of the old history.
func TestHeadlessCompaction(t *testing.T) {
	c := newCLI(t)
	c.write("notes.md", "# notes\n")
	hookLog := filepath.Join(t.TempDir(), "hooks.log")
	c.write(".workbench/settings.json", `{"autoCompactPercent":50,"hooks":{"PreCompact":[{"hooks":[{"type":"command","command":"{ cat; echo; } >> `+hookLog+`"}]}]}}`)
	srv := newLoopbackChat(t,
		loopbackReply{call: "Glob", prompt: 60000},
		loopbackReply{text: "first done", prompt: 1000},
		loopbackReply{text: "second done", prompt: 1000},
		loopbackReply{text: "third done", prompt: 1000},
	)
	model := []string{"--cwd", c.project, "--provider", "openai", "--base-url", srv.URL, "--model", "loopback-model", "--context-window", "100000"}
	big := "first: " + strings.Repeat("the words of a long first prompt ", 100)
	code, out, errb := c.run("", append(model, "-p", big)...)
	if code != exitOK || !strings.Contains(out, "first done") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	reqs := srv.requests()
	if len(reqs) != 3 || !strings.Contains(reqs[1], "Write a summary of it now") || !strings.Contains(reqs[2], "SUMMARY that keeps") {
		t.Fatalf("want a turn, the summary request, then the compacted turn; got %d requests", len(reqs))
	}

	code, out, errb = c.run("", append(model, "--continue", "-p", "second")...)
	if code != exitOK || !strings.Contains(out, "second done") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	code, out, errb = c.run("", append(model, "--continue", "-p", "/compact keep the API names")...)
	if code != exitOK || !strings.Contains(out, "Compacted (manual)") {
		t.Fatalf("/compact: exit %d\n%s\n%s", code, out, errb)
	}
	reqs = srv.requests()
	if sum := reqs[len(reqs)-1]; !strings.Contains(sum, "keep the API names") || !strings.Contains(sum, "Write a summary of it now") {
		t.Errorf("the /compact request does not carry the instructions: %s", sum)
	}
	code, out, errb = c.run("", append(model, "--continue", "-p", "third")...)
	if code != exitOK || !strings.Contains(out, "third done") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	reqs = srv.requests()
	if third := reqs[len(reqs)-1]; strings.Contains(third, "long first prompt") || !strings.Contains(third, "SUMMARY that keeps") {
		t.Errorf("the resumed session did not send the compacted history: %s", third)
	}

	data, _ := os.ReadFile(hookLog)
	var triggers []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var in struct {
			Trigger      string `json:"trigger"`
			Instructions string `json:"custom_instructions"`
		}
		json.Unmarshal([]byte(line), &in)
		triggers = append(triggers, in.Trigger+":"+in.Instructions)
	}
	if strings.Join(triggers, ",") != "auto:,manual:keep the API names" {
		t.Errorf("PreCompact hooks saw %v", triggers)
	}
	transcript := readFile(t, c.transcripts()[0])
	if n := strings.Count(transcript, `"type":"compact"`); n != 2 {
		t.Errorf("the transcript records %d compactions, want 2", n)
	}
	if !strings.Contains(transcript, "long first prompt") {
		t.Error("the transcript lost the history that was compacted")
	}
}

// Bad values of the window and the threshold are errors that say where.
func TestCompactionSettingsAreChecked(t *testing.T) {
	c := newCLI(t)
	code, _, errb := c.run("", "--cwd", c.project, "--context-window", "-5", "-p", "hi")
	if code != exitUsage || !strings.Contains(errb, "--context-window -5") {
		t.Errorf("exit %d: %s", code, errb)
	}
	c.write(".workbench/settings.json", "{\n  \"autoCompactPercent\": 120\n}")
	code, _, errb = c.run("", "--cwd", c.project, "-p", "hi")
	if code != exitUsage || !strings.Contains(errb, "settings.json:2:") || !strings.Contains(errb, "autoCompactPercent") {
		t.Errorf("exit %d: %s", code, errb)
	}
}
