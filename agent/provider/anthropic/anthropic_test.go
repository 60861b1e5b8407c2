package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/agent/provider/internal/replay"
)

// fastRetry keeps the retry tests quick; Retry-After: 0 means "no wait asked".
var fastRetry = provider.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 10 * time.Millisecond}

func newProvider(t *testing.T, baseURL string) *Provider {
	t.Helper()
	p, err := New(Options{APIKey: "sk-test", BaseURL: baseURL})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func userText(s string) provider.Message {
	return provider.Message{Role: provider.RoleUser, Blocks: []provider.Block{provider.TextBlock(s)}}
}

// events reads the whole stream and returns its events and error.
func events(t *testing.T, s provider.Stream) ([]provider.Event, error) {
	t.Helper()
	defer s.Close()
	var evs []provider.Event
	for s.Next() {
		evs = append(evs, s.Event())
	}
	return evs, s.Err()
}

func body(t *testing.T, r replay.Request) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, r.Body)
	}
	return m
}

func asError(t *testing.T, err error) *provider.Error {
	t.Helper()
	var pe *provider.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *provider.Error", err, err)
	}
	return pe
}

func TestTextStreamArrivesAsDeltasThenUsageThenStop(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{File: "testdata/text.sse"})
	p := newProvider(t, srv.URL)
	s, err := p.Stream(context.Background(), provider.Request{System: "Be brief.", Messages: []provider.Message{userText("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := events(t, s)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	var text strings.Builder
	for _, ev := range evs {
		kinds = append(kinds, string(ev.Kind))
		text.WriteString(ev.Text)
	}
	want := "text_delta text_delta text_delta usage message_stop"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("kinds = %s, want %s", got, want)
	}
	if text.String() != "Hello from the replay server." {
		t.Errorf("text = %q", text.String())
	}
	last := evs[len(evs)-1]
	if last.StopReason != provider.StopEndTurn {
		t.Errorf("stop reason = %q", last.StopReason)
	}
	wantUsage := provider.Usage{InputTokens: 412, OutputTokens: 9, CacheRead: 2048, CacheWrite: 1024}
	if u := evs[len(evs)-2].Usage; u != wantUsage {
		t.Errorf("usage = %+v, want %+v", u, wantUsage)
	}

	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Path != "/v1/messages" {
		t.Fatalf("requests = %+v", reqs)
	}
	b := body(t, reqs[0])
	if b["model"] != DefaultModel || b["stream"] != true || b["max_tokens"] != float64(DefaultMaxTokens) {
		t.Errorf("model/stream/max_tokens = %v %v %v", b["model"], b["stream"], b["max_tokens"])
	}
	sys, _ := json.Marshal(b["system"])
	if !strings.Contains(string(sys), `"text":"Be brief."`) || !strings.Contains(string(sys), `"cache_control":{"type":"ephemeral"}`) {
		t.Errorf("system = %s", sys)
	}
	if got := reqs[0].Header.Get("Authorization"); !strings.Contains(got, "sk-test") {
		t.Errorf("authorization header = %q, want the key", got)
	}
}

func TestParallelToolCallsAreReassembledFromManyDeltas(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{File: "testdata/tools.sse"})
	p := newProvider(t, srv.URL)
	s, err := p.Stream(context.Background(), provider.Request{Messages: []provider.Message{userText("look")}})
	if err != nil {
		t.Fatal(err)
	}
	var b provider.Builder
	deltas := map[string]int{}
	var starts []string
	for s.Next() {
		ev := s.Event()
		b.Add(ev)
		switch ev.Kind {
		case provider.EventToolUseStart:
			starts = append(starts, ev.ToolName)
		case provider.EventToolUseDelta:
			deltas[ev.ToolUseID]++
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if strings.Join(starts, ",") != "Read,Glob,TodoRead" {
		t.Errorf("tool starts = %v", starts)
	}
	if deltas["toolu_01ReadGoMod"] != 5 || deltas["toolu_01GlobGo"] != 3 {
		t.Errorf("input deltas per call = %v", deltas)
	}
	r := b.Response()
	if r.StopReason != provider.StopToolUse {
		t.Errorf("stop reason = %q", r.StopReason)
	}
	uses := r.Message.ToolUses()
	if len(uses) != 3 {
		t.Fatalf("tool uses = %+v", uses)
	}
	for i, want := range []struct{ id, name, input string }{
		{"toolu_01ReadGoMod", "Read", `{"file_path": "go.mod", "limit": 20}`},
		{"toolu_01GlobGo", "Glob", `{"pattern": "**/*.go"}`},
		{"toolu_01NoInput", "TodoRead", `{}`},
	} {
		u := uses[i]
		if u.ToolUseID != want.id || u.ToolName != want.name || string(u.Input) != want.input {
			t.Errorf("tool use %d = %s %s %s, want %s %s %s", i, u.ToolUseID, u.ToolName, u.Input, want.id, want.name, want.input)
		}
	}
	if r.Message.Blocks[0].Text != "Let me look at both." {
		t.Errorf("first block = %+v", r.Message.Blocks[0])
	}
}

func TestThinkingKeepsItsSignature(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{File: "testdata/thinking.sse"})
	p := newProvider(t, srv.URL)
	s, err := p.Stream(context.Background(), provider.Request{Messages: []provider.Message{userText("2+2")}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := provider.Collect(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Message.Blocks) != 2 {
		t.Fatalf("blocks = %+v", r.Message.Blocks)
	}
	th := r.Message.Blocks[0]
	if th.Type != provider.BlockThinking || th.Thinking != "The user wants a number. Four it is." || th.Signature != "EqQBCkYIARgCIkBsig==" {
		t.Errorf("thinking block = %+v", th)
	}
	if r.StopReason != provider.StopMaxTokens {
		t.Errorf("stop reason = %q", r.StopReason)
	}
}

func TestRequestCarriesToolsHistoryAndToolResults(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{File: "testdata/text.sse"})
	p, err := New(Options{APIKey: "k", BaseURL: srv.URL, Model: "claude-test", MaxTokens: 1000})
	if err != nil {
		t.Fatal(err)
	}
	req := provider.Request{
		MaxTokens: 2000,
		Tools: []provider.ToolDef{
			{Name: "Read", Description: "Read a file.", Schema: json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string"}},"required":["file_path"],"additionalProperties":false}`)},
			{Name: "TodoRead", Description: "List todos."},
		},
		Messages: []provider.Message{
			userText("read go.mod"),
			{Role: provider.RoleAssistant, Blocks: []provider.Block{
				{Type: provider.BlockThinking, Thinking: "need the file", Signature: "sig=="},
				provider.TextBlock("Reading."),
				provider.TextBlock(""),
				provider.ToolUseBlock("toolu_1", "Read", json.RawMessage(`{"file_path":"go.mod"}`)),
				provider.ToolUseBlock("toolu_2", "TodoRead", nil),
			}},
			{Role: provider.RoleUser, Blocks: []provider.Block{
				provider.ToolResultBlock("toolu_1", "module x", false),
				provider.ToolResultBlock("toolu_2", "", true),
			}},
		},
	}
	s, err := p.Stream(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.Collect(s); err != nil {
		t.Fatal(err)
	}
	b := body(t, srv.Requests()[0])
	if b["model"] != "claude-test" || b["max_tokens"] != float64(2000) {
		t.Errorf("model, max_tokens = %v, %v", b["model"], b["max_tokens"])
	}
	if _, ok := b["system"]; ok {
		t.Errorf("system sent although empty: %v", b["system"])
	}
	got, _ := json.Marshal(map[string]any{"tools": b["tools"], "messages": b["messages"]})
	want := `{"messages":[` +
		`{"content":[{"text":"read go.mod","type":"text"}],"role":"user"},` +
		`{"content":[{"signature":"sig==","thinking":"need the file","type":"thinking"},` +
		`{"text":"Reading.","type":"text"},` +
		`{"id":"toolu_1","input":{"file_path":"go.mod"},"name":"Read","type":"tool_use"},` +
		`{"id":"toolu_2","input":{},"name":"TodoRead","type":"tool_use"}],"role":"assistant"},` +
		`{"content":[{"content":[{"text":"module x","type":"text"}],"tool_use_id":"toolu_1","type":"tool_result"},` +
		`{"cache_control":{"type":"ephemeral"},"is_error":true,"tool_use_id":"toolu_2","type":"tool_result"}],"role":"user"}],` +
		`"tools":[{"description":"Read a file.","input_schema":{"additionalProperties":false,"properties":{"file_path":{"type":"string"}},"required":["file_path"],"type":"object"},"name":"Read"},` +
		`{"cache_control":{"type":"ephemeral"},"description":"List todos.","input_schema":{"properties":{},"type":"object"},"name":"TodoRead"}]}`
	if string(got) != want {
		t.Errorf("request\n got %s\nwant %s", got, want)
	}
}

func TestRateLimitIsRetriedThenSucceeds(t *testing.T) {
	t.Parallel()
	srv := replay.New(t,
		replay.Response{Status: 429, Header: map[string]string{"retry-after": "0"}, File: "testdata/rate_limit.json"},
		replay.Response{File: "testdata/text.sse"},
	)
	var retries []error
	policy := fastRetry
	policy.OnRetry = func(attempt int, wait time.Duration, err error) { retries = append(retries, err) }
	p := provider.WithRetry(newProvider(t, srv.URL), policy)
	s, err := p.Stream(context.Background(), provider.Request{Messages: []provider.Message{userText("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := provider.Collect(s)
	if err != nil {
		t.Fatal(err)
	}
	if r.Message.Blocks[0].Text != "Hello from the replay server." {
		t.Errorf("message = %+v", r.Message)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("requests = %d, want 2", n)
	}
	if len(retries) != 1 || asError(t, retries[0]).Kind != provider.ErrorRateLimit {
		t.Errorf("retries = %v", retries)
	}
}

func TestRateLimitGivesUpAfterMaxAttempts(t *testing.T) {
	t.Parallel()
	rl := replay.Response{Status: 429, File: "testdata/rate_limit.json"}
	srv := replay.New(t, rl, rl)
	policy := fastRetry
	policy.MaxAttempts = 2
	p := provider.WithRetry(newProvider(t, srv.URL), policy)
	_, err := p.Stream(context.Background(), provider.Request{Messages: []provider.Message{userText("hi")}})
	pe := asError(t, err)
	if pe.Kind != provider.ErrorRateLimit || pe.Status != 429 || !pe.Retryable {
		t.Errorf("error = %+v", pe)
	}
	if !strings.Contains(pe.Error(), "anthropic: rate limited (HTTP 429): This request would exceed") {
		t.Errorf("message = %q", pe.Error())
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("requests = %d, want 2", n)
	}
}

func TestOverloadedStatusIsRetried(t *testing.T) {
	t.Parallel()
	srv := replay.New(t,
		replay.Response{Status: 529, File: "testdata/overloaded.json"},
		replay.Response{File: "testdata/text.sse"},
	)
	p := provider.WithRetry(newProvider(t, srv.URL), fastRetry)
	s, err := p.Stream(context.Background(), provider.Request{Messages: []provider.Message{userText("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.Collect(s); err != nil {
		t.Fatal(err)
	}
}

func TestOverloadedBeforeAnyEventIsRetried(t *testing.T) {
	t.Parallel()
	srv := replay.New(t,
		replay.Response{File: "testdata/overloaded_first.sse"},
		replay.Response{File: "testdata/text.sse"},
	)
	p := provider.WithRetry(newProvider(t, srv.URL), fastRetry)
	s, err := p.Stream(context.Background(), provider.Request{Messages: []provider.Message{userText("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := provider.Collect(s)
	if err != nil {
		t.Fatal(err)
	}
	if r.Message.Blocks[0].Text != "Hello from the replay server." {
		t.Errorf("message = %+v", r.Message)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("requests = %d, want 2", n)
	}
}

func TestOverloadedMidStreamDeliversEarlierEventsThenFails(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{File: "testdata/overloaded_midstream.sse"})
	p := provider.WithRetry(newProvider(t, srv.URL), fastRetry)
	s, err := p.Stream(context.Background(), provider.Request{Messages: []provider.Message{userText("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := provider.Collect(s)
	pe := asError(t, err)
	if pe.Kind != provider.ErrorOverloaded || !pe.Retryable || pe.Status != 0 {
		t.Errorf("error = %+v", pe)
	}
	if got := pe.Error(); got != "anthropic: overloaded: Overloaded" {
		t.Errorf("message = %q", got)
	}
	if len(r.Message.Blocks) != 1 || r.Message.Blocks[0].Text != "I will start by reading" {
		t.Errorf("partial message = %+v", r.Message)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("requests = %d: a stream that delivered events must not be restarted", n)
	}
}

func TestMalformedEventIsAStreamError(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{File: "testdata/malformed.sse"})
	p := newProvider(t, srv.URL)
	s, err := p.Stream(context.Background(), provider.Request{Messages: []provider.Message{userText("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := provider.Collect(s)
	pe := asError(t, err)
	if pe.Kind != provider.ErrorStream || pe.Retryable {
		t.Errorf("error = %+v", pe)
	}
	if !strings.HasPrefix(pe.Error(), "anthropic: stream failed: malformed event from the server") {
		t.Errorf("message = %q", pe.Error())
	}
	if r.Message.Blocks[0].Text != "Partial" {
		t.Errorf("partial message = %+v", r.Message)
	}
}

func TestStreamThatEndsEarlyIsAnError(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{File: "testdata/truncated.sse"})
	p := newProvider(t, srv.URL)
	s, err := p.Stream(context.Background(), provider.Request{Messages: []provider.Message{userText("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = provider.Collect(s)
	if pe := asError(t, err); pe.Kind != provider.ErrorStream {
		t.Errorf("error = %+v", pe)
	}
}

func TestBadKeyNamesTheVariableAndIsNotRetried(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{Status: 401, File: "testdata/auth.json"})
	p := provider.WithRetry(newProvider(t, srv.URL), fastRetry)
	_, err := p.Stream(context.Background(), provider.Request{Messages: []provider.Message{userText("hi")}})
	pe := asError(t, err)
	if pe.Kind != provider.ErrorAuth || pe.Status != 401 || pe.Retryable {
		t.Errorf("error = %+v", pe)
	}
	if want := "anthropic: authentication failed (HTTP 401): invalid x-api-key; set ANTHROPIC_API_KEY to a valid key"; pe.Error() != want {
		t.Errorf("message = %q, want %q", pe.Error(), want)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

func TestUnknownModelIsABadRequestWithAHint(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{Status: 404, File: "testdata/not_found.json"})
	p := newProvider(t, srv.URL)
	_, err := p.Stream(context.Background(), provider.Request{Model: "claude-nonexistent", Messages: []provider.Message{userText("hi")}})
	pe := asError(t, err)
	if pe.Kind != provider.ErrorBadRequest || !strings.Contains(pe.Hint, "model") {
		t.Errorf("error = %+v", pe)
	}
}

func TestUnreachableServerNamesTheBaseURL(t *testing.T) {
	t.Parallel()
	url := replay.ClosedURL(t)
	p := provider.WithRetry(newProvider(t, url), fastRetry)
	_, err := p.Stream(context.Background(), provider.Request{Messages: []provider.Message{userText("hi")}})
	pe := asError(t, err)
	if pe.Kind != provider.ErrorNetwork {
		t.Fatalf("error = %+v", pe)
	}
	msg := pe.Error()
	if !strings.HasPrefix(msg, "anthropic: cannot reach the server: "+url) || !strings.Contains(msg, "ANTHROPIC_BASE_URL") {
		t.Errorf("message = %q", msg)
	}
}

func TestNoKeyAndNoBaseURLIsAnAuthError(t *testing.T) {
	t.Parallel()
	_, err := New(Options{})
	pe := asError(t, err)
	if pe.Kind != provider.ErrorAuth || pe.Error() != "anthropic: authentication failed: no API key; set ANTHROPIC_API_KEY" {
		t.Errorf("error = %q (%+v)", pe.Error(), pe)
	}
}

func TestBadBaseURLIsRejected(t *testing.T) {
	t.Parallel()
	_, err := New(Options{APIKey: "k", BaseURL: "localhost:8080"})
	if pe := asError(t, err); pe.Kind != provider.ErrorBadRequest || !strings.Contains(pe.Error(), "--base-url") {
		t.Errorf("error = %v", err)
	}
}

func TestLocalServerNeedsNoKey(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{File: "testdata/text.sse"})
	p, err := New(Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Stream(context.Background(), provider.Request{Messages: []provider.Message{userText("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.Collect(s); err != nil {
		t.Fatal(err)
	}
}

func TestFromEnvFillsOnlyEmptyFields(t *testing.T) {
	t.Setenv(EnvAPIKey, "env-key")
	t.Setenv(EnvBaseURL, "http://env.example")
	got := FromEnv(Options{BaseURL: "http://flag.example"})
	if got.APIKey != "env-key" || got.BaseURL != "http://flag.example" {
		t.Errorf("FromEnv = %+v", got)
	}
}

func TestCancellingTheContextStopsTheStream(t *testing.T) {
	t.Parallel()
	first := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"x\",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"still\"}}\n\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(first))
		w.(http.Flusher).Flush()
		<-r.Context().Done() // a server that never finishes
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := newProvider(t, srv.URL)
	s, err := p.Stream(ctx, provider.Request{Messages: []provider.Message{userText("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.Next() || s.Event().Text != "still" {
		t.Fatalf("first event = %+v, err %v", s.Event(), s.Err())
	}
	cancel()
	if s.Next() {
		t.Fatalf("Next after cancel delivered %+v", s.Event())
	}
	if !errors.Is(s.Err(), context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", s.Err())
	}
}

func TestErrorsInOtherShapesKeepTheirStatusAndMessage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		status    int
		body      string
		kind      provider.ErrorKind
		retryable bool
		want      string
	}{
		{"a proxy's plain text page", 502, "Bad Gateway", provider.ErrorServer, true, "anthropic: server error (HTTP 502): Bad Gateway"},
		{"an api_error", 500, `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`, provider.ErrorServer, true, "anthropic: server error (HTTP 500): Internal server error"},
		{"a refused request", 400, `{"type":"error","error":{"type":"invalid_request_error","message":"messages: at least one message is required"}}`, provider.ErrorBadRequest, false, "anthropic: request rejected (HTTP 400): messages: at least one message is required"},
		{"a prompt too long for the window", 400, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208317 tokens > 200000 maximum"}}`, provider.ErrorPromptTooLong, false, "anthropic: the prompt is too long for the model's context window (HTTP 400): prompt is too long: 208317 tokens > 200000 maximum; compact the conversation (/compact) or start a new one"},
		{"input and max_tokens past the limit", 400, `{"type":"error","error":{"type":"invalid_request_error","message":"input length and max_tokens exceed context limit: 197000 + 8192 > 200000, decrease input length or max_tokens and try again"}}`, provider.ErrorPromptTooLong, false, "anthropic: the prompt is too long for the model's context window (HTTP 400): input length and max_tokens exceed context limit: 197000 + 8192 > 200000, decrease input length or max_tokens and try again; compact the conversation (/compact) or start a new one"},
		{"a request too large", 413, `{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}`, provider.ErrorPromptTooLong, false, "anthropic: the prompt is too long for the model's context window (HTTP 413): Request exceeds the maximum allowed number of bytes.; compact the conversation (/compact) or start a new one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := replay.New(t, replay.Response{Status: tc.status, Body: tc.body, Header: map[string]string{"Content-Type": "text/plain"}})
			_, err := newProvider(t, srv.URL).Stream(context.Background(), provider.Request{})
			pe := asError(t, err)
			if pe.Kind != tc.kind || pe.Status != tc.status || pe.Retryable != tc.retryable || pe.Error() != tc.want {
				t.Errorf("error = %q (%s, retryable %v), want %q (%s)", pe.Error(), pe.Kind, pe.Retryable, tc.want, tc.kind)
			}
		})
	}
}

// TestCompat11_ToolResultImagesAreImageBlocks checks that an image a tool
// returned is sent inside its tool_result as a base64 image block.
func TestCompat11_ToolResultImagesAreImageBlocks(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{File: "testdata/text.sse"})
	p := newProvider(t, srv.URL)
	res := provider.ToolResultBlock("toolu_1", "[image 1 (image/png, 4 bytes) attached]", false)
	res.Images = []provider.Image{{MediaType: "image/png", Data: []byte("\x89PNG")}}
	s, err := p.Stream(context.Background(), provider.Request{Messages: []provider.Message{
		userText("shoot"),
		{Role: provider.RoleAssistant, Blocks: []provider.Block{provider.ToolUseBlock("toolu_1", "mcp__s__shot", nil)}},
		{Role: provider.RoleUser, Blocks: []provider.Block{res}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.Collect(s); err != nil {
		t.Fatal(err)
	}
	msgs := body(t, srv.Requests()[0])["messages"].([]any)
	got, _ := json.Marshal(msgs[2].(map[string]any)["content"].([]any)[0].(map[string]any)["content"])
	want := `[{"text":"[image 1 (image/png, 4 bytes) attached]","type":"text"},{"source":{"data":"iVBORw==","media_type":"image/png","type":"base64"},"type":"image"}]`
	if string(got) != want {
		t.Fatalf("tool_result content\n got %s\nwant %s", got, want)
	}
}
