package web

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed search.md
var searchPrompt string

// The backends WebSearch can use, as written in settings.
const (
	// BackendBrave is the Brave Search API; it needs an API key.
	BackendBrave = "brave"
	// BackendTavily is the Tavily search API; it needs an API key.
	BackendTavily = "tavily"
	// BackendSearXNG is a self-hosted SearXNG instance with its JSON output
	// enabled; it needs a base URL and no key.
	BackendSearXNG = "searxng"
)

// Tuning numbers of WebSearch.
const (
	// DefaultSearchTimeout bounds one search, as for a fetch.
	DefaultSearchTimeout = 30 * time.Second
	// ProbeTimeout bounds the reachability check at session start, which
	// must not hold up the start for long.
	ProbeTimeout = 5 * time.Second
	// defaultLimit and maxLimit are the schema's bounds on results; every
	// backend can return 20 in one request.
	defaultLimit = 5
	maxLimit     = 20
	// maxSnippetRunes cuts long snippets (Tavily returns page extracts), so
	// twenty results stay a list, not twenty pages.
	maxSnippetRunes = 500
	// maxBackendBody bounds a backend's answer.
	maxBackendBody = 4 << 20
)

var searchSchema = fmt.Sprintf(`{
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1, "description": "The search query, as you would type it into a search engine."},
    "limit": {"type": "integer", "minimum": 1, "maximum": %d, "default": %d, "description": "How many results to return (1 to %d)."}
  },
  "required": ["query"],
  "additionalProperties": false
}`, maxLimit, defaultLimit, maxLimit)

// Errors a session can test for with errors.Is to word its start-up report
// (H12): the tool is then left out, with the error as the reason.
var (
	// ErrNotConfigured marks a WebSearch setting that cannot work: an
	// unknown backend, a missing key or a missing base URL.
	ErrNotConfigured = errors.New("web search is not configured")
	// ErrUnreachable marks a backend that did not answer, or answered with
	// a server error.
	ErrUnreachable = errors.New("web search backend unreachable")
	// ErrKeyRejected marks a backend that refused the credentials.
	ErrKeyRejected = errors.New("web search backend refused the key")
)

// SearchConfig is the WebSearch setting of a session.
type SearchConfig struct {
	// Backend is BackendBrave, BackendTavily or BackendSearXNG.
	Backend string
	// APIKey is the key of Brave or Tavily; SearXNG takes none.
	APIKey string
	// BaseURL is the scheme, host and optional path prefix the backend's
	// API path is added to: required for SearXNG (its /search), an
	// override for Brave (/res/v1/web/search) and Tavily (/search), which
	// tests and self-hosted gateways use. The backend is the person's own
	// setting, so it is not held to WebFetch's address scope: a SearXNG on
	// localhost is the usual case.
	BaseURL string
	// HTTPClient makes the requests; nil means a client on
	// http.DefaultTransport (which honours HTTPS_PROXY) with
	// DefaultSearchTimeout.
	HTTPClient *http.Client
	// Version goes into the User-Agent.
	Version string
}

// defaultBases are the public endpoints' bases.
var defaultBases = map[string]string{
	BackendBrave:  "https://api.search.brave.com",
	BackendTavily: "https://api.tavily.com",
}

// settle checks cfg and fills its defaults: the backend name in lower case,
// the base URL without a trailing slash, a client.
func settle(cfg SearchConfig) (SearchConfig, error) {
	cfg.Backend = strings.ToLower(strings.TrimSpace(cfg.Backend))
	cfg.APIKey = strings.TrimSpace(cfg.APIKey)
	switch cfg.Backend {
	case BackendBrave, BackendTavily:
		if cfg.APIKey == "" {
			return cfg, fmt.Errorf("%w: the %s backend needs an API key", ErrNotConfigured, cfg.Backend)
		}
		if cfg.BaseURL == "" {
			cfg.BaseURL = defaultBases[cfg.Backend]
		}
	case BackendSearXNG:
		if cfg.BaseURL == "" {
			return cfg, fmt.Errorf("%w: the searxng backend needs the base URL of a SearXNG instance", ErrNotConfigured)
		}
	case "":
		return cfg, fmt.Errorf("%w: no backend is set (brave, tavily or searxng)", ErrNotConfigured)
	default:
		return cfg, fmt.Errorf("%w: unknown backend %q (brave, tavily or searxng)", ErrNotConfigured, cfg.Backend)
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return cfg, fmt.Errorf("%w: the %s base URL %q is not an http(s) URL", ErrNotConfigured, cfg.Backend, cfg.BaseURL)
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: DefaultSearchTimeout}
	}
	return cfg, nil
}

type searchInput struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
}

// WebSearch asks the configured backend and returns a numbered list of
// title, URL and snippet. It fails at construction, with an error wrapping
// ErrNotConfigured, when the backend is unknown, lacks its key or lacks its
// base URL, so the session reports why the tool is missing instead of
// dropping it silently (H12).
//
// The query leaves the machine, and a model can put anything it has read
// into one, so WebSearch is not read-only: a person approves each search
// unless a WebSearch rule allows it. That also keeps it out of plan mode,
// like WebFetch.
func WebSearch(cfg SearchConfig) (tools.Tool, error) {
	cfg, err := settle(cfg)
	if err != nil {
		return nil, err
	}
	s := &searcher{cfg: cfg}
	return tools.Build(tools.Spec{
		Name:            "WebSearch",
		Description:     "Search the web and get a numbered list of results, each with title, URL and snippet. Use WebFetch to read a result.",
		Prompt:          searchPrompt,
		Schema:          searchSchema,
		ConcurrencySafe: tools.Always,
		Permission:      s.permission,
		Run:             s.run,
	}), nil
}

// searcher is a WebSearch tool's settled configuration.
type searcher struct {
	cfg SearchConfig
}

func (s *searcher) permission(_ context.Context, input json.RawMessage, _ *tools.Context) permission.Decision {
	in, err := decode[searchInput](input)
	if err != nil {
		return permission.Denied(err.Error())
	}
	return permission.AskUser(fmt.Sprintf("search the web (%s) for %q", s.cfg.Backend, oneLine(in.Query)))
}

// SearchHit is one search result, the same shape whichever backend
// answered, so the UI and the transcript need not know the backends.
type SearchHit struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet,omitempty"`
}

// SearchRecord is a WebSearch call's Meta: which backend was asked what,
// and what it answered, for the transcript and the UI.
type SearchRecord struct {
	Backend string      `json:"backend"`
	Query   string      `json:"query"`
	Limit   int         `json:"limit"`
	Results []SearchHit `json:"results"`
	Error   string      `json:"error,omitempty"`
}

func (s *searcher) run(ctx context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
	in, err := decode[searchInput](input)
	if err != nil {
		return tools.Result{}, err
	}
	if in.Limit < 1 {
		in.Limit = defaultLimit
	}
	in.Limit = min(in.Limit, maxLimit)
	rec := SearchRecord{Backend: s.cfg.Backend, Query: in.Query, Limit: in.Limit, Results: []SearchHit{}}
	ctx, cancel := context.WithTimeout(ctx, DefaultSearchTimeout)
	defer cancel()
	hits, err := s.search(ctx, in.Query, in.Limit)
	if err != nil {
		rec.Error = err.Error()
		meta, _ := json.Marshal(rec)
		return tools.Result{Text: "WebSearch failed: " + err.Error(), IsError: true, Meta: meta}, nil
	}
	if len(hits) > in.Limit {
		hits = hits[:in.Limit]
	}
	rec.Results = hits
	meta, _ := json.Marshal(rec)
	out, spill := tools.CaptureText(tc, formatHits(s.cfg.Backend, in.Query, hits))
	return tools.Result{Text: out, Captured: true, Spill: spill, Meta: meta}, nil
}

// formatHits renders results as a numbered Markdown list.
func formatHits(backend, query string, hits []SearchHit) string {
	var b strings.Builder
	q := oneLine(query)
	if len(hits) == 0 {
		fmt.Fprintf(&b, "No results for %q (%s).", q, backend)
		return b.String()
	}
	fmt.Fprintf(&b, "Results for %q (%s, %d):\n\n", q, backend, len(hits))
	for i, h := range hits {
		title := h.Title
		if title == "" {
			title = h.URL
		}
		fmt.Fprintf(&b, "%d. %s\n   %s\n", i+1, title, h.URL)
		if h.Snippet != "" {
			fmt.Fprintf(&b, "   %s\n", h.Snippet)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// Probe checks at session start that the configured backend answers, so
// the session can leave WebSearch out and say why (H12) rather than fail
// on the first search. It sends no query and nothing from the session: a
// GET of Tavily's /usage, SearXNG's /config, or Brave's search endpoint
// without a query, which shows the server is there and, where the backend
// checks it first, that the key is accepted. The error wraps
// ErrNotConfigured, ErrUnreachable or ErrKeyRejected. It waits at most
// ProbeTimeout.
func Probe(ctx context.Context, cfg SearchConfig) error {
	cfg, err := settle(cfg)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	s := &searcher{cfg: cfg}
	req, err := s.probeRequest(ctx)
	if err != nil {
		return err
	}
	resp, err := cfg.HTTPClient.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %s at %s: %v", ErrUnreachable, cfg.Backend, cfg.BaseURL, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return fmt.Errorf("%w: %s at %s answered %s", ErrKeyRejected, cfg.Backend, cfg.BaseURL, resp.Status)
	case resp.StatusCode >= 500:
		return fmt.Errorf("%w: %s at %s answered %s", ErrUnreachable, cfg.Backend, cfg.BaseURL, resp.Status)
	}
	return nil
}
