package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/settings"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/files"
	"github.com/seed92b641c3/workbench/tools/search"
	"github.com/seed92b641c3/workbench/tools/shell"
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
}

// harness is everything a session needs that settings and flags decide.
type harness struct {
	projectDir string
	settings   *settings.Settings
	policy     *permission.Policy
	hooks      *hooks.Registry
	registry   *tools.Registry
	mode       *modeBox
	maxOutput  int
}

// modeBox holds the permission mode, which the UI and plan tools change
// while calls read it.
type modeBox struct {
	mu   sync.RWMutex
	mode permission.Mode
}

func (m *modeBox) Get() permission.Mode {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.mode
}

func (m *modeBox) Set(mode permission.Mode) {
	m.mu.Lock()
	m.mode = mode
	m.mu.Unlock()
}

// setup reads settings and flags into a harness. Its errors are usage
// errors: nothing has run yet.
func setup(c *commonFlags) (*harness, error) {
	dir := c.cwd
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		dir = wd
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("--cwd %s: not a directory", dir)
	}
	paths := settings.DefaultPaths(dir)
	paths.Extra = c.settingsFile
	s, err := settings.Load(dir, paths, c.noClaude)
	if err != nil {
		return nil, err
	}
	policy, err := s.Policy(dir)
	if err != nil {
		return nil, err
	}
	for _, f := range []struct {
		b     permission.Behavior
		flag  string
		rules []string
	}{{permission.Deny, "--deny", c.deny}, {permission.Ask, "--ask", c.ask}, {permission.Allow, "--allow", c.allow}} {
		if err := policy.AddRules(f.b, f.flag, f.rules...); err != nil {
			return nil, fmt.Errorf("%s: %w", f.flag, err)
		}
	}
	mode := permission.ModeDefault
	if s.Mode != "" {
		mode = s.Mode
	}
	if c.mode != "" {
		m, ok := permission.ParseMode(c.mode)
		if !ok {
			return nil, fmt.Errorf("--permission-mode %q: unknown mode (one of default, acceptEdits, plan, bypassPermissions, dontAsk, auto)", c.mode)
		}
		mode = m
	}
	hreg, err := s.HookRegistry()
	if err != nil {
		return nil, err
	}
	maxOut := s.MaxOutputBytes
	if c.maxOutput < 0 {
		return nil, fmt.Errorf("--max-output must not be negative")
	}
	if c.maxOutput > 0 {
		maxOut = c.maxOutput
	}
	return &harness{
		projectDir: dir, settings: s, policy: policy, hooks: hreg,
		registry: builtinTools(), mode: &modeBox{mode: mode}, maxOutput: maxOut,
	}, nil
}

// withEgress adds the web and MCP tools of the project to a harness's
// registry for the one-shot commands (tool, tools), starting project MCP
// servers as a headless run does.
func withEgress(h *harness, stderr io.Writer) *egress {
	e := startEgress(context.Background(), h, egressOptions{startUntrusted: true})
	for _, t := range e.tools {
		h.registry.Add(t)
	}
	for _, n := range e.notes {
		fmt.Fprintln(stderr, "workbench: "+n)
	}
	return e
}

// builtinTools is the catalog every session starts with.
func builtinTools() *tools.Registry {
	r := tools.NewRegistry(files.All()...)
	r.Add(search.Grep())
	r.Add(shell.Bash())
	return r
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

// session is one run's state directory, transcript and pipeline.
type session struct {
	dir        agent.SessionDir
	transcript *agent.Transcript
	pipeline   *agent.Pipeline
}

// createSession applies spill retention and creates (or, for a resumed
// id, reopens) a session directory and its transcript.
func createSession(h *harness, id string) (agent.SessionDir, *agent.Transcript, error) {
	root := agent.StateRoot()
	agent.ApplyRetention(root, h.settings.Retention.MaxAgeDays, h.settings.Retention.MaxTotalMB)
	dir, err := agent.CreateSessionDir(root, id)
	if err != nil {
		return dir, nil, err
	}
	tr, err := agent.OpenTranscript(dir.Transcript())
	return dir, tr, err
}

// recordedPipeline builds the pipeline of a session so that every stage,
// hook verdict, spill file and session grant lands in the transcript (H7,
// H8), with --trace and the UI as further views of the stage events.
func recordedPipeline(h *harness, reg *tools.Registry, dir agent.SessionDir, tr *agent.Transcript,
	approver agent.Approver, trace *traceWriter, publish func(agent.Event)) *agent.Pipeline {
	if h.hooks != nil {
		// Every hook's verdict goes into the audit trail, including
		// failures that an aggregate result would hide.
		h.hooks.Observe(func(in hooks.Input, o hooks.Outcome) { tr.Append(agent.EntryHook, hookRecord(in, o)) })
	}
	return &agent.Pipeline{
		Tools: reg, Policy: h.policy, Mode: h.mode.Get, Hooks: h.hooks, Approver: approver,
		WorkDir: h.projectDir, SessionID: dir.ID, TranscriptPath: dir.Transcript(),
		SpillDir: dir.Spill(), MaxOutput: h.maxOutput, Env: h.settings.Environ(),
		OnSpill: func(s tools.Spill) { tr.Append(agent.EntrySpill, s) },
		OnGrant: func(rule string) { tr.Append(agent.EntryGrant, map[string]string{"rule": rule}) },
		Observe: func(ev agent.StageEvent) {
			tr.Append(agent.EntryStage, &ev)
			if trace != nil {
				trace.write(ev)
			}
			if publish != nil {
				publish(agent.Event{Kind: agent.EventStage, Stage: &ev})
			}
		},
	}
}

// openSession creates a session for one `workbench tool` call.
func openSession(h *harness, c *commonFlags, trace *traceWriter, approver agent.Approver) (*session, error) {
	dir, tr, err := createSession(h, agent.NewSessionID())
	if err != nil {
		return nil, err
	}
	tr.Append(agent.EntrySession, map[string]any{"id": dir.ID, "cwd": h.projectDir, "mode": h.mode.Get()})
	p := recordedPipeline(h, h.registry, dir, tr, approver, trace, nil)
	if c.spillDir != "" {
		if p.SpillDir, err = filepath.Abs(c.spillDir); err != nil {
			return nil, err
		}
	}
	return &session{dir: dir, transcript: tr, pipeline: p}, nil
}

// hookRecord is how one hook verdict is written to the transcript.
func hookRecord(in hooks.Input, o hooks.Outcome) map[string]any {
	rec := map[string]any{
		"event": in.HookEventName, "hook": o.Hook, "tool": in.ToolName, "tool_use_id": in.ToolUseID,
		"duration_us": o.Duration.Microseconds(),
	}
	if o.Block {
		rec["block"], rec["reason"] = true, o.Reason
	}
	if o.PermissionDecision != "" {
		rec["permission_decision"] = o.PermissionDecision
	}
	if len(o.UpdatedInput) > 0 {
		rec["updated_input"] = o.UpdatedInput
	}
	if o.Err != nil {
		rec["error"] = o.Err.Error()
	}
	return rec
}
