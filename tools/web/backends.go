package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// search asks the backend for up to limit results.
func (s *searcher) search(ctx context.Context, query string, limit int) ([]SearchHit, error) {
	req, err := s.searchRequest(ctx, query, limit)
	if err != nil {
		return nil, err
	}
	body, err := s.send(req)
	if err != nil {
		return nil, err
	}
	var hits []SearchHit
	switch s.cfg.Backend {
	case BackendBrave:
		var r struct {
			Web struct {
				Results []struct {
					Title       string `json:"title"`
					URL         string `json:"url"`
					Description string `json:"description"`
				} `json:"results"`
			} `json:"web"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			return nil, s.badAnswer(err)
		}
		for _, x := range r.Web.Results {
			hits = append(hits, hit(x.Title, x.URL, x.Description))
		}
	case BackendTavily, BackendSearXNG:
		// Both answer {"results": [{"title", "url", "content"}]}.
		var r struct {
			Results []struct {
				Title   string `json:"title"`
				URL     string `json:"url"`
				Content string `json:"content"`
			} `json:"results"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			return nil, s.badAnswer(err)
		}
		for _, x := range r.Results {
			hits = append(hits, hit(x.Title, x.URL, x.Content))
		}
	}
	return hits, nil
}

// searchRequest builds the backend's search request:
//   - Brave: GET /res/v1/web/search?q=&count= with X-Subscription-Token;
//   - Tavily: POST /search with a JSON body {api_key, query, max_results};
//     the key also goes in an Authorization: Bearer header, which Tavily's
//     current API reads, while older deployments read the body;
//   - SearXNG: GET /search?q=&format=json; SearXNG has no count, so the
//     list is cut here.
func (s *searcher) searchRequest(ctx context.Context, query string, limit int) (*http.Request, error) {
	var req *http.Request
	var err error
	switch s.cfg.Backend {
	case BackendBrave:
		q := url.Values{"q": {query}, "count": {strconv.Itoa(limit)}}
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, s.cfg.BaseURL+"/res/v1/web/search?"+q.Encode(), nil)
		if err == nil {
			req.Header.Set("X-Subscription-Token", s.cfg.APIKey)
		}
	case BackendTavily:
		body, _ := json.Marshal(map[string]any{"api_key": s.cfg.APIKey, "query": query, "max_results": limit})
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.BaseURL+"/search", bytes.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+s.cfg.APIKey)
		}
	case BackendSearXNG:
		q := url.Values{"q": {query}, "format": {"json"}}
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, s.cfg.BaseURL+"/search?"+q.Encode(), nil)
	}
	if err != nil {
		return nil, fmt.Errorf("building the %s request: %w", s.cfg.Backend, err)
	}
	s.commonHeaders(req)
	return req, nil
}

// probeRequest builds Probe's request, which carries no query.
func (s *searcher) probeRequest(ctx context.Context) (*http.Request, error) {
	var target string
	switch s.cfg.Backend {
	case BackendBrave:
		target = s.cfg.BaseURL + "/res/v1/web/search"
	case BackendTavily:
		target = s.cfg.BaseURL + "/usage"
	case BackendSearXNG:
		target = s.cfg.BaseURL + "/config"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, fmt.Errorf("building the %s probe: %w", s.cfg.Backend, err)
	}
	switch s.cfg.Backend {
	case BackendBrave:
		req.Header.Set("X-Subscription-Token", s.cfg.APIKey)
	case BackendTavily:
		req.Header.Set("Authorization", "Bearer "+s.cfg.APIKey)
	}
	s.commonHeaders(req)
	return req, nil
}

func (s *searcher) commonHeaders(req *http.Request) {
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", userAgent(s.cfg.Version))
}

// send makes the request and returns the body of a successful answer; an
// unsuccessful one becomes an error that says what to fix where the status
// points at a cause.
func (s *searcher) send(req *http.Request) ([]byte, error) {
	resp, err := s.cfg.HTTPClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUnreachable, s.cfg.Backend, err)
	}
	defer resp.Body.Close()
	body, truncated, err := readCapped(resp.Body, maxBackendBody)
	if err != nil {
		return nil, fmt.Errorf("%s: reading the answer: %w", s.cfg.Backend, err)
	}
	if resp.StatusCode/100 == 2 {
		if truncated {
			return nil, fmt.Errorf("%s: the answer is larger than %d bytes", s.cfg.Backend, maxBackendBody)
		}
		return body, nil
	}
	detail := excerpt(body)
	switch {
	case s.cfg.Backend == BackendSearXNG && resp.StatusCode == http.StatusForbidden:
		return nil, fmt.Errorf("%s answered %s: the instance does not serve JSON; add json to search.formats in its settings.yml", s.cfg.Backend, resp.Status)
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, fmt.Errorf("%w: %s answered %s%s", ErrKeyRejected, s.cfg.Backend, resp.Status, detail)
	case resp.StatusCode == http.StatusTooManyRequests:
		return nil, fmt.Errorf("%s answered %s: the rate limit or quota is used up; wait before searching again%s", s.cfg.Backend, resp.Status, detail)
	case resp.StatusCode >= 500:
		return nil, fmt.Errorf("%w: %s answered %s%s", ErrUnreachable, s.cfg.Backend, resp.Status, detail)
	}
	return nil, fmt.Errorf("%s answered %s%s", s.cfg.Backend, resp.Status, detail)
}

func (s *searcher) badAnswer(err error) error {
	return fmt.Errorf("%s: the answer is not the JSON its API returns: %w", s.cfg.Backend, err)
}

// excerptRunes is how much of an error body goes into an error message.
const excerptRunes = 200

// excerpt is the start of an error body on one line, as ": ...".
func excerpt(body []byte) string {
	s := oneLine(string(bytes.ToValidUTF8(body, nil)))
	if s == "" {
		return ""
	}
	return ": " + cutRunes(s, excerptRunes)
}

// hit cleans one result: backends mark matches with HTML (<strong>) and
// escape entities, and some snippets are whole page extracts.
func hit(title, link, snippet string) SearchHit {
	return SearchHit{
		Title:   cutRunes(plainText(title), maxSnippetRunes),
		URL:     strings.TrimSpace(link),
		Snippet: cutRunes(plainText(snippet), maxSnippetRunes),
	}
}

// plainText drops HTML tags, decodes entities and joins the text on one
// line.
func plainText(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return oneLine(s)
	}
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		switch z.Next() {
		case html.ErrorToken:
			if errors.Is(z.Err(), io.EOF) {
				return oneLine(b.String())
			}
			return oneLine(s)
		case html.TextToken:
			b.Write(z.Text())
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			// Block tags and <br> separate words; inline ones (<strong>)
			// mark part of a word and must not split it.
			if name, _ := z.TagName(); blockTags[string(name)] {
				b.WriteByte(' ')
			}
		}
	}
}

// blockTags are the tags that separate the text around them.
var blockTags = map[string]bool{"br": true, "p": true, "div": true, "li": true, "td": true, "tr": true, "h1": true, "h2": true, "h3": true}

// cutRunes shortens s to at most n runes, marking the cut.
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n])) + "…"
}
