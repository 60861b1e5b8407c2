package agent

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/seed92b641c3/workbench/agent/provider/openai"
)

// chatRequest is what the loopback server was sent, decoded.
type chatRequest struct {
	Raw      string
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []struct {
			ID string `json:"id"`
		} `json:"tool_calls"`
	} `json:"messages"`
	MaxTokens int `json:"max_tokens"`
}

// isSummary tells the compaction request from the conversation's own.
func (r chatRequest) isSummary() bool { return strings.Contains(r.Raw, "Write a summary of it now") }

// chatReply is how the loopback server answers one request: a text, tool
// calls, the prompt size it reports, or an HTTP error.
type chatReply struct {
	Text   string
	Calls  []chatCall
	Prompt int
	Status int
	Error  string
}

type chatCall struct{ ID, Name, Args string }

// chatServer is an OpenAI-compatible server on the loopback interface that
// streams the replies a test scripts, and keeps every request.
type chatServer struct {
	*httptest.Server
	mu    sync.Mutex
	reqs  []chatRequest
	reply func(n int, r chatRequest) chatReply
}

func newChatServer(t *testing.T, reply func(n int, r chatRequest) chatReply) *chatServer {
	t.Helper()
	s := &chatServer{reply: reply}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *chatServer) provider(t *testing.T) *openai.Provider {
	t.Helper()
	p, err := openai.New(openai.Options{APIKey: "sk-test", BaseURL: s.URL, Model: "loopback-model"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func (s *chatServer) requests() []chatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]chatRequest(nil), s.reqs...)
}

func (s *chatServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := chatRequest{Raw: string(body)}
	json.Unmarshal(body, &req)
	s.mu.Lock()
	n := len(s.reqs)
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	rep := s.reply(n, req)
	if rep.Status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.Status)
		fmt.Fprint(w, rep.Error)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta, finish string) {
		fin := "null"
		if finish != "" {
			fin = `"` + finish + `"`
		}
		fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"loopback-model\",\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%s}]}\n\n", delta, fin)
	}
	if rep.Text != "" {
		t, _ := json.Marshal(rep.Text)
		chunk(`{"role":"assistant","content":`+string(t)+`}`, "")
	}
	for i, c := range rep.Calls {
		args, _ := json.Marshal(c.Args)
		chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":%q,"type":"function","function":{"name":%q,"arguments":%s}}]}`, i, c.ID, c.Name, args), "")
	}
	finish := "stop"
	if len(rep.Calls) > 0 {
		finish = "tool_calls"
	}
	chunk(`{}`, finish)
	fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"loopback-model\",\"choices\":[],\"usage\":{\"prompt_tokens\":%d,\"completion_tokens\":10,\"total_tokens\":%d}}\n\n", rep.Prompt, rep.Prompt+10)
	fmt.Fprint(w, "data: [DONE]\n\n")
}
