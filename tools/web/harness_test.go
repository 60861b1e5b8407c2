package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/web"
)

// origin is a local test server that counts the requests it gets, so a
// test can prove a request never reached it.
type origin struct {
	*httptest.Server
	hits atomic.Int64
}

func newOrigin(t *testing.T, h http.HandlerFunc) *origin {
	t.Helper()
	o := &origin{}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(o.Close)
	return o
}

func newTLSOrigin(t *testing.T, h http.HandlerFunc) *origin {
	t.Helper()
	o := &origin{}
	o.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.hits.Add(1)
		h(w, r)
	}))
	// Refused handshakes are what some tests expect; keep them out of the log.
	o.Config.ErrorLog = log.New(io.Discard, "", 0)
	o.StartTLS()
	t.Cleanup(o.Close)
	return o
}

// port is the port the server listens on.
func (o *origin) port() string {
	u, _ := url.Parse(o.URL)
	return u.Port()
}

// addr is the server's real listening address.
func (o *origin) addr() string { return o.Listener.Addr().String() }

// internet stands in for DNS and routing: names resolve to the answers a
// test sets (in order, the last one repeating, like a rebinding server),
// and fake public addresses route to local test servers. Loopback
// addresses are dialled for real, so a client that re-resolves and lands on
// loopback really reaches the test's secret server.
type internet struct {
	mu      sync.Mutex
	names   map[string][][]netip.Addr
	lookups map[string]int
	routes  map[netip.Addr]string
	dialed  []string
}

func newInternet() *internet {
	return &internet{names: map[string][][]netip.Addr{}, lookups: map[string]int{}, routes: map[netip.Addr]string{}}
}

// name sets the answers for host, one per lookup.
func (n *internet) name(host string, answers ...string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, a := range answers {
		var set []netip.Addr
		for _, s := range splitComma(a) {
			set = append(set, netip.MustParseAddr(s))
		}
		n.names[host] = append(n.names[host], set)
	}
}

// route makes the fake public address ip lead to a test server.
func (n *internet) route(ip string, o *origin) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.routes[netip.MustParseAddr(ip)] = o.addr()
}

func (n *internet) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	answers := n.names[host]
	if len(answers) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	i := min(n.lookups[host], len(answers)-1)
	n.lookups[host]++
	return append([]netip.Addr(nil), answers[i]...), nil
}

func (n *internet) lookupCount(host string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.lookups[host]
}

func (n *internet) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	n.mu.Lock()
	n.dialed = append(n.dialed, addr)
	target := addr
	if ap, err := netip.ParseAddrPort(addr); err == nil {
		if real, ok := n.routes[ap.Addr()]; ok {
			target = real
		} else if !ap.Addr().IsLoopback() {
			n.mu.Unlock()
			return nil, fmt.Errorf("test internet: no route to %s", addr)
		}
	}
	n.mu.Unlock()
	var d net.Dialer
	return d.DialContext(ctx, network, target)
}

func (n *internet) dials() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.dialed...)
}

// config wires the fake DNS and routing into cfg.
func (n *internet) config(cfg web.FetchConfig) web.FetchConfig {
	cfg.Resolver = n
	return web.WithDial(cfg, n.dial)
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

// fetch runs WebFetch as the pipeline does (schema first) and decodes its
// record.
func fetch(t *testing.T, cfg web.FetchConfig, input map[string]any) (tools.Result, web.FetchRecord) {
	t.Helper()
	tool := web.WebFetch(cfg)
	raw, _ := json.Marshal(input)
	in, err := tool.Schema().Prepare(raw)
	if err != nil {
		t.Fatalf("Prepare(%s): %v", raw, err)
	}
	res, err := tool.Call(context.Background(), in, &tools.Context{WorkDir: t.TempDir()})
	if err != nil {
		t.Fatalf("Call(%s): %v", raw, err)
	}
	var rec web.FetchRecord
	if len(res.Meta) > 0 {
		if err := json.Unmarshal(res.Meta, &rec); err != nil {
			t.Fatalf("Meta %s: %v", res.Meta, err)
		}
	}
	return res, rec
}

// get is fetch with only a URL.
func get(t *testing.T, cfg web.FetchConfig, u string) (tools.Result, web.FetchRecord) {
	t.Helper()
	return fetch(t, cfg, map[string]any{"url": u})
}
