// Package session assembles a Workbench session, the one way every entry
// point gets one: settings and flags become a policy and hooks, the tool
// catalog is built (files, search, shell, tasks, PTY sessions, plan, todo,
// skills, memory, web, MCP, subagents), the pipeline records every stage,
// and an agent.Session runs the loop. The TUI, `-p`, `workbench tool` and
// `workbench tools` differ only in the Wiring they pass, so they see the
// same catalog and the same decisions.
package session

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/sandbox"
	"github.com/seed92b641c3/workbench/settings"
)

// Options are the project, settings and permission choices every way of
// running Workbench shares (the flags --cwd, --settings, --allow...), so
// they mean the same headless and in the TUI.
type Options struct {
	// Dir is the project directory; "" means the working directory.
	Dir string
	// SettingsFile is an extra settings file applied after the project's.
	SettingsFile string
	// Mode is a permission mode name; "" keeps the settings' mode.
	Mode string
	// Allow, Ask and Deny are rules given on the command line.
	Allow, Ask, Deny []string
	// SpillDir overrides the session's spill directory.
	SpillDir string
	// MaxOutput is the output cap in bytes (0: the settings' cap).
	MaxOutput int
	// NoClaudeSettings skips .claude/settings*.json.
	NoClaudeSettings bool
	// Sandbox is a sandbox mode name (--sandbox); "" keeps the settings'.
	Sandbox string
	// TrustProject applies the project's own settings files whole for
	// this session (--trust-project), as a recorded trust does.
	TrustProject bool
}

// Config is everything a session needs that settings and flags decide. It
// is read once per session, so a grant given in one session does not leak
// into the next.
type Config struct {
	// ProjectDir is the project root: the nearest directory, the one
	// started in or an ancestor, holding .workbench/, .claude/ or .git. Its
	// settings, instruction files, skills and .mcp.json apply, and it is
	// the workspace.
	ProjectDir string
	// WorkDir is the directory the session started in: tools resolve
	// relative paths there, `./path` rules are relative to it.
	WorkDir string
	// Notices are settings problems that do not stop a session.
	Notices   []string
	Settings  *settings.Settings
	Policy    *permission.Policy
	Hooks     *hooks.Registry
	Mode      *ModeBox
	MaxOutput int
	SpillDir  string
	// Sandbox confines every process the agent starts (H16).
	Sandbox *sandbox.Sandbox
	// missingAtStart says, for each project file a server names, whether
	// it was missing when first seen (serverGuard; under runLaterMu).
	missingAtStart map[string]bool
	runLaterMu     sync.Mutex
	// ProjectTrusted says the project's own settings files apply whole (a
	// recorded trust, or --trust-project); only then does the TUI put the
	// one-time question about its MCP servers (mcpquestion.go).
	ProjectTrusted bool
	// AnswerFile is the local settings file that question writes its answer
	// to: .claude/settings.local.json as Claude Code does, or
	// .workbench/settings.local.json when .claude files are not read.
	AnswerFile string
	// AlwaysFile is where the approval dialog's "Always" writes its rule:
	// the project's .workbench/settings.local.json when the person trusts
	// the project on record (the trust follows the rule), and otherwise
	// the person's own settings for the project (settings.Paths.Personal),
	// which count without trust: a rule in a withheld file would be gone
	// next session, and a project's files must not grant themselves
	// anything.
	AlwaysFile string
}

// ModeBox holds the permission mode, which the UI and the plan tools
// change while calls read it.
type ModeBox struct {
	mu   sync.RWMutex
	mode permission.Mode
	// refuse says why a mode may not be set ("" when it may):
	// permissions.disableBypassPermissionsMode.
	refuse func(permission.Mode) string
}

// Get returns the current mode.
func (m *ModeBox) Get() permission.Mode {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.mode
}

// Set changes the mode for every later call. A mode the settings refuse
// is not set: the mode stays as it was (see Refuse for why).
func (m *ModeBox) Set(mode permission.Mode) {
	if m.Refuse(mode) != "" {
		return
	}
	m.mu.Lock()
	m.mode = mode
	m.mu.Unlock()
}

// Refuse says why mode may not be set, or "" when it may.
func (m *ModeBox) Refuse(mode permission.Mode) string {
	if m.refuse == nil {
		return ""
	}
	return m.refuse(mode)
}

// Load reads settings and flags into a Config. Its errors are usage
// errors: nothing has run yet, and a half-read policy never runs.
func Load(o Options) (*Config, error) {
	dir := o.Dir
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
	work := dir
	home, _ := os.UserHomeDir()
	if real, err := filepath.EvalSymlinks(home); err == nil {
		home = real
	}
	dir = settings.ProjectRoot(work, home)
	paths := settings.DefaultPaths(dir)
	paths.Extra = o.SettingsFile
	trusted, changed := settings.TrustState(settings.TrustFile(paths), dir)
	if !o.TrustProject {
		paths.Untrusted, paths.TrustChanged = !trusted, changed
	}
	always := paths.Local
	if !trusted {
		// --trust-project trusts for one run: a rule written to the
		// project's file would be withheld in the next.
		always = paths.Personal
	}
	s, err := settings.Load(dir, paths, o.NoClaudeSettings)
	if err != nil {
		return nil, err
	}
	policy, err := s.Policy(dir)
	if err != nil {
		return nil, err
	}
	if err := policy.SetWorkDir(work); err != nil {
		return nil, err
	}
	policy.AddHookDirs(sandbox.GitHookDirs(dir)...)
	for _, f := range []struct {
		b     permission.Behavior
		flag  string
		rules []string
	}{{permission.Deny, "--deny", o.Deny}, {permission.Ask, "--ask", o.Ask}, {permission.Allow, "--allow", o.Allow}} {
		if err := policy.AddRules(f.b, f.flag, f.rules...); err != nil {
			return nil, fmt.Errorf("%s: %w", f.flag, err)
		}
	}
	mode := permission.ModeDefault
	if s.Mode != "" {
		if why := s.RefuseMode(s.Mode); why != "" {
			return nil, fmt.Errorf("permissions.defaultMode %s: %s", s.Mode, why)
		}
		mode = s.Mode
	}
	if o.Mode != "" {
		m, ok := permission.ParseMode(o.Mode)
		if !ok {
			return nil, fmt.Errorf("--permission-mode %q: unknown mode (one of default, acceptEdits, plan, bypassPermissions, dontAsk, auto)", o.Mode)
		}
		if why := s.RefuseMode(m); why != "" {
			return nil, fmt.Errorf("--permission-mode %s: %s", m, why)
		}
		mode = m
	}
	hreg, err := s.HookRegistry()
	if err != nil {
		return nil, err
	}
	maxOut := s.MaxOutputBytes
	if o.MaxOutput < 0 {
		return nil, fmt.Errorf("--max-output must not be negative")
	}
	if o.MaxOutput > 0 {
		maxOut = o.MaxOutput
	}
	spill := ""
	if o.SpillDir != "" {
		if spill, err = filepath.Abs(o.SpillDir); err != nil {
			return nil, err
		}
	}
	sb, err := newSessionSandbox(dir, s, policy, o.Sandbox)
	if err != nil {
		return nil, err
	}
	hooksName := hookFiles(dir, s)
	runLater := runLaterFiles(dir, s, hooksName)
	sb.ProtectRunLater(runLater...)
	policy.AddRunLater(runLater...)
	hreg.SetGuard(hookGuard(hooksName))
	answers := paths.ClaudeLocal
	if o.NoClaudeSettings {
		answers = paths.Local
	}
	return &Config{
		ProjectTrusted: !paths.Untrusted, AnswerFile: answers, AlwaysFile: always,
		ProjectDir: dir, WorkDir: work, Settings: s, Policy: policy, Hooks: hreg,
		Notices: append(append([]string(nil), s.Notices...), policy.AnchorNotes()...),
		Mode:    &ModeBox{mode: mode, refuse: s.RefuseMode}, MaxOutput: maxOut, SpillDir: spill, Sandbox: sb,
	}, nil
}
