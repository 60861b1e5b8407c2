package web_test

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/tools/web"
)

func TestH11_ProxyFailureIsAnErrorNeverADirectRetry(t *testing.T) {
	t.Parallel()
	o := newOrigin(t, text("origin"))
	tlsOrigin := newTLSOrigin(t, text("origin"))
	n := newInternet()
	n.name("origin.test", "203.0.113.50")
	n.route("203.0.113.50", o)
	n.name("secure.test", "203.0.113.51")
	n.route("203.0.113.51", tlsOrigin)

	dead, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadURL := "http://" + dead.Addr().String()
	dead.Close()

	refusing := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "proxy says no", http.StatusForbidden)
	})

	cases := []struct {
		name, proxy, url string
	}{
		{"a dead proxy, http target", deadURL, "http://origin.test:" + o.port() + "/"},
		{"a dead proxy, https target", deadURL, "https://secure.test:" + tlsOrigin.port() + "/"},
		{"a proxy refusing CONNECT", refusing.URL, "https://secure.test:" + tlsOrigin.port() + "/"},
	}
	for _, c := range cases {
		res, rec := get(t, n.config(web.FetchConfig{Proxy: c.proxy}), c.url)
		if !res.IsError || !strings.Contains(res.Text, "through proxy") || !strings.Contains(res.Text, "not retried") {
			t.Errorf("%s: got %q, want a proxy error", c.name, res.Text)
		}
		if len(rec.Chain) != 1 || rec.Chain[0].Proxy == "" || rec.Chain[0].Address != "" {
			t.Errorf("%s: chain %+v, want one proxied hop", c.name, rec.Chain)
		}
	}
	if o.hits.Load() != 0 || tlsOrigin.hits.Load() != 0 {
		t.Fatalf("the origin was reached directly after a proxy failure (%d, %d hits)", o.hits.Load(), tlsOrigin.hits.Load())
	}
	for _, d := range n.dials() {
		if strings.HasPrefix(d, "203.0.113.") {
			t.Fatalf("the origin's address was dialled: %v", n.dials())
		}
	}
}

func TestProxyIsUsedAndTheTargetStillChecked(t *testing.T) {
	t.Parallel()
	o := newOrigin(t, text("origin"))
	var seen []string
	proxy := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.URL.String())
		fmt.Fprint(w, "answered by the proxy")
	})
	n := newInternet()
	n.name("origin.test", "203.0.113.60")
	n.route("203.0.113.60", o)
	n.name("intranet.test", "10.0.0.7")

	res, rec := get(t, n.config(web.FetchConfig{Proxy: proxy.URL}), "http://origin.test:"+o.port()+"/x")
	if res.IsError || !strings.Contains(res.Text, "answered by the proxy") {
		t.Fatalf("proxied fetch: %q", res.Text)
	}
	if o.hits.Load() != 0 || len(seen) != 1 || seen[0] != "http://origin.test:"+o.port()+"/x" {
		t.Errorf("origin hits %d, proxy saw %v", o.hits.Load(), seen)
	}
	if rec.Chain[0].Proxy != proxy.URL || rec.Chain[0].Address != "" {
		t.Errorf("hop %+v", rec.Chain[0])
	}

	// The proxy sits on loopback and is allowed; the target's name is still
	// judged, so an intranet host is refused before the proxy is asked.
	res, _ = get(t, n.config(web.FetchConfig{Proxy: proxy.URL}), "http://intranet.test/")
	if !res.IsError || !strings.Contains(res.Text, "private") {
		t.Fatalf("intranet host through a proxy: %q", res.Text)
	}
	if len(seen) != 1 {
		t.Fatalf("the proxy was asked for a refused host: %v", seen)
	}
}

func TestInvalidProxySettingFailsEveryCall(t *testing.T) {
	t.Parallel()
	o := newOrigin(t, text("origin"))
	for _, p := range []string{"ftp://proxy.example", "://bad", "no-scheme"} {
		res, _ := get(t, web.FetchConfig{Proxy: p, AllowPrivate: allowOnly("127.0.0.1")}, o.URL+"/")
		if !res.IsError || !strings.Contains(res.Text, "proxy") {
			t.Errorf("proxy %q: got %q, want an error", p, res.Text)
		}
	}
	if o.hits.Load() != 0 {
		t.Fatalf("a call with a broken proxy setting went direct")
	}
}
