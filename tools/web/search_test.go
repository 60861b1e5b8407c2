package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/web"
)

// backendServer speaks one backend's API and keeps the requests it got.
type backendServer struct {
	*origin
	mu   sync.Mutex
	reqs []seenRequest
}

type seenRequest struct {
	method, path string
	query        map[string][]string
	header       http.Header
	body         []byte
}

func newBackend(t *testing.T, answer func(w http.ResponseWriter, r seenRequest)) *backendServer {
	t.Helper()
	b := &backendServer{}
	b.origin = newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s := seenRequest{r.Method, r.URL.Path, r.URL.Query(), r.Header.Clone(), body}
		b.mu.Lock()
		b.reqs = append(b.reqs, s)
		b.mu.Unlock()
		answer(w, s)
	})
	return b
}

func (b *backendServer) last(t *testing.T) seenRequest {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.reqs) == 0 {
		t.Fatal("the backend got no request")
	}
	return b.reqs[len(b.reqs)-1]
}

func jsonAnswer(v any) func(http.ResponseWriter, seenRequest) {
	return func(w http.ResponseWriter, _ seenRequest) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(v)
	}
}

func search(t *testing.T, cfg web.SearchConfig, input map[string]any) (tools.Result, web.SearchRecord) {
	t.Helper()
	tool, err := web.WebSearch(cfg)
	if err != nil {
		t.Fatalf("WebSearch(%+v): %v", cfg, err)
	}
	raw, _ := json.Marshal(input)
	in, err := tool.Schema().Prepare(raw)
	if err != nil {
		t.Fatalf("Prepare(%s): %v", raw, err)
	}
	res, err := tool.Call(context.Background(), in, &tools.Context{})
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	var rec web.SearchRecord
	if err := json.Unmarshal(res.Meta, &rec); err != nil {
		t.Fatalf("Meta %s: %v", res.Meta, err)
	}
	return res, rec
}

func TestH12_WebSearchRefusesAMisconfiguredBackend(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		cfg  web.SearchConfig
		says string
	}{
		{"no backend", web.SearchConfig{}, "no backend"},
		{"an unknown backend", web.SearchConfig{Backend: "ddgs"}, `unknown backend "ddgs"`},
		{"brave without a key", web.SearchConfig{Backend: "brave"}, "brave backend needs an API key"},
		{"tavily without a key", web.SearchConfig{Backend: "tavily", APIKey: "  "}, "tavily backend needs an API key"},
		{"searxng without a base URL", web.SearchConfig{Backend: "searxng"}, "needs the base URL"},
		{"a base URL that is not http", web.SearchConfig{Backend: "searxng", BaseURL: "ftp://x"}, "not an http(s) URL"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tool, err := web.WebSearch(c.cfg)
			if err == nil || tool != nil {
				t.Fatalf("WebSearch(%+v) built a tool", c.cfg)
			}
			if !errors.Is(err, web.ErrNotConfigured) || !strings.Contains(err.Error(), c.says) {
				t.Errorf("error %q, want ErrNotConfigured saying %q", err, c.says)
			}
			if err := web.Probe(context.Background(), c.cfg); !errors.Is(err, web.ErrNotConfigured) {
				t.Errorf("Probe = %v, want ErrNotConfigured", err)
			}
		})
	}
}

func TestWebSearchMetadata(t *testing.T) {
	t.Parallel()
	tool, err := web.WebSearch(web.SearchConfig{Backend: "SearXNG", BaseURL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	in := json.RawMessage(`{"query":"go generics\nrm -rf"}`)
	if tool.Name() != "WebSearch" || tool.ReadOnly(in) || !tool.ConcurrencySafe(in) {
		t.Errorf("name %q, read-only %v, concurrency-safe %v; want WebSearch, false, true",
			tool.Name(), tool.ReadOnly(in), tool.ConcurrencySafe(in))
	}
	d := tool.CheckPermission(context.Background(), in, &tools.Context{})
	if d.Behavior != permission.Ask || !strings.Contains(d.Message, `"go generics rm -rf"`) || !strings.Contains(d.Message, "searxng") {
		t.Errorf("own permission %+v, want an ask showing the query on one line and the backend", d)
	}
	for _, bad := range []string{`{"query":""}`, `{"query":"x","limit":0}`, `{"query":"x","limit":21}`, `{"limit":3}`} {
		if _, err := tool.Schema().Prepare(json.RawMessage(bad)); err == nil {
			t.Errorf("the schema accepted %s", bad)
		}
	}
}

func TestBraveBackend(t *testing.T) {
	t.Parallel()
	srv := newBackend(t, jsonAnswer(map[string]any{
		"web": map[string]any{"results": []map[string]any{
			{"title": "The <strong>Go</strong> Programming Language", "url": "https://go.dev/", "description": "Go is an <strong>open source</strong> language &amp; more."},
			{"title": "Go by Example", "url": "https://gobyexample.com/", "description": "Hands-on intro"},
		}},
	}))
	res, rec := search(t, web.SearchConfig{Backend: "brave", APIKey: "brave-key", BaseURL: srv.URL + "/", Version: "9"},
		map[string]any{"query": "golang tutorial", "limit": 7})
	r := srv.last(t)
	if r.method != http.MethodGet || r.path != "/res/v1/web/search" {
		t.Errorf("request %s %s", r.method, r.path)
	}
	if got := r.query["q"]; len(got) != 1 || got[0] != "golang tutorial" {
		t.Errorf("q = %v", got)
	}
	if got := r.query["count"]; len(got) != 1 || got[0] != "7" {
		t.Errorf("count = %v", got)
	}
	if r.header.Get("X-Subscription-Token") != "brave-key" || r.header.Get("Accept") != "application/json" || r.header.Get("User-Agent") != "Workbench/9" {
		t.Errorf("headers %v", r.header)
	}
	want := "Results for \"golang tutorial\" (brave, 2):\n\n" +
		"1. The Go Programming Language\n   https://go.dev/\n   Go is an open source language & more.\n" +
		"2. Go by Example\n   https://gobyexample.com/\n   Hands-on intro"
	if res.IsError || res.Text != want {
		t.Errorf("text:\n%s\nwant:\n%s", res.Text, want)
	}
	if rec.Backend != "brave" || len(rec.Results) != 2 || rec.Results[0].URL != "https://go.dev/" {
		t.Errorf("record %+v", rec)
	}
}

func TestTavilyBackend(t *testing.T) {
	t.Parallel()
	srv := newBackend(t, jsonAnswer(map[string]any{
		"query": "x",
		"results": []map[string]any{
			{"title": "Result one", "url": "https://one.example/", "content": strings.Repeat("long extract ", 100), "score": 0.9},
		},
	}))
	res, rec := search(t, web.SearchConfig{Backend: "tavily", APIKey: "tvly-key", BaseURL: srv.URL},
		map[string]any{"query": "rust async"})
	r := srv.last(t)
	if r.method != http.MethodPost || r.path != "/search" || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
		t.Errorf("request %s %s %q", r.method, r.path, r.header.Get("Content-Type"))
	}
	var body map[string]any
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatalf("body %s: %v", r.body, err)
	}
	if body["api_key"] != "tvly-key" || body["query"] != "rust async" || body["max_results"] != float64(5) {
		t.Errorf("body %v, want api_key, query and the default max_results 5", body)
	}
	if r.header.Get("Authorization") != "Bearer tvly-key" {
		t.Errorf("Authorization %q", r.header.Get("Authorization"))
	}
	if res.IsError || !strings.Contains(res.Text, "1. Result one\n   https://one.example/\n   long extract") {
		t.Errorf("text %q", res.Text)
	}
	if n := len([]rune(rec.Results[0].Snippet)); n > 501 {
		t.Errorf("a snippet of %d runes was not cut", n)
	}
}

func TestSearXNGBackend(t *testing.T) {
	t.Parallel()
	var results []map[string]any
	for i := range 8 {
		results = append(results, map[string]any{"title": fmt.Sprintf("Hit %d", i+1), "url": fmt.Sprintf("https://h%d.example/", i+1), "content": "c"})
	}
	srv := newBackend(t, jsonAnswer(map[string]any{"query": "q", "results": results}))
	res, rec := search(t, web.SearchConfig{Backend: "searxng", BaseURL: srv.URL + "/searx"},
		map[string]any{"query": "zig build", "limit": 3})
	r := srv.last(t)
	if r.method != http.MethodGet || r.path != "/searx/search" || r.query["q"][0] != "zig build" || r.query["format"][0] != "json" {
		t.Errorf("request %s %s %v", r.method, r.path, r.query)
	}
	if len(rec.Results) != 3 || !strings.Contains(res.Text, "3. Hit 3") || strings.Contains(res.Text, "Hit 4") {
		t.Errorf("limit not applied: %q", res.Text)
	}
}

func TestSearchFailuresSayWhy(t *testing.T) {
	t.Parallel()
	status := func(code int, body string) func(http.ResponseWriter, seenRequest) {
		return func(w http.ResponseWriter, _ seenRequest) { http.Error(w, body, code) }
	}
	cases := []struct {
		name    string
		backend string
		answer  func(http.ResponseWriter, seenRequest)
		says    string
	}{
		{"a rejected key", "brave", status(401, `{"error":"invalid token"}`), "refused the key"},
		{"a used-up quota", "tavily", status(429, "slow down"), "rate limit"},
		{"SearXNG without JSON output", "searxng", status(403, "Forbidden"), "search.formats"},
		{"a server error", "brave", status(502, "bad gateway"), "unreachable"},
		{"an answer that is not JSON", "searxng", func(w http.ResponseWriter, _ seenRequest) { fmt.Fprint(w, "<html>") }, "not the JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := newBackend(t, c.answer)
			res, rec := search(t, web.SearchConfig{Backend: c.backend, APIKey: "k", BaseURL: srv.URL}, map[string]any{"query": "x"})
			if !res.IsError || !strings.Contains(res.Text, c.says) || rec.Error == "" {
				t.Errorf("got %q (record error %q), want an error saying %q", res.Text, rec.Error, c.says)
			}
		})
	}
	srv := newBackend(t, jsonAnswer(map[string]any{"results": []any{}}))
	res, _ := search(t, web.SearchConfig{Backend: "searxng", BaseURL: srv.URL}, map[string]any{"query": "nothing at all"})
	if res.IsError || res.Text != `No results for "nothing at all" (searxng).` {
		t.Errorf("empty answer: %q", res.Text)
	}
}

func TestH12_ProbeReportsAnUnreachableBackend(t *testing.T) {
	t.Parallel()
	dead, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadURL := "http://" + dead.Addr().String()
	dead.Close()
	for _, backend := range []string{"brave", "tavily", "searxng"} {
		err := web.Probe(context.Background(), web.SearchConfig{Backend: backend, APIKey: "k", BaseURL: deadURL})
		if !errors.Is(err, web.ErrUnreachable) || !strings.Contains(err.Error(), backend) {
			t.Errorf("%s on a dead server: %v, want ErrUnreachable naming the backend", backend, err)
		}
	}
}

func TestProbeAsksWithoutAQuery(t *testing.T) {
	t.Parallel()
	cases := []struct {
		backend, path, header, value string
	}{
		{"brave", "/res/v1/web/search", "X-Subscription-Token", "k1"},
		{"tavily", "/usage", "Authorization", "Bearer k1"},
		{"searxng", "/config", "", ""},
	}
	for _, c := range cases {
		t.Run(c.backend, func(t *testing.T) {
			t.Parallel()
			srv := newBackend(t, jsonAnswer(map[string]any{}))
			if err := web.Probe(context.Background(), web.SearchConfig{Backend: c.backend, APIKey: "k1", BaseURL: srv.URL}); err != nil {
				t.Fatalf("Probe on a live server: %v", err)
			}
			r := srv.last(t)
			if r.method != http.MethodGet || r.path != c.path || len(r.query) != 0 || len(r.body) != 0 {
				t.Errorf("probe sent %s %s %v %q; want a bare GET %s", r.method, r.path, r.query, r.body, c.path)
			}
			if c.header != "" && r.header.Get(c.header) != c.value {
				t.Errorf("%s = %q", c.header, r.header.Get(c.header))
			}
		})
	}
	rejecting := newBackend(t, func(w http.ResponseWriter, _ seenRequest) { http.Error(w, "no", http.StatusUnauthorized) })
	if err := web.Probe(context.Background(), web.SearchConfig{Backend: "tavily", APIKey: "bad", BaseURL: rejecting.URL}); !errors.Is(err, web.ErrKeyRejected) {
		t.Errorf("Probe with a rejected key: %v, want ErrKeyRejected", err)
	}
	failing := newBackend(t, func(w http.ResponseWriter, _ seenRequest) { http.Error(w, "down", http.StatusServiceUnavailable) })
	if err := web.Probe(context.Background(), web.SearchConfig{Backend: "searxng", BaseURL: failing.URL}); !errors.Is(err, web.ErrUnreachable) {
		t.Errorf("Probe on a 503: %v, want ErrUnreachable", err)
	}
}
