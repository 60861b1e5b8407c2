package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	// stopGrace is how long a stdio server has to exit after its stdin
	// closes, and again after SIGTERM, before it is killed: enough for a
	// clean exit, short enough that quitting does not hang on a stuck one.
	stopGrace = 2 * time.Second
	// waitDelay bounds how long reaping a server waits for descendants that
	// still hold its stderr open; they are killed with the group anyway.
	waitDelay = time.Second
	// stderrTail is how much of a server's stderr is kept to explain why it
	// failed: the last few lines are what say it.
	stderrTail = 4 << 10
)

// conn is one live connection to a server. It is replaced, never reused,
// when the server reconnects.
type conn struct {
	session *sdk.ClientSession
	pid     int         // leader of the stdio server's process group; 0 for HTTP
	stderr  *tailBuffer // stdio only
	idle    func()      // closes the HTTP client's idle connections
	release func()      // frees what the sandbox set up for a stdio server, once it ended
	done    chan struct{}
	closing atomic.Bool // set before a deliberate close, so its end is not a failure
	once    sync.Once

	releaseOnce sync.Once
}

// close ends the session gracefully (stdin closed, then SIGTERM, then
// SIGKILL, as the SDK does), then kills what is left of the process group.
func (c *conn) close() {
	c.once.Do(func() {
		c.closing.Store(true)
		_ = c.session.Close()
		killGroup(c.pid)
		if c.idle != nil {
			c.idle()
		}
		c.freeSandbox()
	})
}

// freeSandbox releases what the sandbox set up for the server, once; the
// server and its group are gone by then.
func (c *conn) freeSandbox() {
	c.releaseOnce.Do(func() {
		if c.release != nil {
			c.release()
		}
	})
}

// dead reports whether the session has ended.
func (c *conn) dead() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// dial connects to one server and completes the MCP handshake.
func (m *Manager) dial(ctx context.Context, transport string, cfg ServerConfig) (*conn, error) {
	switch transport {
	case TransportStdio:
		return m.dialStdio(ctx, cfg)
	case TransportHTTP:
		return m.dialHTTP(ctx, cfg)
	}
	return nil, fmt.Errorf("unknown transport %q", transport)
}

// dialStdio starts a local server with the minimal environment of H13: the
// command's Env is built from scratch, never from os.Environ.
func (m *Manager) dialStdio(ctx context.Context, cfg ServerConfig) (*conn, error) {
	if m.opts.Guard != nil {
		if err := m.opts.Guard(cfg); err != nil {
			return nil, err
		}
	}
	env, err := childEnv(cfg, m.lookup)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Env = env
	cmd.Dir = m.opts.Dir
	tail := &tailBuffer{}
	cmd.Stderr = tail
	cmd.WaitDelay = waitDelay
	ownGroup(cmd)
	release, err := m.sandbox(cfg, cmd)
	if err != nil {
		return nil, err
	}
	t := &commandTransport{CommandTransport: sdk.CommandTransport{Command: cmd, TerminateDuration: stopGrace}}
	// A server that does not answer in time is killed at once, rather than
	// being asked to exit politely by a handshake it is not listening to.
	stop := context.AfterFunc(ctx, func() { killGroup(t.started()) })
	session, err := m.client.Connect(ctx, t, nil)
	if !stop() && err == nil {
		_ = session.Close()
		err = context.Cause(ctx)
	}
	if err != nil {
		killGroup(t.started())
		release()
		return nil, withStderr(err, tail)
	}
	return &conn{session: session, pid: t.started(), stderr: tail, release: release, done: make(chan struct{})}, nil
}

// sandbox puts a stdio server whose entry says "sandbox": true into the
// session's sandbox; any other runs as it is.
func (m *Manager) sandbox(cfg ServerConfig, cmd *exec.Cmd) (func(), error) {
	if !cfg.Sandbox {
		return func() {}, nil
	}
	if m.opts.Sandbox == nil {
		return nil, errors.New(`its entry says "sandbox": true, and this session has no sandbox to start it in`)
	}
	release, err := m.opts.Sandbox(cmd)
	if err != nil {
		return nil, fmt.Errorf(`its entry says "sandbox": true, and it cannot start there: %w`, err)
	}
	if release == nil {
		release = func() {}
	}
	return release, nil
}

// commandTransport is the SDK's CommandTransport, remembering the pid it
// started so a start that runs out of time can kill the process group.
type commandTransport struct {
	sdk.CommandTransport
	mu  sync.Mutex
	pid int
}

// Connect starts the command and records its pid.
func (t *commandTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.CommandTransport.Connect(ctx)
	if err == nil {
		t.mu.Lock()
		t.pid = t.Command.Process.Pid
		t.mu.Unlock()
	}
	return c, err
}

// started returns the pid of the started command, or 0 before it starts.
func (t *commandTransport) started() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.pid
}

// dialHTTP connects to a streamable HTTP server, sending the entry's
// headers with every request.
func (m *Manager) dialHTTP(ctx context.Context, cfg ServerConfig) (*conn, error) {
	headers, err := expandMap("headers", cfg.Headers, m.lookup)
	if err != nil {
		return nil, err
	}
	var base http.RoundTripper
	if m.opts.HTTPClient != nil && m.opts.HTTPClient.Transport != nil {
		base = m.opts.HTTPClient.Transport
	} else {
		// A transport of its own, so closing the server closes its
		// connections without touching the rest of the process.
		base = http.DefaultTransport.(*http.Transport).Clone()
	}
	client := &http.Client{Transport: &headerTransport{base: base, headers: headers}}
	t := &sdk.StreamableClientTransport{
		Endpoint:   cfg.URL,
		HTTPClient: client,
		// Workbench does not act on server-initiated messages, so the
		// extra long-lived GET stream would only hold a connection open.
		DisableStandaloneSSE: true,
	}
	session, err := m.client.Connect(ctx, t, nil)
	if err != nil {
		client.CloseIdleConnections()
		return nil, err
	}
	return &conn{session: session, idle: client.CloseIdleConnections, done: make(chan struct{})}, nil
}

// headerTransport adds configured headers (an Authorization token, say) to
// every request of one server and of no other.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

// RoundTrip sends a copy of the request with the headers set.
func (h *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header.Set(k, v)
		}
	}
	return h.base.RoundTrip(r)
}

// CloseIdleConnections passes the request on, so http.Client can release
// connections through the wrapper.
func (h *headerTransport) CloseIdleConnections() {
	if c, ok := h.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// tailBuffer keeps the last stderrTail bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

// Write keeps the tail of p and drops what falls off the front.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - stderrTail; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// String returns the kept tail, trimmed of surrounding white space.
func (t *tailBuffer) String() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

// withStderr adds what a server printed on stderr to an error, since that
// is usually where it says why it stopped.
func withStderr(err error, tail *tailBuffer) error {
	if s := tail.String(); s != "" {
		return fmt.Errorf("%w; stderr: %s", err, s)
	}
	return err
}
