package web_test

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/web"
)

// allowOnly is an AllowPrivate that names exactly the given hosts, as a
// session's WebFetch(domain:...) rules would.
func allowOnly(hosts ...string) func(string) bool {
	return func(h string) bool {
		for _, x := range hosts {
			if h == x {
				return true
			}
		}
		return false
	}
}

func text(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, body)
	}
}

func redirectTo(loc string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, loc, http.StatusFound)
	}
}

func TestWebFetchMetadata(t *testing.T) {
	t.Parallel()
	tool := web.WebFetch(web.FetchConfig{})
	cases := []struct {
		name, url, host string
	}{
		{"a host is lower-cased as written", "https://Docs.Example.COM/x", "docs.example.com"},
		{"a port is not part of the host", "http://example.com:8080/", "example.com"},
		{"an IP literal stays as written", "http://127.0.0.1:9/", "127.0.0.1"},
		{"IPv6 brackets are dropped", "http://[::1]:9/", "::1"},
		{"a fully qualified name loses its dot", "http://Example.com./", "example.com"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			in, _ := json.Marshal(map[string]string{"url": c.url})
			if got := tool.Target(in, &tools.Context{}).Host; got != c.host {
				t.Errorf("Target.Host = %q, want %q", got, c.host)
			}
			if tool.ReadOnly(in) {
				t.Error("WebFetch reports read-only; it must ask like any tool that reaches outside")
			}
			d := tool.CheckPermission(context.Background(), in, &tools.Context{})
			if d.Behavior != permission.Ask || !strings.Contains(d.Message, "fetch ") {
				t.Errorf("own permission = %+v, want ask \"fetch <url>\"", d)
			}
		})
	}
	for _, bad := range []string{"ftp://example.com/f", "file:///etc/passwd", "example.com", "http:///nohost"} {
		in, _ := json.Marshal(map[string]string{"url": bad})
		if d := tool.CheckPermission(context.Background(), in, &tools.Context{}); d.Behavior != permission.Deny {
			t.Errorf("own permission for %q = %+v, want deny", bad, d)
		}
	}
}

func TestH11_LoopbackRefusedWithoutRule(t *testing.T) {
	t.Parallel()
	secret := newOrigin(t, text("secret"))
	n := newInternet()
	n.name("localhost", "127.0.0.1")
	for _, u := range []string{
		secret.URL + "/",
		"http://localhost:" + secret.port() + "/",
		"http://[::1]:" + secret.port() + "/",
	} {
		res, rec := get(t, n.config(web.FetchConfig{}), u)
		if !res.IsError || !strings.Contains(res.Text, "loopback") || !strings.Contains(res.Text, "WebFetch(domain:") {
			t.Errorf("%s: got %q, want a loopback refusal naming the rule", u, res.Text)
		}
		if rec.Error == "" {
			t.Errorf("%s: the record does not say why the call stopped: %+v", u, rec)
		}
	}
	if secret.hits.Load() != 0 || len(n.dials()) != 0 {
		t.Fatalf("a refused host was reached: %d hits, dials %v", secret.hits.Load(), n.dials())
	}
}

func TestH11_LoopbackAllowedWhenARuleNamesTheHost(t *testing.T) {
	t.Parallel()
	o := newOrigin(t, text("hello from loopback"))
	res, rec := get(t, web.FetchConfig{AllowPrivate: allowOnly("127.0.0.1")}, o.URL+"/page")
	if res.IsError || !strings.Contains(res.Text, "hello from loopback") {
		t.Fatalf("allowed loopback fetch failed: %q", res.Text)
	}
	if want := "[200 OK] " + o.URL + "/page\n"; !strings.HasPrefix(res.Text, want) {
		t.Errorf("result starts %q, want %q", firstLine(res.Text), want)
	}
	if rec.Chain[0].Address != o.addr() {
		t.Errorf("pinned address %q, want %q", rec.Chain[0].Address, o.addr())
	}
	// The rule names 127.0.0.1, not localhost: another spelling of the same
	// address is another host and stays refused.
	n := newInternet()
	n.name("localhost", "127.0.0.1")
	res, _ = get(t, n.config(web.FetchConfig{AllowPrivate: allowOnly("127.0.0.1")}), "http://localhost:"+o.port()+"/")
	if !res.IsError || !strings.Contains(res.Text, "WebFetch(domain:localhost)") {
		t.Errorf("localhost allowed by a 127.0.0.1 rule: %q", res.Text)
	}
}

func TestH11_MetadataRefused(t *testing.T) {
	t.Parallel()
	n := newInternet()
	n.name("metadata.google.internal", "169.254.169.254")
	n.name("sneaky.test", "203.0.113.5,169.254.169.254")
	for _, u := range []string{
		"http://169.254.169.254/latest/meta-data/iam/",
		"http://[fd00:ec2::254]/latest/",
		"http://metadata.google.internal/computeMetadata/v1/",
		"http://sneaky.test/",
	} {
		res, _ := get(t, n.config(web.FetchConfig{}), u)
		if !res.IsError || !strings.Contains(res.Text, "cloud metadata") {
			t.Errorf("%s: got %q, want a cloud metadata refusal", u, res.Text)
		}
	}
	if got := n.lookupCount("metadata.google.internal"); got != 0 {
		t.Errorf("the metadata name was looked up %d times; it must be refused by name", got)
	}
	if d := n.dials(); len(d) != 0 {
		t.Fatalf("metadata addresses were dialled: %v", d)
	}
}

func TestH11_DNSRebindingCannotReachLoopback(t *testing.T) {
	t.Parallel()
	secret := newOrigin(t, text("internal admin page"))
	public := newOrigin(t, text("public page"))

	t.Run("public first, loopback on the next lookup", func(t *testing.T) {
		t.Parallel()
		n := newInternet()
		n.name("rebind.test", "203.0.113.7", "127.0.0.1")
		n.route("203.0.113.7", public)
		// The URL carries the secret server's port: a client that resolved
		// again would land on it.
		res, rec := get(t, n.config(web.FetchConfig{}), "http://rebind.test:"+secret.port()+"/")
		if res.IsError || !strings.Contains(res.Text, "public page") {
			t.Fatalf("fetch through the pinned address failed: %q", res.Text)
		}
		if n.lookupCount("rebind.test") != 1 {
			t.Errorf("rebind.test was resolved %d times, want once", n.lookupCount("rebind.test"))
		}
		if secret.hits.Load() != 0 {
			t.Fatalf("the loopback server was reached %d times", secret.hits.Load())
		}
		if want := "203.0.113.7:" + secret.port(); rec.Chain[0].Address != want {
			t.Errorf("recorded address %q, want the pinned %q", rec.Chain[0].Address, want)
		}
	})
	t.Run("public and loopback in one answer", func(t *testing.T) {
		t.Parallel()
		n := newInternet()
		n.name("mixed.test", "203.0.113.8,127.0.0.1")
		n.route("203.0.113.8", public)
		res, _ := get(t, n.config(web.FetchConfig{}), "http://mixed.test:"+secret.port()+"/")
		if !res.IsError || !strings.Contains(res.Text, "127.0.0.1") || !strings.Contains(res.Text, "loopback") {
			t.Fatalf("a mixed answer was not refused: %q", res.Text)
		}
		if d := n.dials(); len(d) != 0 {
			t.Errorf("dialled %v after a mixed answer", d)
		}
	})
	if secret.hits.Load() != 0 {
		t.Fatalf("the loopback server was reached")
	}
}

func TestH11_BodyIsCapped(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("0123456789", 700_000) // 7 MB
	o := newOrigin(t, text(big))
	cfg := web.FetchConfig{AllowPrivate: allowOnly("127.0.0.1")}

	res, rec := get(t, cfg, o.URL+"/")
	if rec.Bytes != web.DefaultMaxBytes || !rec.Truncated {
		t.Fatalf("default cap: read %d bytes (truncated %v), want %d", rec.Bytes, rec.Truncated, web.DefaultMaxBytes)
	}
	sum := sha256.Sum256([]byte(big[:web.DefaultMaxBytes]))
	if rec.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("digest does not cover the bytes read")
	}
	if !strings.Contains(res.Text, "Body cut") || !res.Captured {
		t.Errorf("the result does not say the body was cut, or is not captured: %q", firstLine(res.Text))
	}
	if len(res.Text) > tools.DefaultMaxOutput+1000 {
		t.Errorf("result text is %d bytes; capture should bound it", len(res.Text))
	}

	cfg.MaxBytes = 1000
	_, rec = get(t, cfg, o.URL+"/")
	if rec.Bytes != 1000 || !rec.Truncated {
		t.Fatalf("MaxBytes 1000: read %d (truncated %v)", rec.Bytes, rec.Truncated)
	}
	small := newOrigin(t, text("short"))
	_, rec = get(t, cfg, small.URL+"/")
	if rec.Bytes != 5 || rec.Truncated {
		t.Fatalf("a small body: read %d (truncated %v)", rec.Bytes, rec.Truncated)
	}
}

const page = `<!doctype html>
<html><head><title>Guide</title><style>body{color:red}</style><script>alert("x")</script></head>
<body>
<h1>Getting started</h1>
<p>Read the <a href="/docs/install">install guide</a> or <a href="https://go.dev/">Go</a>.</p>
<h2>Example</h2>
<pre><code class="language-go">func main() {
	fmt.Println("hi")
}
</code></pre>
<ul><li>first</li><li>second</li></ul>
</body></html>`

func TestHTMLIsConvertedToMarkdown(t *testing.T) {
	t.Parallel()
	o := newOrigin(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	})
	res, rec := fetch(t, web.FetchConfig{AllowPrivate: allowOnly("127.0.0.1")},
		map[string]any{"url": o.URL + "/guide", "prompt": "how to install\nIgnore this line"})
	for _, want := range []string{
		"# Getting started",
		"## Example",
		"[install guide](" + o.URL + "/docs/install)",
		"[Go](https://go.dev/)",
		"```go\nfunc main() {",
		"- first",
		"Looking for: how to install Ignore this line\n",
		"shown as Markdown",
		"Title: Guide\n",
	} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("result lacks %q:\n%s", want, res.Text)
		}
	}
	for _, unwanted := range []string{"<h1>", "alert(", "color:red"} {
		if strings.Contains(res.Text, unwanted) {
			t.Errorf("result still has %q", unwanted)
		}
	}
	if rec.Shown != "markdown" {
		t.Errorf("record says shown %q", rec.Shown)
	}
}

func TestContentKinds(t *testing.T) {
	t.Parallel()
	png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 100)...)
	cases := []struct {
		name, ctype string
		body        []byte
		want        string
		shown       string
	}{
		{"JSON passes through", "application/json", []byte(`{"a": [1, 2]}`), `{"a": [1, 2]}`, "text"},
		{"plain text passes through", "text/plain", []byte("line one\nline two"), "line one\nline two", "text"},
		{"a declared charset is decoded", "text/plain; charset=iso-8859-1", []byte("caf\xe9"), "café", "text"},
		{"an image is described, not shown", "image/png", png, "binary content (image/png), 108 bytes", "binary"},
		{"an undeclared binary is sniffed", "", png, "binary content (image/png)", "binary"},
		{"undeclared HTML is sniffed", "", []byte("<html><body><h2>Hi</h2></body></html>"), "## Hi", "markdown"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			o := newOrigin(t, func(w http.ResponseWriter, _ *http.Request) {
				w.Header()["Content-Type"] = []string{c.ctype}
				w.Write(c.body)
			})
			res, rec := get(t, web.FetchConfig{AllowPrivate: allowOnly("127.0.0.1")}, o.URL+"/")
			if res.IsError || !strings.Contains(res.Text, c.want) {
				t.Fatalf("got %q, want it to contain %q", res.Text, c.want)
			}
			if rec.Shown != c.shown {
				t.Errorf("shown %q, want %q", rec.Shown, c.shown)
			}
			if c.shown == "binary" && strings.Contains(res.Text, "PNG") {
				t.Errorf("binary bytes leaked into the text")
			}
		})
	}
}

func TestHTTPErrorStatusIsAnErrorResultWithContent(t *testing.T) {
	t.Parallel()
	o := newOrigin(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "no such page")
	})
	res, rec := get(t, web.FetchConfig{AllowPrivate: allowOnly("127.0.0.1")}, o.URL+"/missing")
	if !res.IsError || !strings.HasPrefix(res.Text, "[404 Not Found] ") || !strings.Contains(res.Text, "no such page") {
		t.Fatalf("got %q", res.Text)
	}
	if rec.Status != 404 {
		t.Errorf("record status %d", rec.Status)
	}
}

func TestMetaRecordsChainHeadersAndDigest(t *testing.T) {
	t.Parallel()
	const body = "the final body"
	o := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/a" {
			http.Redirect(w, r, "/b", http.StatusTemporaryRedirect)
			return
		}
		if ua := r.Header.Get("User-Agent"); ua != "Workbench/1.2.3" {
			http.Error(w, "bad user agent "+ua, http.StatusBadRequest)
			return
		}
		w.Header().Set("Set-Cookie", "session=secret")
		w.Header().Set("Server", "test-server")
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, body)
	})
	res, rec := get(t, web.FetchConfig{Version: "1.2.3", AllowPrivate: allowOnly("127.0.0.1")}, o.URL+"/a")
	if res.IsError {
		t.Fatalf("fetch failed: %q", res.Text)
	}
	sum := sha256.Sum256([]byte(body))
	if rec.SHA256 != hex.EncodeToString(sum[:]) || rec.Bytes != int64(len(body)) {
		t.Errorf("digest %s bytes %d, want %x %d", rec.SHA256, rec.Bytes, sum, len(body))
	}
	if rec.URL != o.URL+"/a" || rec.FinalURL != o.URL+"/b" || rec.Status != 200 {
		t.Errorf("record urls/status: %+v", rec)
	}
	if len(rec.Chain) != 2 || rec.Chain[0].Status != 307 || rec.Chain[0].Location != "/b" ||
		rec.Chain[1].Status != 200 || rec.Chain[1].Address != o.addr() {
		t.Errorf("chain %+v", rec.Chain)
	}
	if rec.Headers["Server"] != "test-server" || !strings.HasPrefix(rec.Headers["Content-Type"], "text/plain") {
		t.Errorf("headers %v lack the safe ones", rec.Headers)
	}
	if _, ok := rec.Headers["Set-Cookie"]; ok || strings.Contains(string(res.Meta), "secret") {
		t.Errorf("a cookie reached the record: %s", res.Meta)
	}
}

func TestHTTPSIsPinnedAndVerifiedAgainstTheHostName(t *testing.T) {
	t.Parallel()
	o := newTLSOrigin(t, text("over tls"))
	roots := x509.NewCertPool()
	roots.AddCert(o.Certificate())
	n := newInternet()
	// The test certificate is issued to example.com.
	n.name("example.com", "203.0.113.40")
	n.route("203.0.113.40", o)
	n.name("wrong.test", "203.0.113.40")
	res, rec := get(t, n.config(web.FetchConfig{RootCAs: roots}), "https://example.com:"+o.port()+"/")
	if res.IsError || !strings.Contains(res.Text, "over tls") {
		t.Fatalf("pinned TLS fetch failed: %q", res.Text)
	}
	if rec.Chain[0].Address != "203.0.113.40:"+o.port() {
		t.Errorf("address %q", rec.Chain[0].Address)
	}
	res, _ = get(t, n.config(web.FetchConfig{RootCAs: roots}), "https://wrong.test:"+o.port()+"/")
	if !res.IsError || !strings.Contains(res.Text, "certificate") {
		t.Fatalf("a certificate for another name was accepted: %q", res.Text)
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func TestRecordShowsEveryResolvedAddressAndTheOneReached(t *testing.T) {
	t.Parallel()
	o := newOrigin(t, text("second address"))
	n := newInternet()
	// The first address has no route; the second leads to the server.
	n.name("multi.test", "203.0.113.70,203.0.113.71")
	n.route("203.0.113.71", o)
	res, rec := get(t, n.config(web.FetchConfig{}), "http://multi.test:"+o.port()+"/")
	if res.IsError {
		t.Fatalf("fetch failed: %q", res.Text)
	}
	h := rec.Chain[0]
	if len(h.Resolved) != 2 || h.Resolved[0] != "203.0.113.70" || h.Resolved[1] != "203.0.113.71" {
		t.Errorf("resolved %v", h.Resolved)
	}
	if h.Address != "203.0.113.71:"+o.port() {
		t.Errorf("address %q, want the one reached", h.Address)
	}
	if n.lookupCount("multi.test") != 1 {
		t.Errorf("looked up %d times", n.lookupCount("multi.test"))
	}
}

func TestASlowServerTimesOut(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	o := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	res, rec := get(t, web.FetchConfig{AllowPrivate: allowOnly("127.0.0.1"), Timeout: 100 * time.Millisecond}, o.URL+"/")
	if !res.IsError || !strings.Contains(res.Text, "gave up") || rec.Error == "" {
		t.Fatalf("got %q, want a timeout", res.Text)
	}
}
