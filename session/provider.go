package session

import (
	"fmt"
	"os"

	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/agent/provider/anthropic"
	"github.com/seed92b641c3/workbench/agent/provider/openai"
	"github.com/seed92b641c3/workbench/agent/provider/script"
)

// Model chooses the model and the conversation to continue; it means the
// same headless and in the TUI.
type Model struct {
	// Provider is anthropic, openai or script ("" decides from settings
	// and the environment).
	Provider string
	Model    string
	BaseURL  string
	// Script is a scripted session to play (implies the script provider).
	Script string
	// MaxTurns ends a run after this many model turns (0: no limit).
	MaxTurns int
	// Continue resumes the project's latest session; Resume a given one.
	Continue bool
	Resume   string
	// ContextWindow is the model's context window in tokens (--context-window);
	// 0 takes contextWindow from settings, else the table of known models.
	ContextWindow int
}

// chooseProvider picks the model backend: flags, then settings, then the
// environment; with nothing configured, the built-in demo script, so a
// first run shows every part of Workbench without a key.
func chooseProvider(c *Config, m Model) (provider.Provider, error) {
	name := m.Provider
	if name == "" && m.Script != "" {
		name = "script"
	}
	if name == "" {
		name = c.Settings.Provider
	}
	baseURL := m.BaseURL
	if baseURL == "" {
		baseURL = c.Settings.BaseURL
	}
	model := m.Model
	if model == "" {
		model = c.Settings.Model
	}
	if name == "" {
		switch {
		case os.Getenv("ANTHROPIC_API_KEY") != "" || os.Getenv("ANTHROPIC_BASE_URL") != "":
			name = "anthropic"
		case os.Getenv("OPENAI_API_KEY") != "" || os.Getenv("OPENAI_BASE_URL") != "":
			name = "openai"
		default:
			return script.New(script.Demo()), nil
		}
	}
	retry := provider.RetryPolicy{}
	switch name {
	case "anthropic":
		p, err := anthropic.New(anthropic.FromEnv(anthropic.Options{BaseURL: baseURL, Model: model}))
		if err != nil {
			return nil, err
		}
		return provider.WithRetry(p, retry), nil
	case "openai":
		p, err := openai.New(openai.FromEnv(openai.Options{BaseURL: baseURL, Model: model}))
		if err != nil {
			return nil, err
		}
		return provider.WithRetry(p, retry), nil
	case "script":
		if m.Script == "" {
			return script.New(script.Demo()), nil
		}
		sc, err := script.Load(m.Script)
		if err != nil {
			return nil, err
		}
		return script.New(sc), nil
	default:
		return nil, fmt.Errorf("--provider %q: use anthropic, openai or script", name)
	}
}
