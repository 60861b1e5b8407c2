package mcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed92b641c3/workbench/tools"
)

// DefaultStartTimeout bounds connecting to one server and listing its tools.
// A server fetched by a package runner on first use can take a while; one
// that takes longer than this is reported failed rather than holding the
// session back.
const DefaultStartTimeout = 30 * time.Second

// State is where a server is in its life.
type State string

// The states a /mcp view shows.
const (
	StateStarting State = "starting"
	StateReady    State = "ready"
	StateFailed   State = "failed"
)

// ServerStatus is what a person needs to see about one server: whether it
// runs, why not, and which tools it gave.
type ServerStatus struct {
	Name      string
	State     State
	Err       error  // why the server failed; nil otherwise
	Transport string // "stdio" or "http"; empty when the entry is broken
	// Prefix is what its tool names start with (mcp__<server>__), the form
	// permission rules for the server take.
	Prefix string
	// Tools are the workbench names of its usable tools.
	Tools []string
	// Skipped are tools the server listed that cannot be offered, with why.
	Skipped []SkippedTool
}

// SkippedTool is a server tool left out of the session, with the reason, so
// `workbench tools` and /mcp can explain its absence (H12).
type SkippedTool struct {
	Tool   string // as the server names it
	Reason string
}

// Options configure a Manager.
type Options struct {
	// Dir is the working directory of stdio servers, normally the project
	// directory, so relative commands and paths in args resolve there.
	Dir string
	// StartTimeout bounds each server's start; 0 means DefaultStartTimeout.
	StartTimeout time.Duration
	// Lookup reads host variables for PATH, HOME, LANG and ${VAR}
	// references; nil means os.LookupEnv.
	Lookup LookupFunc
	// HTTPClient, when set, supplies the transport for HTTP servers (a
	// proxy, say); headers from the entry are added on top.
	HTTPClient *http.Client
	// ClientVersion is the version Workbench reports to servers.
	ClientVersion string
	// Sandbox confines the stdio servers whose entry says "sandbox": true:
	// it rewrites the command before it starts and returns a release
	// function for after it ended, or an error that keeps the server from
	// starting. Nil: such servers do not start.
	Sandbox func(cmd *exec.Cmd) (release func(), err error)
	// Guard, when set, is asked just before each stdio server starts (at
	// Start, Reconnect and after a crash): an error keeps it from
	// starting and is its failure. The host refuses a server whose script
	// appeared in the workspace during the session, where a sandboxed
	// command may have written it (H17: checked as it starts).
	Guard func(ServerConfig) error
}

// Manager owns a session's MCP servers: it starts them, keeps their status,
// offers their tools and stops them all on Close. It is safe for concurrent
// use; the tools it returns call through it, so they always use the
// server's current connection, including after a reconnect.
type Manager struct {
	opts   Options
	lookup LookupFunc
	client *sdk.Client
	ctx    context.Context // cancelled by Close, so starts in flight give up
	cancel context.CancelFunc

	progress progressRoutes

	mu      sync.Mutex
	servers map[string]*server
	closed  bool
	wg      sync.WaitGroup // dials and watchers, waited for by Close
}

// server is one configured server. Its fields are guarded by Manager.mu.
type server struct {
	name      string
	cfg       ServerConfig
	transport string
	prefix    string
	gen       int // bumped on every (re)connect, so a stale dial is discarded
	state     State
	err       error
	conn      *conn
	tools     []tools.Tool
	skipped   []SkippedTool
}

// NewManager returns a Manager with no servers.
func NewManager(opts Options) *Manager {
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	m := &Manager{opts: opts, lookup: opts.Lookup, servers: map[string]*server{}}
	if m.lookup == nil {
		m.lookup = os.LookupEnv
	}
	version := opts.ClientVersion
	if version == "" {
		version = "dev"
	}
	m.client = sdk.NewClient(&sdk.Implementation{Name: "workbench", Version: version}, &sdk.ClientOptions{
		// Workbench offers servers no roots, sampling or elicitation.
		Capabilities:                &sdk.ClientCapabilities{},
		ProgressNotificationHandler: m.progress.handle,
	})
	m.ctx, m.cancel = context.WithCancel(context.Background())
	return m
}

// Start connects to every server of cfg in parallel and lists its tools,
// returning when each one is ready or has failed; failures are recorded in
// Servers, not returned, so one broken server never stops the others (H12).
// Servers are registered as starting before any connects, so a UI that runs
// Start in the background can show them at once. A name that is already
// managed is stopped and replaced by the new entry; other servers are left
// alone, so settings servers and, once trusted, project servers can be
// started by separate calls. ctx bounds the start, not the servers' lives.
func (m *Manager) Start(ctx context.Context, cfg Config) {
	names := make([]string, 0, len(cfg))
	for name := range cfg {
		names = append(names, name)
	}
	slices.Sort(names)

	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	var old []*conn
	var dials []func()
	for _, name := range names {
		if prev := m.servers[name]; prev != nil && prev.conn != nil {
			old = append(old, prev.conn)
		}
		s := &server{name: name, cfg: cfg[name], state: StateStarting}
		m.servers[name] = s
		m.prepare(s)
		if s.state == StateStarting {
			dials = append(dials, m.dialLocked(ctx, s))
		}
	}
	m.mu.Unlock()

	closeAll(old)
	var wg sync.WaitGroup
	for _, d := range dials {
		wg.Go(d)
	}
	wg.Wait()
}

// Reconnect stops a server and starts it again from its entry, for
// `/mcp reconnect` after the person fixed what was wrong. It returns the
// start error, which is also recorded in Servers.
func (m *Manager) Reconnect(ctx context.Context, name string) error {
	m.mu.Lock()
	s := m.servers[name]
	switch {
	case m.closed:
		m.mu.Unlock()
		return errors.New("MCP servers are shut down")
	case s == nil:
		m.mu.Unlock()
		return fmt.Errorf("no MCP server named %q", name)
	}
	old := s.conn
	s.conn, s.state, s.err = nil, StateStarting, nil
	m.prepare(s)
	var dial func()
	if s.state == StateStarting {
		dial = m.dialLocked(ctx, s)
	}
	m.mu.Unlock()

	closeAll([]*conn{old})
	if dial != nil {
		dial()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return s.err
}

// prepare checks an entry and claims its tool prefix, failing the server
// when either is wrong. Called with m.mu held.
func (m *Manager) prepare(s *server) {
	s.transport, s.err = s.cfg.Transport()
	if s.err != nil {
		s.state = StateFailed
		return
	}
	s.prefix = ""
	p := ToolPrefix(s.name)
	if p == "" {
		s.state, s.err = StateFailed, fmt.Errorf("server name %q has no characters usable in a tool name ([A-Za-z0-9_-])", s.name)
		return
	}
	// The first server to claim a prefix keeps it; Start prepares servers
	// by name, so which one wins does not depend on map order.
	for _, other := range m.servers {
		if other != s && other.prefix == p {
			s.state, s.err = StateFailed, fmt.Errorf("its tools would be named %s*, like those of server %q; rename one of them", p, other.name)
			return
		}
	}
	s.prefix = p
}

// dialLocked returns the work of connecting s, counted in m.wg so Close
// waits for it. Called with m.mu held and m.closed false.
func (m *Manager) dialLocked(ctx context.Context, s *server) func() {
	s.gen++
	gen, transport, cfg, name, prefix := s.gen, s.transport, s.cfg, s.name, s.prefix
	m.wg.Add(1)
	return func() {
		defer m.wg.Done()
		ctx, cancel := context.WithTimeout(ctx, m.opts.StartTimeout)
		defer cancel()
		stop := context.AfterFunc(m.ctx, cancel)
		defer stop()

		c, err := m.dial(ctx, transport, cfg)
		var listed []tools.Tool
		var skipped []SkippedTool
		if err == nil {
			listed, skipped, err = m.listTools(ctx, name, prefix, c)
			if err != nil {
				c.close()
				c = nil
			}
		}
		if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %s: %w", m.opts.StartTimeout, err)
		}

		m.mu.Lock()
		if m.closed || s.gen != gen || m.servers[s.name] != s {
			m.mu.Unlock()
			if c != nil {
				c.close()
			}
			return
		}
		if err != nil {
			s.state, s.err = StateFailed, err
		} else {
			s.state, s.err, s.conn, s.tools, s.skipped = StateReady, nil, c, listed, skipped
			m.wg.Add(1)
			go m.watch(s, c)
		}
		m.mu.Unlock()
	}
}

// watch marks a server failed when its session ends without being asked
// to (a stdio server that crashed), and kills what it left behind.
func (m *Manager) watch(s *server, c *conn) {
	defer m.wg.Done()
	_ = c.session.Wait()
	close(c.done)
	if c.closing.Load() {
		return
	}
	killGroup(c.pid)
	c.freeSandbox()
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.conn == c && s.state == StateReady {
		s.state, s.err = StateFailed, withStderr(errors.New("the server stopped"), c.stderr)
	}
}

// Servers returns the status of every configured server, by name.
func (m *Manager) Servers() []ServerStatus {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]ServerStatus, 0, len(m.servers))
	for _, s := range m.servers {
		st := ServerStatus{Name: s.name, State: s.state, Err: s.err, Transport: s.transport,
			Prefix: s.prefix, Skipped: slices.Clone(s.skipped)}
		for _, t := range s.tools {
			st.Tools = append(st.Tools, t.Name())
		}
		out = append(out, st)
	}
	slices.SortFunc(out, func(a, b ServerStatus) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// Tools returns the tools of every server whose last start listed them, by
// server name and then in the server's order. A server that died later keeps
// its tools, so a call explains the failure instead of the tool vanishing
// from under the model.
func (m *Manager) Tools() []tools.Tool {
	m.mu.Lock()
	defer m.mu.Unlock()
	names := make([]string, 0, len(m.servers))
	for n := range m.servers {
		names = append(names, n)
	}
	slices.Sort(names)
	var out []tools.Tool
	for _, n := range names {
		out = append(out, m.servers[n].tools...)
	}
	return out
}

// Close stops every server and waits until all are gone, descendants
// included; starts still in flight are abandoned. The Manager cannot be
// used again.
func (m *Manager) Close() {
	m.cancel()
	m.mu.Lock()
	m.closed = true
	var conns []*conn
	for _, s := range m.servers {
		if s.conn != nil {
			conns = append(conns, s.conn)
		}
	}
	m.mu.Unlock()
	closeAll(conns)
	m.wg.Wait()
}

// closeAll closes connections in parallel, so quitting takes as long as the
// slowest server rather than their sum.
func closeAll(conns []*conn) {
	var wg sync.WaitGroup
	for _, c := range conns {
		if c != nil {
			wg.Go(c.close)
		}
	}
	wg.Wait()
}
