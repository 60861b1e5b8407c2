// Package replay serves canned HTTP responses to the real SDK clients in the
// provider tests, and records the requests they send, so the tests exercise
// the wire format end to end on a loopback server with no network.
package replay

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
)

// Response is one canned answer. The body is File's contents when File is set,
// Body otherwise. A 200 answer is sent as text/event-stream unless Header
// says otherwise, one event at a time with a flush after each, so the client
// reads it as a real stream.
type Response struct {
	Status int // zero means 200
	Header map[string]string
	File   string
	Body   string
}

// Request is what a client sent.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// Server answers each request with the next Response in order. A request
// beyond the last one fails the test.
type Server struct {
	URL string

	t         testing.TB
	mu        sync.Mutex
	responses []Response
	requests  []Request
}

// New starts a server that is closed when the test ends.
func New(t testing.TB, responses ...Response) *Server {
	t.Helper()
	s := &Server{t: t, responses: responses}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.t.Errorf("replay: reading request body: %v", err)
	}
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	var resp Response
	ok := n < len(s.responses)
	if ok {
		resp = s.responses[n]
	}
	s.mu.Unlock()
	if !ok {
		s.t.Errorf("replay: request %d (%s %s) has no canned response", n+1, r.Method, r.URL.Path)
		http.Error(w, "replay: no more responses", http.StatusTeapot)
		return
	}

	data := []byte(resp.Body)
	if resp.File != "" {
		data, err = os.ReadFile(resp.File)
		if err != nil {
			s.t.Errorf("replay: %v", err)
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}
	status := resp.Status
	if status == 0 {
		status = http.StatusOK
	}
	for k, v := range resp.Header {
		w.Header().Set(k, v)
	}
	if w.Header().Get("Content-Type") == "" {
		if status == http.StatusOK {
			w.Header().Set("Content-Type", "text/event-stream")
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
	}
	w.WriteHeader(status)
	flusher, _ := w.(http.Flusher)
	for len(data) > 0 {
		// One server-sent event (up to and including its blank line) per write.
		i := bytes.Index(data, []byte("\n\n"))
		if i < 0 {
			i = len(data)
		} else {
			i += 2
		}
		if _, err := w.Write(data[:i]); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
		data = data[i:]
	}
}

// ClosedURL returns the URL of a loopback port that nothing listens on, for
// testing what a provider says when its server is unreachable.
func ClosedURL(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return "http://" + addr
}
