package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// RedirectError reports a redirect WebFetch would not follow: to a scheme
// other than http and https, past the redirect limit, or to a host no rule
// allows. Following it would let a server the person approved send the
// call somewhere they did not.
type RedirectError struct {
	// From is the URL that answered with the redirect; To is where it
	// pointed.
	From, To string
	// Host is the new host, when the redirect was refused for its host.
	Host string
	// Err is the reason.
	Err error
}

// Error says where the redirect went and, for a host without a rule, which
// rule would allow it.
func (e *RedirectError) Error() string {
	if e.Host != "" {
		return fmt.Sprintf("%s redirected to %s, and %s is not allowed (%v). A rule such as %s would allow it; or fetch that URL directly, which asks for approval.",
			e.From, e.To, e.Host, e.Err, hostRule(e.Host))
	}
	return fmt.Sprintf("%s redirected to %s: %v", e.From, e.To, e.Err)
}

// Unwrap returns the reason.
func (e *RedirectError) Unwrap() error { return e.Err }

// errNoRedirectCheck is the reason a redirect to another host is refused
// when the session wired no CheckRedirect.
var errNoRedirectCheck = errors.New("no redirect rule check is configured")

// follow makes the requests of one call, checking every redirect like a
// new request, and returns the final response with its body unread.
func (f *fetcher) follow(ctx context.Context, u *url.URL, rec *FetchRecord) (*http.Response, error) {
	approved := map[string]bool{hostOf(u): true}
	for redirects := 0; ; redirects++ {
		rec.Chain = append(rec.Chain, Hop{URL: u.String()})
		hop := &rec.Chain[len(rec.Chain)-1]
		resp, err := f.do(ctx, u, hop)
		if err != nil {
			return nil, err
		}
		hop.Status = resp.StatusCode
		rec.FinalURL = u.String()
		loc := resp.Header.Get("Location")
		if !isRedirect(resp.StatusCode) || loc == "" {
			return resp, nil
		}
		hop.Location = loc
		io.Copy(io.Discard, io.LimitReader(resp.Body, drainLimit))
		resp.Body.Close()

		next, err := u.Parse(loc)
		if err != nil {
			return nil, &RedirectError{From: u.String(), To: loc, Err: fmt.Errorf("the Location is not a URL: %w", err)}
		}
		if redirects+1 > maxRedirects {
			return nil, &RedirectError{From: u.String(), To: next.String(), Err: fmt.Errorf("more than %d redirects", maxRedirects)}
		}
		if next.Scheme != "http" && next.Scheme != "https" {
			return nil, &RedirectError{From: u.String(), To: next.String(), Err: fmt.Errorf("scheme %q is not http or https", next.Scheme)}
		}
		if next.Hostname() == "" {
			return nil, &RedirectError{From: u.String(), To: next.String(), Err: errors.New("the new URL has no host")}
		}
		if host := hostOf(next); !approved[host] {
			check := f.cfg.CheckRedirect
			err := errNoRedirectCheck
			if check != nil {
				err = check(host)
			}
			if err != nil {
				return nil, &RedirectError{From: u.String(), To: next.String(), Host: host, Err: err}
			}
			approved[host] = true
		}
		u = next
	}
}

// isRedirect reports the statuses that send a client elsewhere.
func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}
