package web

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/http/httpproxy"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed fetch.md
var fetchPrompt string

const fetchSchema = `{
  "type": "object",
  "properties": {
    "url": {"type": "string", "minLength": 1, "description": "The http or https URL to fetch."},
    "prompt": {"type": "string", "description": "What you are looking for in the page; it is repeated at the top of the result so you remember why you fetched it."}
  },
  "required": ["url"],
  "additionalProperties": false
}`

// Tuning numbers of WebFetch.
const (
	// DefaultMaxBytes is the body read when FetchConfig.MaxBytes is zero:
	// large enough for long documentation pages, small enough that a huge
	// download cannot fill memory. The rest is cut with a notice.
	DefaultMaxBytes = 5 << 20
	// DefaultFetchTimeout bounds a whole call, redirects and body included,
	// so a slow server cannot hold a turn.
	DefaultFetchTimeout = 30 * time.Second
	// maxRedirects is how many redirects one call follows; each is checked
	// again like the first request.
	maxRedirects = 10
	// drainLimit is how much of a redirect's body is read before closing it.
	drainLimit = 64 << 10
	// maxHeaderBytes bounds response headers, which are not part of the
	// body cap.
	maxHeaderBytes = 1 << 20
	// tlsHandshakeTimeout keeps a stalled handshake from using the whole
	// call's time.
	tlsHandshakeTimeout = 10 * time.Second
)

// acceptHeader prefers formats the tool shows well.
const acceptHeader = "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5"

// FetchConfig is what the session decides for WebFetch. The zero value is
// safe: direct connections, no private address allowed, no redirect to
// another host followed, 5 MiB and 30 seconds.
type FetchConfig struct {
	// Version goes into the User-Agent, "Workbench/<version>".
	Version string
	// Resolver looks up host names; nil means net.DefaultResolver.
	Resolver Resolver
	// AllowPrivate reports whether host (as written in the URL, lower-cased,
	// IPv6 without brackets) may be fetched although it is or resolves to a
	// loopback, private, link-local, CGNAT, metadata or other non-public
	// address. The session wires it to its allow rules: true when a rule
	// names this host, such as WebFetch(domain:localhost) or
	// WebFetch(domain:127.0.0.1). It should not answer true for a wildcard
	// rule like WebFetch(domain:*), which was written for public hosts. Nil
	// allows none.
	AllowPrivate func(host string) bool
	// CheckRedirect decides whether a redirect may go to host, a host other
	// than those already approved for this call. The session wires it to its
	// permission policy: nil error when an allow rule covers
	// WebFetch(domain:host), an error saying why not otherwise. The fetch
	// then stops and the result names the host and the rule that would allow
	// it. Nil refuses every redirect to another host.
	CheckRedirect func(host string) error
	// Proxy is a proxy URL (http, https, socks5 or socks5h) for every
	// request. A proxy that fails makes the call fail; nothing is retried
	// without it. An invalid value makes every call fail and say so.
	Proxy string
	// ProxyFromEnvironment uses HTTPS_PROXY, HTTP_PROXY and NO_PROXY (read
	// when the tool is built) when Proxy is empty.
	ProxyFromEnvironment bool
	// RootCAs replaces the system roots, for a corporate CA; nil uses the
	// system's.
	RootCAs *x509.CertPool
	// MaxBytes caps the body read; 0 means DefaultMaxBytes.
	MaxBytes int64
	// Timeout bounds a call; 0 means DefaultFetchTimeout.
	Timeout time.Duration

	// dial connects sockets; tests set it (export_test.go) to stand in for
	// the internet. Nil means a net.Dialer.
	dial dialFunc
}

type fetchInput struct {
	URL    string `json:"url"`
	Prompt string `json:"prompt"`
}

// fetcher is a WebFetch tool's settled configuration.
type fetcher struct {
	cfg      FetchConfig
	scope    scope
	dial     dialFunc
	proxy    func(*url.URL) (*url.URL, error)
	proxyErr error
}

// WebFetch reads one web page for the model inside the address scope of
// H11: every host is resolved once and the connection pinned to the checked
// address; non-public addresses need a rule naming the host; each redirect
// is checked again for scheme, rule and address; the body is capped; and the
// call's chain, status, headers and body digest go into the result's Meta
// as a FetchRecord. It is not read-only, so a person approves each fetch
// unless a WebFetch(domain:...) rule allows the host.
func WebFetch(cfg FetchConfig) tools.Tool {
	f := newFetcher(cfg)
	return tools.Build(tools.Spec{
		Name:        "WebFetch",
		Description: "Fetch a web page or other http(s) URL and read it: HTML comes back as Markdown, JSON and text as they are. The result starts with the status and the final URL after redirects.",
		Prompt:      fetchPrompt,
		Schema:      fetchSchema,
		// Fetches change nothing locally, so several may run at once.
		ConcurrencySafe: tools.Always,
		Target:          fetchTarget,
		Permission:      fetchPermission,
		Run:             f.run,
	})
}

func newFetcher(cfg FetchConfig) *fetcher {
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultFetchTimeout
	}
	if cfg.Resolver == nil {
		cfg.Resolver = net.DefaultResolver
	}
	f := &fetcher{cfg: cfg, scope: scope{resolver: cfg.Resolver, allowPrivate: cfg.AllowPrivate}, dial: cfg.dial}
	if f.dial == nil {
		d := &net.Dialer{Timeout: cfg.Timeout}
		f.dial = d.DialContext
	}
	switch {
	case cfg.Proxy != "":
		p, err := url.Parse(cfg.Proxy)
		switch {
		case err != nil:
			f.proxyErr = fmt.Errorf("the configured proxy %q is not a URL: %w", cfg.Proxy, err)
		case p.Host == "" || !validProxyScheme(p.Scheme):
			f.proxyErr = fmt.Errorf("the configured proxy %s must be an http, https, socks5 or socks5h URL with a host", p.Redacted())
		default:
			f.proxy = func(*url.URL) (*url.URL, error) { return p, nil }
		}
	case cfg.ProxyFromEnvironment:
		f.proxy = httpproxy.FromEnvironment().ProxyFunc()
	}
	return f
}

func validProxyScheme(s string) bool {
	switch s {
	case "http", "https", "socks5", "socks5h":
		return true
	}
	return false
}

// parseURL accepts absolute http and https URLs with a host.
func parseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("%q is not a URL: %w", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%q is not an http or https URL; WebFetch fetches only those", raw)
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("%q has no host", raw)
	}
	return u, nil
}

// hostOf is the URL's host as rules match it: as written, lower-cased,
// IPv6 without brackets, without the trailing dot of a fully qualified name
// (the permission package drops it too, so both name the same host).
func hostOf(u *url.URL) string {
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
}

func fetchTarget(input json.RawMessage, _ *tools.Context) permission.Target {
	in, err := decode[fetchInput](input)
	if err != nil {
		return permission.Target{}
	}
	u, err := parseURL(in.URL)
	if err != nil {
		return permission.Target{}
	}
	return permission.Target{Host: hostOf(u)}
}

// fetchPermission asks before anything leaves the machine; a URL WebFetch
// would refuse anyway is denied at once so nobody approves a call that
// cannot run.
func fetchPermission(_ context.Context, input json.RawMessage, _ *tools.Context) permission.Decision {
	in, err := decode[fetchInput](input)
	if err != nil {
		return permission.Denied(err.Error())
	}
	u, err := parseURL(in.URL)
	if err != nil {
		return permission.Denied(err.Error())
	}
	return permission.AskUser("fetch " + u.String())
}

func (f *fetcher) run(ctx context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
	in, err := decode[fetchInput](input)
	if err != nil {
		return tools.Result{}, err
	}
	u, err := parseURL(in.URL)
	if err != nil {
		return tools.Error(err.Error()), nil
	}
	rec := &FetchRecord{URL: u.String()}
	if f.proxyErr != nil {
		return f.failed(rec, f.proxyErr), nil
	}
	ctx, cancel := context.WithTimeout(ctx, f.cfg.Timeout)
	defer cancel()

	resp, err := f.follow(ctx, u, rec)
	if err != nil {
		return f.failed(rec, err), nil
	}
	defer resp.Body.Close()
	body, truncated, err := readCapped(resp.Body, f.cfg.MaxBytes)
	if err != nil {
		return f.failed(rec, fmt.Errorf("reading the body of %s: %w", rec.FinalURL, err)), nil
	}
	sum := sha256.Sum256(body)
	rec.Status = resp.StatusCode
	rec.Headers = safeHeaders(resp.Header)
	rec.Bytes = int64(len(body))
	rec.Truncated = truncated
	rec.SHA256 = hex.EncodeToString(sum[:])

	c := render(body, resp.Header.Get("Content-Type"), rec.FinalURL)
	rec.Shown = c.shown
	text := f.header(rec, resp, c, in.Prompt)
	switch {
	case c.shown == shownBinary:
		text += describeBinary(c.media, rec.Bytes, rec.SHA256)
	case strings.TrimSpace(c.text) == "":
		text += "(the response has no readable content)"
	default:
		text += c.text
	}
	if tc == nil {
		tc = &tools.Context{}
	}
	out, spill := tools.CaptureText(tc, text)
	return tools.Result{
		Text:     out,
		Captured: true,
		Spill:    spill,
		IsError:  resp.StatusCode >= 400,
		Meta:     rec.meta(),
	}, nil
}

// header is the top of a result: status and final URL, the redirect chain,
// what the content was, and the model's own reason for fetching.
func (f *fetcher) header(rec *FetchRecord, resp *http.Response, c content, prompt string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] %s\n", statusText(resp), rec.FinalURL)
	if len(rec.Chain) > 1 {
		b.WriteString("Redirects: ")
		for i, h := range rec.Chain {
			if i > 0 {
				b.WriteString(" -> ")
			}
			fmt.Fprintf(&b, "%s (%d)", h.URL, h.Status)
		}
		b.WriteString("\n")
	}
	if c.title != "" {
		fmt.Fprintf(&b, "Title: %s\n", c.title)
	}
	fmt.Fprintf(&b, "Content: %s, %d bytes", c.media, rec.Bytes)
	if c.shown == shownMarkdown {
		b.WriteString(", shown as Markdown")
	}
	b.WriteString("\n")
	if rec.Truncated {
		fmt.Fprintf(&b, "Body cut: only the first %d bytes were read (the cap); the rest of the response is not shown.\n", f.cfg.MaxBytes)
	}
	if p := oneLine(prompt); p != "" {
		fmt.Fprintf(&b, "Looking for: %s\n", p)
	}
	b.WriteString("\n")
	return b.String()
}

// statusText renders "200 OK", falling back to the server's own wording
// for codes Go has no text for.
func statusText(resp *http.Response) string {
	if t := http.StatusText(resp.StatusCode); t != "" {
		return strconv.Itoa(resp.StatusCode) + " " + t
	}
	return oneLine(resp.Status)
}

// failed is the result of a call that stopped: an error the model reads,
// with the record of how far it got.
func (f *fetcher) failed(rec *FetchRecord, err error) tools.Result {
	rec.Error = err.Error()
	var msg string
	var se *ScopeError
	var re *RedirectError
	switch {
	case errors.As(err, &re):
		msg = "WebFetch stopped at a redirect: " + re.Error()
	case errors.As(err, &se):
		msg = "WebFetch refused " + rec.lastURL() + ": " + se.Error()
	case errors.Is(err, context.DeadlineExceeded):
		msg = fmt.Sprintf("WebFetch gave up on %s after %s: %v", rec.lastURL(), f.cfg.Timeout, err)
	default:
		msg = "WebFetch failed: " + err.Error()
	}
	return tools.Result{Text: msg, IsError: true, Meta: rec.meta()}
}

// lastURL is the URL the call was at when it stopped.
func (r *FetchRecord) lastURL() string {
	if n := len(r.Chain); n > 0 {
		return r.Chain[n-1].URL
	}
	return r.URL
}
