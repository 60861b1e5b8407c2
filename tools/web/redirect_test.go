package web_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/tools/web"
)

func TestH11_RedirectToPrivateAddressRefused(t *testing.T) {
	t.Parallel()
	secret := newOrigin(t, text("internal"))
	n := newInternet()
	n.name("internal.test", "127.0.0.1")
	allowAll := func(string) error { return nil }
	for _, target := range []string{
		secret.URL + "/admin",
		"http://internal.test:" + secret.port() + "/admin",
		"http://169.254.169.254/latest/meta-data/",
	} {
		start := newOrigin(t, redirectTo(target))
		n.name("start.test", "203.0.113.20")
		n.route("203.0.113.20", start)
		res, rec := get(t, n.config(web.FetchConfig{CheckRedirect: allowAll}), "http://start.test:"+start.port()+"/")
		if !res.IsError || !strings.Contains(res.Text, "refused") {
			t.Errorf("redirect to %s: got %q, want a refusal", target, res.Text)
		}
		if len(rec.Chain) != 2 || rec.Chain[0].Status != http.StatusFound || rec.Chain[0].Location != target {
			t.Errorf("redirect to %s: chain %+v, want the 302 hop and the refused one", target, rec.Chain)
		}
	}
	if secret.hits.Load() != 0 {
		t.Fatalf("a redirect reached the private server %d times", secret.hits.Load())
	}
}

func TestH11_RedirectToAnotherHostNeedsItsOwnRule(t *testing.T) {
	t.Parallel()
	other := newOrigin(t, text("other host"))
	n := newInternet()
	n.name("b.test", "203.0.113.31")
	n.route("203.0.113.31", other)
	start := newOrigin(t, redirectTo("http://b.test:"+other.port()+"/landing"))
	n.name("a.test", "203.0.113.30")
	n.route("203.0.113.30", start)
	u := "http://a.test:" + start.port() + "/"

	var asked []string
	deny := func(host string) error {
		asked = append(asked, host)
		return errors.New("no allow rule matches")
	}
	res, rec := get(t, n.config(web.FetchConfig{CheckRedirect: deny}), u)
	if !res.IsError || !strings.Contains(res.Text, "b.test") || !strings.Contains(res.Text, "WebFetch(domain:b.test)") {
		t.Fatalf("got %q, want a refusal naming b.test and its rule", res.Text)
	}
	if len(asked) != 1 || asked[0] != "b.test" {
		t.Errorf("CheckRedirect asked about %v, want [b.test]", asked)
	}
	if other.hits.Load() != 0 {
		t.Fatalf("the other host was reached without a rule")
	}
	if !strings.Contains(rec.Error, "b.test") {
		t.Errorf("record error %q does not name the host", rec.Error)
	}

	// No hook configured: refused the same way.
	res, _ = get(t, n.config(web.FetchConfig{}), u)
	if !res.IsError || !strings.Contains(res.Text, "WebFetch(domain:b.test)") {
		t.Fatalf("without CheckRedirect: %q, want a refusal", res.Text)
	}
	if other.hits.Load() != 0 {
		t.Fatalf("the other host was reached without a hook")
	}

	// With a rule for b.test, the redirect is followed.
	res, rec = get(t, n.config(web.FetchConfig{CheckRedirect: func(h string) error {
		if h == "b.test" {
			return nil
		}
		return errors.New("no rule")
	}}), u)
	if res.IsError || !strings.Contains(res.Text, "other host") {
		t.Fatalf("allowed redirect failed: %q", res.Text)
	}
	if len(rec.Chain) != 2 || rec.FinalURL != "http://b.test:"+other.port()+"/landing" {
		t.Errorf("chain %+v final %q", rec.Chain, rec.FinalURL)
	}
}

func TestH11_SameHostRedirectNeedsNoNewRule(t *testing.T) {
	t.Parallel()
	o := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
			return
		}
		text("moved here")(w, r)
	})
	called := false
	cfg := web.FetchConfig{
		AllowPrivate:  allowOnly("127.0.0.1"),
		CheckRedirect: func(string) error { called = true; return errors.New("no") },
	}
	res, rec := get(t, cfg, o.URL+"/old")
	if res.IsError || !strings.Contains(res.Text, "moved here") || called {
		t.Fatalf("same-host redirect: %q (hook called: %v)", res.Text, called)
	}
	if !strings.Contains(res.Text, "Redirects: "+o.URL+"/old (301) -> "+o.URL+"/new (200)") {
		t.Errorf("the result does not show the chain: %q", res.Text)
	}
	if len(rec.Chain) != 2 {
		t.Errorf("chain %+v", rec.Chain)
	}
}

func TestH11_RedirectsAreLimitedAndSchemesChecked(t *testing.T) {
	t.Parallel()
	loop := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Path+"x", http.StatusFound)
	})
	cfg := web.FetchConfig{AllowPrivate: allowOnly("127.0.0.1")}
	res, rec := get(t, cfg, loop.URL+"/")
	if !res.IsError || !strings.Contains(res.Text, "more than 10 redirects") {
		t.Fatalf("redirect loop: %q", res.Text)
	}
	if got := loop.hits.Load(); got != 11 {
		t.Errorf("the loop was requested %d times, want 11 (the first and 10 redirects)", got)
	}
	if len(rec.Chain) != 11 {
		t.Errorf("chain has %d hops, want 11", len(rec.Chain))
	}

	toFile := newOrigin(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Location", "file:///etc/passwd")
		w.WriteHeader(http.StatusFound)
	})
	res, _ = get(t, cfg, toFile.URL+"/")
	if !res.IsError || !strings.Contains(res.Text, `scheme "file"`) {
		t.Fatalf("redirect to file: %q", res.Text)
	}
}
