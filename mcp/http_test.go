package mcp

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServer serves the test server over streamable HTTP on loopback and
// answers 401 unless the request carries the Authorization header wanted.
// It counts requests that got through.
func httpServer(t *testing.T, wantAuth string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	srv := newTestServer()
	mcpHandler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	var authorised atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != wantAuth {
			http.Error(w, "missing or wrong token", http.StatusUnauthorized)
			return
		}
		authorised.Add(1)
		mcpHandler.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		// A client that could not say goodbye (the server vanished first)
		// leaves its session open on the server side.
		for ss := range srv.Sessions() {
			_ = ss.Close()
		}
	})
	t.Cleanup(ts.Close)
	return ts, &authorised
}

func TestHTTPServerGetsTheConfiguredHeaders(t *testing.T) {
	t.Parallel()
	ts, authorised := httpServer(t, "Bearer tok-123")
	m := start(t, Options{Lookup: fixedEnv(map[string]string{"WB_HTTP_TOKEN": "tok-123"})}, Config{
		"web": {URL: ts.URL, Headers: map[string]string{"Authorization": "Bearer ${WB_HTTP_TOKEN}"}},
	})
	st := requireReady(t, m, "web")
	if st.Transport != TransportHTTP {
		t.Errorf("transport %q, want http (inferred from url)", st.Transport)
	}
	if res := call(t, findTool(t, m, "mcp__web__echo"), `{"text":"over http"}`); res.IsError || res.Text != "over http" {
		t.Errorf("echo over http = %+v", res)
	}
	if authorised.Load() == 0 {
		t.Error("no request reached the server with the Authorization header")
	}
}

func TestHTTPServerRejectingTheTokenIsReportedFailed(t *testing.T) {
	t.Parallel()
	ts, _ := httpServer(t, "Bearer right")
	m := start(t, Options{Lookup: fixedEnv(nil)}, Config{
		"web": {Type: "http", URL: ts.URL, Headers: map[string]string{"Authorization": "Bearer wrong"}},
	})
	st := status(t, m, "web")
	if st.State != StateFailed || st.Err == nil {
		t.Fatalf("web = %+v, want failed", st)
	}
	t.Logf("reported: %v", st.Err)
}

func TestHTTPServerGoneMidSessionGivesAnErrorNamingIt(t *testing.T) {
	t.Parallel()
	ts, _ := httpServer(t, "")
	m := start(t, Options{}, Config{"remote": {URL: ts.URL}})
	requireReady(t, m, "remote")
	echo := findTool(t, m, "mcp__remote__echo")
	ts.Close()

	res := call(t, echo, `{"text":"hello?"}`)
	if !res.IsError || !strings.Contains(res.Text, `MCP server "remote"`) || !strings.Contains(res.Text, "/mcp reconnect remote") {
		t.Errorf("a call to a vanished server = %+v, want an error naming it and /mcp reconnect", res)
	}
	t.Logf("gone: %s", res.Text)
}
