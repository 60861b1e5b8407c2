package sandbox

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// loopbackServer serves "reached" on 127.0.0.1, standing in for a host on
// the internet.
func loopbackServer(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "reached "+r.Host)
	}))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	return srv, port
}

// tcpProbe is a script that connects to 127.0.0.1:port with bash alone.
func tcpProbe(port string) string {
	return `exec 3<>/dev/tcp/127.0.0.1/` + port + ` && printf 'GET / HTTP/1.0\r\nHost: x\r\n\r\n' >&3 && cat <&3`
}

func TestH16_NetworkClosedByDefault(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	_, port := loopbackServer(t)
	s := newSandbox(t, f.policy(), Options{})
	if out := mustFail(t, s, f.ws, tcpProbe(port)); strings.Contains(out, "reached") {
		t.Errorf("reached the host's server: %s", out)
	}
	if d := s.Describe(); d.Network != NetNone {
		t.Errorf("Describe = %+v, want network none", d)
	}
	// The namespace's own loopback works, so tests that serve locally pass.
	mustPass(t, s, f.ws, `python3 -c "
import socket
s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(1)
c = socket.create_connection(s.getsockname()); a, _ = s.accept(); c.send(b'ok'); assert a.recv(2) == b'ok'"`)
}

func TestH16_NetworkOpenedBySetting(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	_, port := loopbackServer(t)
	p := f.policy()
	p.Network = true
	s := newSandbox(t, p, Options{})
	if out := mustPass(t, s, f.ws, tcpProbe(port)); !strings.Contains(out, "reached") {
		t.Errorf("the open network did not reach the server: %s", out)
	}
	if d := s.Describe(); d.Network != NetOpen {
		t.Errorf("Describe = %+v, want network open", d)
	}
}

func TestH16_AllowedDomainsGoThroughTheProxy(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	_, port := loopbackServer(t)
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "secure "+r.Host)
	}))
	defer tlsSrv.Close()
	_, tlsPort, _ := net.SplitHostPort(tlsSrv.Listener.Addr().String())
	var mu sync.Mutex
	var dialled, refused []string
	p := f.policy()
	p.AllowedDomains = []string{"allowed.test", "*.wild.test"}
	s := newSandbox(t, p, Options{
		// The stand-in for WebFetch's checked dialer: every allowed name
		// is this machine's loopback server.
		Dial: func(ctx context.Context, host, port string) (net.Conn, error) {
			mu.Lock()
			dialled = append(dialled, host+":"+port)
			mu.Unlock()
			var d net.Dialer
			return d.DialContext(ctx, "tcp", "127.0.0.1:"+port)
		},
	})
	s.proxy.Refused = func(host string, why error) {
		mu.Lock()
		refused = append(refused, host)
		mu.Unlock()
	}
	if d := s.Describe(); d.Network != NetDomains {
		t.Errorf("Describe = %+v, want allowed-domains", d)
	}
	fetch := func(url string) string {
		return `python3 -c "
import urllib.request, ssl, sys
ctx = ssl._create_unverified_context()
try:
    print(urllib.request.urlopen('` + url + `', context=ctx, timeout=10).read().decode())
except Exception as e:
    print('refused', e); sys.exit(1)"`
	}
	if out := mustPass(t, s, f.ws, fetch("http://allowed.test:"+port+"/")); !strings.Contains(out, "reached allowed.test") {
		t.Errorf("plain http to an allowed domain: %s", out)
	}
	if out := mustPass(t, s, f.ws, fetch("https://a.wild.test:"+tlsPort+"/")); !strings.Contains(out, "secure a.wild.test") {
		t.Errorf("https (CONNECT) to an allowed subdomain: %s", out)
	}
	for _, url := range []string{
		"http://denied.test:" + port + "/",
		"https://wild.test:" + tlsPort + "/", // *.wild.test is the subdomains only
		"http://allowed.test.evil.test:" + port + "/",
		"http://127.0.0.1:" + port + "/",
	} {
		if out := mustFail(t, s, f.ws, fetch(url)); strings.Contains(out, "reached") || strings.Contains(out, "secure") {
			t.Errorf("%s went through: %s", url, out)
		}
	}
	// Going around the proxy reaches nothing.
	if out := mustFail(t, s, f.ws, tcpProbe(port)); strings.Contains(out, "reached") {
		t.Errorf("a direct connection got out: %s", out)
	}
	if out := mustPass(t, s, f.ws, `curl -s http://denied.test:`+port+`/ -o /dev/stdout -w ' %{http_code}'`); !strings.Contains(out, "sandbox.allowedDomains") || !strings.Contains(out, "403") {
		t.Errorf("a refused domain is not explained: %s", out)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, d := range dialled {
		if !strings.HasPrefix(d, "allowed.test:") && !strings.HasPrefix(d, "a.wild.test:") {
			t.Errorf("the proxy dialled %s", d)
		}
	}
	if len(refused) < 4 {
		t.Errorf("refusals recorded: %v", refused)
	}
}

func TestProxyAllowedMatchesDomainsExactly(t *testing.T) {
	t.Parallel()
	p := &Proxy{Domains: []string{"Example.com", "*.npmjs.org"}}
	for host, want := range map[string]bool{
		"example.com": true, "EXAMPLE.com.": true, "www.example.com": false,
		"registry.npmjs.org": true, "npmjs.org": false, "evilnpmjs.org": false,
		"npmjs.org.evil.com": false, "": false,
	} {
		if got := p.Allowed(host); got != want {
			t.Errorf("Allowed(%q) = %v, want %v", host, got, want)
		}
	}
}
