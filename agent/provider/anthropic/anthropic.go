// Package anthropic is the Provider for Anthropic's Messages API, through the
// official anthropic-sdk-go client. It streams one message per call, with
// tools, and turns the SDK's events into provider.Events.
package anthropic

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/seed92b641c3/workbench/agent/provider"
)

// Name is the provider's name in errors, settings and the UI.
const Name = "anthropic"

const (
	// DefaultModel is used when neither Options nor a Request names a model.
	DefaultModel = sdk.ModelClaudeSonnet5_5
	// DefaultMaxTokens caps a reply when neither Options nor a Request does:
	// room for a large file write in one tool call.
	DefaultMaxTokens = 16384
	// defaultBaseURL is only used to name the server in error messages; the
	// SDK has its own copy.
	defaultBaseURL = "https://api.anthropic.com"
)

// Environment variables read by FromEnv.
const (
	EnvAPIKey  = "ANTHROPIC_API_KEY"
	EnvBaseURL = "ANTHROPIC_BASE_URL"
)

// Options configure a Provider. Empty fields take defaults; nothing is read
// from the environment except through FromEnv.
type Options struct {
	APIKey string
	// BaseURL points the client at another server (a proxy, or a local server
	// that speaks the Messages API). Such a server may need no key.
	BaseURL    string
	Model      string
	MaxTokens  int
	HTTPClient *http.Client
}

// FromEnv fills the empty APIKey and BaseURL of o from ANTHROPIC_API_KEY and
// ANTHROPIC_BASE_URL, so values given on the command line win.
func FromEnv(o Options) Options {
	if o.APIKey == "" {
		o.APIKey = os.Getenv(EnvAPIKey)
	}
	if o.BaseURL == "" {
		o.BaseURL = os.Getenv(EnvBaseURL)
	}
	return o
}

// Provider streams messages from the Messages API.
type Provider struct {
	messages  sdk.MessageService
	model     string
	maxTokens int
	baseURL   string // for error messages
	customURL bool   // BaseURL came from the options
}

// New returns a Provider. It fails, with a *provider.Error of kind auth,
// when there is no key and no base URL: the default server always needs one.
// It makes no network call.
func New(o Options) (*Provider, error) {
	if o.APIKey == "" && o.BaseURL == "" {
		return nil, &provider.Error{Provider: Name, Kind: provider.ErrorAuth,
			Message: "no API key", Hint: "set " + EnvAPIKey}
	}
	p := &Provider{model: o.Model, maxTokens: o.MaxTokens, baseURL: defaultBaseURL}
	if p.model == "" {
		p.model = DefaultModel
	}
	if p.maxTokens <= 0 {
		p.maxTokens = DefaultMaxTokens
	}
	// The client is configured here and only here: the SDK's environment and
	// profile lookups are off, and so are its retries (provider.WithRetry is
	// the one retry policy).
	opts := []option.RequestOption{option.WithoutEnvironmentDefaults(), option.WithMaxRetries(0)}
	if o.BaseURL != "" {
		u, err := url.Parse(o.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, &provider.Error{Provider: Name, Kind: provider.ErrorBadRequest,
				Message: fmt.Sprintf("base URL %q is not an http(s) URL", o.BaseURL),
				Hint:    "check " + EnvBaseURL + " or --base-url"}
		}
		opts = append(opts, option.WithBaseURL(o.BaseURL))
		p.baseURL, p.customURL = o.BaseURL, true
	}
	if o.APIKey != "" {
		opts = append(opts, option.WithAPIKey(o.APIKey))
	}
	hc := o.HTTPClient
	if hc == nil {
		hc = defaultHTTPClient()
	}
	opts = append(opts, option.WithHTTPClient(hc))
	// Only the Messages service is made: a Client holds every service of
	// the API, and with it the linker keeps all of their code (7 MB of the
	// binary, paged in at start whether or not Anthropic is used). What
	// sdk.NewClient would add without environment defaults is the
	// production base URL (ours comes after it) and the boundaries that
	// tell its credential options from a call's; one credential at most is
	// given here, so they change nothing.
	p.messages = sdk.NewMessageService(append([]option.RequestOption{option.WithEnvironmentProduction()}, opts...)...)
	return p, nil
}

// responseHeaderTimeout bounds the wait for a server that accepted the
// connection but never answers. Streams send their headers at once, and the
// body has no limit, so long replies are not cut.
const responseHeaderTimeout = 10 * time.Minute

// defaultHTTPClient stands in for the SDK's default client, which is skipped
// along with its environment defaults.
func defaultHTTPClient() *http.Client {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return &http.Client{}
	}
	t = t.Clone()
	t.ResponseHeaderTimeout = responseHeaderTimeout
	return &http.Client{Transport: t}
}

// Name returns "anthropic".
func (p *Provider) Name() string { return Name }

// Model returns the model used when a Request names none.
func (p *Provider) Model() string { return p.model }

// Stream sends req and returns the streamed reply. The request is made before
// Stream returns, so a rejected key, an unreachable server or a rate limit is
// the error of Stream itself.
func (p *Provider) Stream(ctx context.Context, req provider.Request) (provider.Stream, error) {
	params, err := p.params(req)
	if err != nil {
		return nil, err
	}
	st := p.messages.NewStreaming(ctx, params)
	if err := st.Err(); err != nil {
		_ = st.Close()
		return nil, p.classify(ctx, err)
	}
	return newStream(ctx, p, st), nil
}
