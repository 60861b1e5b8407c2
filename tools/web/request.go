package web

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"sync/atomic"
)

// do makes one request: the host is resolved and judged once, then either
// the connection is pinned to the checked addresses, or, through a proxy,
// only the proxy is dialled. A proxy resolves the host itself, so the check
// then applies to what this machine's resolver says about the name, and a
// rebinding between the two lookups is beyond our reach; that is the limit
// of fetching through a proxy. A host this machine cannot resolve is
// refused even with a proxy, so the scope is never skipped.
func (f *fetcher) do(ctx context.Context, u *url.URL, hop *Hop) (*http.Response, error) {
	host := hostOf(u)
	var proxyURL *url.URL
	if f.proxy != nil {
		p, err := f.proxy(u)
		if err != nil {
			return nil, fmt.Errorf("choosing a proxy for %s: %w", u.Redacted(), err)
		}
		proxyURL = p
	}
	addrs, err := f.scope.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	for _, a := range addrs {
		hop.Resolved = append(hop.Resolved, a.String())
	}
	tr := &http.Transport{
		TLSClientConfig:        &tls.Config{RootCAs: f.cfg.RootCAs, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    tlsHandshakeTimeout,
		DisableKeepAlives:      true,
		ForceAttemptHTTP2:      true,
		MaxResponseHeaderBytes: maxHeaderBytes,
	}
	var connected atomic.Pointer[string]
	if proxyURL != nil {
		hop.Proxy = proxyURL.Redacted()
		tr.Proxy = http.ProxyURL(proxyURL)
		// The transport dials only the proxy; the proxy is the person's own
		// setting, so it is not held to the scope.
		tr.DialContext = f.dial
	} else {
		port, err := portOf(u)
		if err != nil {
			return nil, err
		}
		hop.Address = netip.AddrPortFrom(addrs[0], port).String()
		// The transport dials on its own goroutine; the address it reached
		// is handed back through an atomic, so reading it here is race-free.
		tr.DialContext = pinnedDial(f.dial, addrs, port, func(a string) { connected.Store(&a) })
	}
	defer tr.CloseIdleConnections()

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("building the request for %s: %w", u.Redacted(), err)
	}
	req.Header.Set("User-Agent", userAgent(f.cfg.Version))
	req.Header.Set("Accept", acceptHeader)
	client := &http.Client{
		Transport: tr,
		// follow checks and makes redirects itself.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := client.Do(req)
	if a := connected.Load(); a != nil {
		hop.Address = *a
	}
	if err != nil {
		if proxyURL != nil {
			return nil, fmt.Errorf("through proxy %s (not retried without it): %w", proxyURL.Redacted(), err)
		}
		return nil, err
	}
	return resp, nil
}

// portOf is the URL's port, or the scheme's default.
func portOf(u *url.URL) (uint16, error) {
	p := u.Port()
	if p == "" {
		if u.Scheme == "https" {
			return 443, nil
		}
		return 80, nil
	}
	n, err := strconv.ParseUint(p, 10, 16)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("%q has an invalid port", u.Redacted())
	}
	return uint16(n), nil
}

// readCapped reads at most max bytes of r and says whether there was more.
func readCapped(r io.Reader, max int64) ([]byte, bool, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if int64(len(b)) > max {
		return b[:max], true, nil
	}
	return b, false, err
}
