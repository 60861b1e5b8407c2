package openai

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

var hi = provider.Request{Messages: []provider.Message{userText("hi")}}

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
	if got, want := strings.Join(kinds, " "), "text_delta text_delta text_delta usage message_stop"; got != want {
		t.Errorf("kinds = %s, want %s", got, want)
	}
	if text.String() != "Hello from the replay server." {
		t.Errorf("text = %q", text.String())
	}
	if r := evs[len(evs)-1].StopReason; r != provider.StopEndTurn {
		t.Errorf("stop reason = %q, want end_turn", r)
	}
	if u, want := evs[len(evs)-2].Usage, (provider.Usage{InputTokens: 388, OutputTokens: 9, CacheRead: 3072}); u != want {
		t.Errorf("usage = %+v, want %+v", u, want)
	}

	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Path != "/chat/completions" {
		t.Fatalf("requests = %+v", reqs)
	}
	b := body(t, reqs[0])
	got, _ := json.Marshal(b)
	want := `{"messages":[{"content":"Be brief.","role":"system"},{"content":"hi","role":"user"}],"model":"gpt-5.5","stream":true,"stream_options":{"include_usage":true}}`
	if string(got) != want {
		t.Errorf("request\n got %s\nwant %s", got, want)
	}
	if got := reqs[0].Header.Get("Authorization"); got != "Bearer sk-test" {
		t.Errorf("authorization = %q", got)
	}
}

func TestParallelToolCallsAreReassembledFromManyDeltas(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{File: "testdata/tools.sse"})
	p := newProvider(t, srv.URL)
	s, err := p.Stream(context.Background(), hi)
	if err != nil {
		t.Fatal(err)
	}
	var b provider.Builder
	deltas := map[string]int{}
	var order []string
	for s.Next() {
		ev := s.Event()
		b.Add(ev)
		switch ev.Kind {
		case provider.EventToolUseStart, provider.EventToolUseStop:
			order = append(order, string(ev.Kind)+":"+ev.ToolName)
		case provider.EventToolUseDelta:
			deltas[ev.ToolUseID]++
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	wantOrder := "tool_use_start:Read tool_use_start:Glob tool_use_start:TodoRead tool_use_stop:Read tool_use_stop:Glob tool_use_stop:TodoRead"
	if got := strings.Join(order, " "); got != wantOrder {
		t.Errorf("order = %s\nwant %s", got, wantOrder)
	}
	if deltas["call_ReadGoMod"] != 4 || deltas["call_GlobGo"] != 3 || deltas["call_NoInput"] != 0 {
		t.Errorf("input deltas per call = %v", deltas)
	}
	r := b.Response()
	if r.StopReason != provider.StopToolUse {
		t.Errorf("stop reason = %q", r.StopReason)
	}
	if len(r.Message.Blocks) != 4 || r.Message.Blocks[0].Text != "Let me look at both." {
		t.Fatalf("blocks = %+v", r.Message.Blocks)
	}
	uses := r.Message.ToolUses()
	for i, want := range []struct{ id, name, input string }{
		{"call_ReadGoMod", "Read", `{"file_path": "go.mod", "limit": 20}`},
		{"call_GlobGo", "Glob", `{"pattern": "**/*.go"}`},
		{"call_NoInput", "TodoRead", `{}`},
	} {
		u := uses[i]
		if u.ToolUseID != want.id || u.ToolName != want.name || string(u.Input) != want.input {
			t.Errorf("tool use %d = %s %s %s, want %s %s %s", i, u.ToolUseID, u.ToolName, u.Input, want.id, want.name, want.input)
		}
	}
	if r.Usage.InputTokens != 980 || r.Usage.OutputTokens != 87 {
		t.Errorf("usage = %+v", r.Usage)
	}
}

func TestLocalServerQuirks(t *testing.T) {
	t.Parallel()
	// Reasoning in a side field, every tool call at index 0 with its own id,
	// "stop" after tool calls, no usage chunk, and no key.
	srv := replay.New(t, replay.Response{File: "testdata/local_reasoning.sse"})
	p, err := New(Options{BaseURL: srv.URL, Model: "qwen3:8b"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Stream(context.Background(), hi)
	if err != nil {
		t.Fatal(err)
	}
	r, err := provider.Collect(s)
	if err != nil {
		t.Fatal(err)
	}
	bl := r.Message.Blocks
	if len(bl) != 4 {
		t.Fatalf("blocks = %+v", bl)
	}
	if bl[0].Type != provider.BlockThinking || bl[0].Thinking != "The user wants two files listed." {
		t.Errorf("thinking = %+v", bl[0])
	}
	if bl[1].Text != "Listing." {
		t.Errorf("text = %+v", bl[1])
	}
	if bl[2].ToolName != "LS" || string(bl[2].Input) != `{"path":"."}` || bl[3].ToolName != "Glob" || bl[3].ToolUseID != "call_glob02" {
		t.Errorf("tool uses = %+v %+v", bl[2], bl[3])
	}
	if r.StopReason != provider.StopToolUse {
		t.Errorf("stop reason = %q, want tool_use", r.StopReason)
	}
	req := srv.Requests()[0]
	if got := req.Header.Get("Authorization"); got != "Bearer "+placeholderKey {
		t.Errorf("authorization = %q, want the placeholder", got)
	}
	if b := body(t, req); b["model"] != "qwen3:8b" {
		t.Errorf("model = %v", b["model"])
	}
}

func TestRequestCarriesToolsHistoryAndToolResults(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{File: "testdata/text.sse"}, replay.Response{File: "testdata/text.sse"})
	req := provider.Request{
		MaxTokens: 2000,
		Tools: []provider.ToolDef{
			{Name: "Read", Description: "Read a file.", Schema: json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string"}},"required":["file_path"]}`)},
			{Name: "TodoRead"},
		},
		Messages: []provider.Message{
			userText("read go.mod"),
			{Role: provider.RoleAssistant, Blocks: []provider.Block{
				{Type: provider.BlockThinking, Thinking: "not sent"},
				provider.TextBlock("Reading."),
				provider.ToolUseBlock("call_1", "Read", json.RawMessage(`{"file_path":"go.mod"}`)),
				provider.ToolUseBlock("call_2", "TodoRead", nil),
			}},
			{Role: provider.RoleUser, Blocks: []provider.Block{
				provider.TextBlock("and hurry"),
				provider.ToolResultBlock("call_1", "module x", false),
				provider.ToolResultBlock("call_2", "no todo list", true),
			}},
		},
	}
	// Against OpenAI itself the cap is max_completion_tokens; a compatible
	// server gets max_tokens.
	for _, custom := range []bool{false, true} {
		p := newProvider(t, srv.URL)
		p.customURL = custom
		s, err := p.Stream(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := provider.Collect(s); err != nil {
			t.Fatal(err)
		}
	}
	reqs := srv.Requests()
	b := body(t, reqs[0])
	got, _ := json.Marshal(map[string]any{"tools": b["tools"], "messages": b["messages"]})
	want := `{"messages":[` +
		`{"content":"read go.mod","role":"user"},` +
		`{"content":"Reading.","role":"assistant","tool_calls":[` +
		`{"function":{"arguments":"{\"file_path\":\"go.mod\"}","name":"Read"},"id":"call_1","type":"function"},` +
		`{"function":{"arguments":"{}","name":"TodoRead"},"id":"call_2","type":"function"}]},` +
		`{"content":"module x","role":"tool","tool_call_id":"call_1"},` +
		`{"content":"Error: no todo list","role":"tool","tool_call_id":"call_2"},` +
		`{"content":"and hurry","role":"user"}],` +
		`"tools":[{"function":{"description":"Read a file.","name":"Read","parameters":{"properties":{"file_path":{"type":"string"}},"required":["file_path"],"type":"object"}},"type":"function"},` +
		`{"function":{"name":"TodoRead","parameters":{"properties":{},"type":"object"}},"type":"function"}]}`
	if string(got) != want {
		t.Errorf("request\n got %s\nwant %s", got, want)
	}
	if b["max_completion_tokens"] != float64(2000) || b["max_tokens"] != nil {
		t.Errorf("openai: max_completion_tokens = %v, max_tokens = %v", b["max_completion_tokens"], b["max_tokens"])
	}
	b = body(t, reqs[1])
	if b["max_tokens"] != float64(2000) || b["max_completion_tokens"] != nil {
		t.Errorf("compatible: max_completion_tokens = %v, max_tokens = %v", b["max_completion_tokens"], b["max_tokens"])
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
	policy.OnRetry = func(_ int, _ time.Duration, err error) { retries = append(retries, err) }
	p := provider.WithRetry(newProvider(t, srv.URL), policy)
	s, err := p.Stream(context.Background(), hi)
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
	if len(retries) != 1 {
		t.Fatalf("retries = %v", retries)
	}
	if pe := asError(t, retries[0]); pe.Kind != provider.ErrorRateLimit || !strings.Contains(pe.Message, "Rate limit reached") {
		t.Errorf("retried error = %+v", pe)
	}
}

func TestOutOfQuotaIsNotRetried(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{Status: 429, File: "testdata/quota.json"})
	p := provider.WithRetry(newProvider(t, srv.URL), fastRetry)
	_, err := p.Stream(context.Background(), hi)
	pe := asError(t, err)
	if pe.Kind != provider.ErrorRateLimit || pe.Retryable || !strings.Contains(pe.Hint, "billing") {
		t.Errorf("error = %+v", pe)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

func TestServerErrorBeforeAnyChunkIsRetried(t *testing.T) {
	t.Parallel()
	srv := replay.New(t,
		replay.Response{Status: 503, Body: `{"error":{"message":"upstream unavailable","type":"server_error"}}`},
		replay.Response{File: "testdata/overloaded_first.sse"},
		replay.Response{File: "testdata/text.sse"},
	)
	p := provider.WithRetry(newProvider(t, srv.URL), fastRetry)
	s, err := p.Stream(context.Background(), hi)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.Collect(s); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("requests = %d, want 3", n)
	}
}

func TestOverloadedMidStreamDeliversEarlierEventsThenFails(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{File: "testdata/overloaded_midstream.sse"})
	p := provider.WithRetry(newProvider(t, srv.URL), fastRetry)
	s, err := p.Stream(context.Background(), hi)
	if err != nil {
		t.Fatal(err)
	}
	r, err := provider.Collect(s)
	pe := asError(t, err)
	if pe.Kind != provider.ErrorOverloaded || !pe.Retryable {
		t.Errorf("error = %+v", pe)
	}
	if got := pe.Error(); got != "openai: overloaded: The model is overloaded. Please try again later." {
		t.Errorf("message = %q", got)
	}
	if len(r.Message.Blocks) != 1 || r.Message.Blocks[0].Text != "I will start by reading" {
		t.Errorf("partial message = %+v", r.Message)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("requests = %d: a stream that delivered events must not be restarted", n)
	}
}

func TestMalformedChunkIsAStreamError(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{File: "testdata/malformed.sse"})
	p := newProvider(t, srv.URL)
	s, err := p.Stream(context.Background(), hi)
	if err != nil {
		t.Fatal(err)
	}
	r, err := provider.Collect(s)
	pe := asError(t, err)
	if pe.Kind != provider.ErrorStream || pe.Retryable || !strings.HasPrefix(pe.Error(), "openai: stream failed: malformed event from the server") {
		t.Errorf("error = %q (%+v)", pe.Error(), pe)
	}
	if r.Message.Blocks[0].Text != "Partial" {
		t.Errorf("partial message = %+v", r.Message)
	}
}

func TestStreamWithoutFinishReasonIsAnError(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{File: "testdata/truncated.sse"})
	p := newProvider(t, srv.URL)
	s, err := p.Stream(context.Background(), hi)
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
	_, err := p.Stream(context.Background(), hi)
	pe := asError(t, err)
	if pe.Kind != provider.ErrorAuth || pe.Status != 401 || pe.Retryable {
		t.Errorf("error = %+v", pe)
	}
	if want := "openai: authentication failed (HTTP 401): Incorrect API key provided: sk-test.; set OPENAI_API_KEY to a valid key"; pe.Error() != want {
		t.Errorf("message = %q\nwant      %q", pe.Error(), want)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

func TestUnknownModelOnALocalServerHintsAtTheModel(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{Status: 404, File: "testdata/not_found.json"})
	p := newProvider(t, srv.URL)
	_, err := p.Stream(context.Background(), hi)
	pe := asError(t, err)
	if pe.Kind != provider.ErrorBadRequest || pe.Hint != "check the model name (--model) and OPENAI_BASE_URL" || !strings.Contains(pe.Message, "try pulling it") {
		t.Errorf("error = %+v", pe)
	}
}

func TestUnreachableServerNamesTheBaseURL(t *testing.T) {
	t.Parallel()
	url := replay.ClosedURL(t)
	p := provider.WithRetry(newProvider(t, url), fastRetry)
	_, err := p.Stream(context.Background(), hi)
	pe := asError(t, err)
	if pe.Kind != provider.ErrorNetwork {
		t.Fatalf("error = %+v", pe)
	}
	msg := pe.Error()
	if !strings.HasPrefix(msg, "openai: cannot reach the server: "+url) || !strings.Contains(msg, "OPENAI_BASE_URL") {
		t.Errorf("message = %q", msg)
	}
}

func TestNoKeyAndNoBaseURLIsAnAuthError(t *testing.T) {
	t.Parallel()
	_, err := New(Options{})
	pe := asError(t, err)
	if pe.Kind != provider.ErrorAuth || !strings.Contains(pe.Error(), "set OPENAI_API_KEY") {
		t.Errorf("error = %q", pe.Error())
	}
}

func TestEnvironmentIsReadOnlyThroughFromEnv(t *testing.T) {
	srv := replay.New(t, replay.Response{File: "testdata/text.sse"})
	t.Setenv(EnvAPIKey, "env-key")
	t.Setenv(EnvBaseURL, srv.URL)
	got := FromEnv(Options{APIKey: "flag-key"})
	if got.APIKey != "flag-key" || got.BaseURL != srv.URL {
		t.Errorf("FromEnv = %+v", got)
	}
	// Without FromEnv the SDK must not pick OPENAI_BASE_URL up by itself.
	p, err := New(Options{APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if p.baseURL != defaultBaseURL {
		t.Errorf("base URL = %q", p.baseURL)
	}
	p, err = New(got)
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Stream(context.Background(), hi)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.Collect(s); err != nil {
		t.Fatal(err)
	}
}

func TestCancellingTheContextStopsTheStream(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"still"},"finish_reason":null}]}` + "\n\n"))
		w.(http.Flusher).Flush()
		<-r.Context().Done() // a server that never finishes
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := newProvider(t, srv.URL).Stream(ctx, hi)
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
		name   string
		status int
		body   string
		kind   provider.ErrorKind
		want   string
	}{
		{"an error that is a bare string", 401, `{"error":"bad key"}`, provider.ErrorAuth, "openai: authentication failed (HTTP 401): bad key; set OPENAI_API_KEY to a valid key"},
		{"a vLLM error object", 404, `{"object":"error","message":"The model llama9 does not exist.","type":"NotFoundError","param":null,"code":404}`, provider.ErrorBadRequest, "openai: request rejected (HTTP 404): The model llama9 does not exist.; check the model name (--model) and OPENAI_BASE_URL"},
		{"a plain text page", 502, "Bad Gateway\n", provider.ErrorServer, "openai: server error (HTTP 502): Bad Gateway"},
		{"OpenAI's context_length_exceeded", 400, `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`, provider.ErrorPromptTooLong, "openai: the prompt is too long for the model's context window (HTTP 400): This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.; compact the conversation (/compact) or start a new one"},
		{"a vLLM context overflow", 400, `{"object":"error","message":"This model's maximum context length is 32768 tokens. However, you requested 33012 tokens in the messages. Please reduce the length of the messages.","type":"BadRequestError","param":null,"code":400}`, provider.ErrorPromptTooLong, "openai: the prompt is too long for the model's context window (HTTP 400): This model's maximum context length is 32768 tokens. However, you requested 33012 tokens in the messages. Please reduce the length of the messages.; compact the conversation (/compact) or start a new one"},
		{"a llama.cpp context overflow", 400, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":8192}}`, provider.ErrorPromptTooLong, "openai: the prompt is too long for the model's context window (HTTP 400): the request exceeds the available context size, try increasing it; compact the conversation (/compact) or start a new one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := replay.New(t, replay.Response{Status: tc.status, Body: tc.body, Header: map[string]string{"Content-Type": "text/plain"}})
			_, err := newProvider(t, srv.URL).Stream(context.Background(), hi)
			pe := asError(t, err)
			if pe.Kind != tc.kind || pe.Status != tc.status || pe.Error() != tc.want {
				t.Errorf("error = %q (%s), want %q (%s)", pe.Error(), pe.Kind, tc.want, tc.kind)
			}
		})
	}
}

// TestCompat11_ToolResultImagesFollowAsImageParts checks that, since a tool
// message holds text only, a tool result's image follows in a user message
// as a data URL naming the call.
func TestCompat11_ToolResultImagesFollowAsImageParts(t *testing.T) {
	t.Parallel()
	srv := replay.New(t, replay.Response{File: "testdata/text.sse"})
	p := newProvider(t, srv.URL)
	res := provider.ToolResultBlock("call_1", "[image 1 (image/png, 4 bytes) attached]", false)
	res.Images = []provider.Image{{MediaType: "image/png", Data: []byte("\x89PNG")}}
	s, err := p.Stream(context.Background(), provider.Request{Messages: []provider.Message{
		userText("shoot"),
		{Role: provider.RoleAssistant, Blocks: []provider.Block{provider.ToolUseBlock("call_1", "mcp__s__shot", nil)}},
		{Role: provider.RoleUser, Blocks: []provider.Block{res, provider.TextBlock("and then?")}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.Collect(s); err != nil {
		t.Fatal(err)
	}
	msgs := body(t, srv.Requests()[0])["messages"].([]any)
	got, _ := json.Marshal(msgs[len(msgs)-2:])
	want := `[{"content":"[image 1 (image/png, 4 bytes) attached]\n[1 image(s) of this result follow in the next user message]","role":"tool","tool_call_id":"call_1"},` +
		`{"content":[{"text":"Images returned by tool call call_1:","type":"text"},{"image_url":{"url":"data:image/png;base64,iVBORw=="},"type":"image_url"},{"text":"and then?","type":"text"}],"role":"user"}]`
	if string(got) != want {
		t.Fatalf("messages\n got %s\nwant %s", got, want)
	}
}
