// Package openai is the Provider for the Chat Completions API, through the
// official openai-go client. With a base URL it talks to any server that
// speaks that API: Ollama, vLLM, llama.cpp's server, LM Studio, OpenRouter.
package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/seed92b641c3/workbench/agent/provider"
)

// Name is the provider's name in errors, settings and the UI.
const Name = "openai"

const (
	// DefaultModel is used when neither Options nor a Request names a model.
	// A local server needs the name of a model it has, given with --model.
	DefaultModel = sdk.ChatModelGPT5_5
	// placeholderKey is sent to a server at a custom base URL when no key is
	// set: local servers ignore it, and the client wants one.
	placeholderKey = "workbench-no-key"
	defaultBaseURL = "https://api.openai.com/v1"
)

// Environment variables read by FromEnv.
const (
	EnvAPIKey  = "OPENAI_API_KEY"
	EnvBaseURL = "OPENAI_BASE_URL"
)

// Options configure a Provider. Empty fields take defaults; nothing is read
// from the environment except through FromEnv.
type Options struct {
	APIKey  string
	BaseURL string
	Model   string
	// MaxTokens caps a reply; zero leaves it to the server.
	MaxTokens  int
	HTTPClient *http.Client
}

// FromEnv fills the empty APIKey and BaseURL of o from OPENAI_API_KEY and
// OPENAI_BASE_URL, so values given on the command line win.
func FromEnv(o Options) Options {
	if o.APIKey == "" {
		o.APIKey = os.Getenv(EnvAPIKey)
	}
	if o.BaseURL == "" {
		o.BaseURL = os.Getenv(EnvBaseURL)
	}
	return o
}

// Provider streams chat completions.
type Provider struct {
	chat      sdk.ChatCompletionService
	model     string
	maxTokens int
	baseURL   string // for error messages
	customURL bool   // BaseURL came from the options: a compatible server
}

// New returns a Provider. It fails, with a *provider.Error of kind auth,
// when there is neither a key nor a base URL. It makes no network call.
func New(o Options) (*Provider, error) {
	if o.APIKey == "" && o.BaseURL == "" {
		return nil, &provider.Error{Provider: Name, Kind: provider.ErrorAuth, Message: "no API key",
			Hint: "set " + EnvAPIKey + ", or " + EnvBaseURL + " (--base-url) for a local server"}
	}
	p := &Provider{model: o.Model, maxTokens: o.MaxTokens, baseURL: defaultBaseURL}
	if p.model == "" {
		p.model = DefaultModel
	}
	// The SDK's own retries are off: provider.WithRetry is the one policy.
	opts := []option.RequestOption{option.WithMaxRetries(0)}
	if o.BaseURL != "" {
		u, err := url.Parse(o.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, &provider.Error{Provider: Name, Kind: provider.ErrorBadRequest,
				Message: fmt.Sprintf("base URL %q is not an http(s) URL", o.BaseURL),
				Hint:    "check " + EnvBaseURL + " or --base-url"}
		}
		p.baseURL, p.customURL = o.BaseURL, true
	}
	// Always named, so the SDK's own reading of OPENAI_BASE_URL never applies.
	opts = append(opts, option.WithBaseURL(p.baseURL))
	key := o.APIKey
	if key == "" {
		key = placeholderKey
	}
	opts = append(opts, option.WithAPIKey(key))
	if o.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(o.HTTPClient))
	}
	// Only the chat completions service is made, with the options that
	// sdk.NewClient would give it: the SDK's environment defaults, then
	// ours, wrapped in one inherited layer (a service's Options are that
	// layer). A Client holds every service of the API, and with it the
	// linker keeps all of their code (12 MB of the binary, paged in at
	// start whether or not OpenAI is used).
	clientOpts := sdk.NewChatCompletionService(append(sdk.DefaultClientOptions(), opts...)...).Options
	p.chat = sdk.NewChatService(clientOpts...).Completions
	return p, nil
}

// Name returns "openai".
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
	// The response is kept for errors the SDK cannot parse (a proxy's
	// error page, {"error": "text"}), which would otherwise lose the status.
	var resp *http.Response
	st := p.chat.NewStreaming(ctx, params, option.WithResponseInto(&resp))
	if err := st.Err(); err != nil {
		_ = st.Close()
		if ctx.Err() == nil && resp != nil && resp.StatusCode >= 400 && !errors.As(err, new(*sdk.Error)) {
			return nil, p.statusError(resp.StatusCode, resp.Header, bodyText(resp), err)
		}
		return nil, p.classify(ctx, err)
	}
	return newStream(ctx, p, st), nil
}
