package main

import (
	"encoding/json"
	"flag"
	"io"
	"strings"
	"sync"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/session"
)

// listFlag collects a repeatable flag (--allow A --allow B).
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// commonFlags are the project, settings and permission flags every way of
// running Workbench shares, so they mean the same headless and in the TUI.
type commonFlags struct {
	cwd          string
	settingsFile string
	mode         string
	allow        listFlag
	ask          listFlag
	deny         listFlag
	spillDir     string
	maxOutput    int
	trace        bool
	noClaude     bool
	sandbox      string
	trustProject bool
}

func (c *commonFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.cwd, "cwd", "", "project `directory` (default: the current directory)")
	fs.StringVar(&c.settingsFile, "settings", "", "an extra settings `file`, applied after the project's")
	fs.StringVar(&c.mode, "permission-mode", "", "permission `mode`: default, acceptEdits, plan, bypassPermissions, dontAsk, auto")
	fs.Var(&c.allow, "allow", "allow `rule` such as 'Bash(git status:*)' (repeatable)")
	fs.Var(&c.ask, "ask", "ask `rule` (repeatable)")
	fs.Var(&c.deny, "deny", "deny `rule` (repeatable)")
	fs.StringVar(&c.spillDir, "spill-dir", "", "`directory` for output over the cap (default: the session's spill directory)")
	fs.IntVar(&c.maxOutput, "max-output", 0, "output cap in `bytes` before spilling (default 30000)")
	fs.BoolVar(&c.trace, "trace", false, "print one JSON object per pipeline stage on stderr")
	fs.BoolVar(&c.noClaude, "no-claude-settings", false, "do not read .claude/settings*.json")
	fs.StringVar(&c.sandbox, "sandbox", "", "sandbox `mode` of agent commands: workspace-write, read-only, off (default: settings, else workspace-write)")
	fs.BoolVar(&c.trustProject, "trust-project", false, "apply the project's own settings files whole for this run, as 'workbench trust' does for good")
}

// options is what the flags say, in the assembly's terms.
func (c *commonFlags) options() session.Options {
	return session.Options{
		Dir: c.cwd, SettingsFile: c.settingsFile, Mode: c.mode,
		Allow: c.allow, Ask: c.ask, Deny: c.deny,
		SpillDir: c.spillDir, MaxOutput: c.maxOutput, NoClaudeSettings: c.noClaude, Sandbox: c.sandbox,
		TrustProject: c.trustProject,
	}
}

// modelFlags choose the model; they mean the same headless and in the TUI.
type modelFlags struct {
	provider string
	model    string
	baseURL  string
	script   string
	maxTurns int
	cont     bool
	resume   string
	answers  string
	// contextWindow overrides the model's context window in tokens.
	contextWindow int
}

func (m *modelFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&m.provider, "provider", "", "model `backend`: anthropic, openai or script (default: from settings or the environment; the built-in demo without a key)")
	fs.StringVar(&m.model, "model", "", "model `id`")
	fs.StringVar(&m.baseURL, "base-url", "", "API base `URL` (a proxy, Ollama, vLLM, llama.cpp, LM Studio, OpenRouter...)")
	fs.StringVar(&m.script, "script", "", "play a scripted session from `file` (implies --provider script)")
	fs.IntVar(&m.maxTurns, "max-turns", 0, "stop after this many model turns (0: no limit)")
	fs.BoolVar(&m.cont, "continue", false, "continue the latest session of this project")
	fs.StringVar(&m.resume, "resume", "", "resume the session with this `id`")
	fs.StringVar(&m.answers, "answers", "", "answer AskUserQuestion from this JSON `file` (headless)")
	fs.IntVar(&m.contextWindow, "context-window", 0, "the model's context window in `tokens`, for a model Workbench does not know (default: contextWindow in settings, else the known model's)")
}

// choice is what the flags say about the model, in the assembly's terms.
func (m *modelFlags) choice() session.Model {
	return session.Model{
		Provider: m.provider, Model: m.model, BaseURL: m.baseURL, Script: m.script,
		MaxTurns: m.maxTurns, Continue: m.cont, Resume: m.resume, ContextWindow: m.contextWindow,
	}
}

// traceWriter prints stage events as JSON lines; the mutex keeps lines of
// parallel calls whole.
type traceWriter struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func newTraceWriter(w io.Writer) *traceWriter { return &traceWriter{enc: json.NewEncoder(w)} }

func (t *traceWriter) write(v any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.enc.Encode(v)
}

// stages is the trace as a stage observer, or nil without a writer.
func (t *traceWriter) stages() func(agent.StageEvent) {
	if t == nil {
		return nil
	}
	return func(ev agent.StageEvent) { t.write(ev) }
}
