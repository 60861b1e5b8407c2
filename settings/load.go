package settings

import (
	"fmt"
	"path/filepath"

	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/permission"
)

// Settings is every layer merged. Scalars: the last layer that sets one wins.
// Lists (rules, directories, hooks): layers add up, each rule remembering
// its file so a person can find it.
type Settings struct {
	Layers []Layer
	Mode   permission.Mode
	Rules  map[permission.Behavior][]SourcedRule
	// AdditionalDirectories are extra workspace roots, absolute.
	AdditionalDirectories []string
	Hooks                 []hooks.Config
	MaxOutputBytes        int
	Env                   map[string]string
	DeferredTools         []string
	Provider, Model       string
	BaseURL               string
	Retention             Retention
	// MCPServers are the servers of the person's own files (user settings,
	// --settings); they start with the session.
	MCPServers map[string]MCPServer
	// ProjectMCPServers are the mcpServers of a project's own files
	// (.workbench/settings.json and settings.local.json), per file. Like a
	// project's .mcp.json they start nothing until the person trusts them:
	// a cloned repository must not run programs on this machine.
	ProjectMCPServers      []FileMCPServers
	WebFetch               WebFetch
	WebSearch              *WebSearch
	DisableBackgroundTasks bool
	DisableShellSessions   bool
	// ContextWindow and AutoCompactPercent: see File.
	ContextWindow, AutoCompactPercent int
	// Theme is the TUI's palette setting: "auto", "dark", "light", or ""
	// when no layer sets it (which means auto).
	Theme string
	// RewindIgnore adds up the rewind.ignore patterns of every layer;
	// RewindDisable is set when any layer turns checkpoints off.
	RewindIgnore  []string
	RewindDisable bool
	// Sandbox is the sandbox configuration (H16).
	Sandbox SandboxSettings
	// DisableBypass is set by permissions.disableBypassPermissionsMode
	// "disable" in any layer: bypassPermissions is refused, and DisabledBy
	// names the file that said so.
	DisableBypass bool
	DisabledBy    string
	// ProjectMCP says which servers of a project's .mcp.json the person
	// trusts. The person's own files (user settings and the --settings
	// file) trust by name; a project's files cannot trust alone, since a
	// cloned repository could ship a settings.local.json as easily as a
	// .mcp.json: their names are answers that need this machine's record.
	ProjectMCP ProjectMCP
	// Notices are things a person should know about their settings that
	// do not stop a session (a key ignored where it was written, a hook
	// event or handler type Workbench does not run), for the host to show
	// on stderr and in the UI.
	Notices []string
	// Withheld is what the project's own files asked for and did not get,
	// because the person has not trusted the project (Paths.Untrusted).
	Withheld []Withheld
	// Digest is ProjectDigest of the files as they were read, so a trust
	// question records what the person was shown.
	Digest string
	// Files lists every settings path that applies, read or not: writes to
	// them always ask (H4), so an agent cannot widen its own permissions.
	Files []string
}

// FileMCPServers are the mcpServers one project settings file defines.
type FileMCPServers struct {
	Path    string
	Servers map[string]MCPServer
}

// ProjectMCP is what settings say about a project's .mcp.json servers.
type ProjectMCP struct {
	// EnableAll trusts every server of the file; Enabled the ones named.
	EnableAll bool
	Enabled   []string
	// AnsweredAll and Answered are those keys in a trusted project's own
	// files: the one-time question's answers, which start a server only
	// together with this machine's approval of it (mcp.ProjectPolicy).
	AnsweredAll bool
	Answered    []string
	// Disabled never start, from any layer: a restriction is safe to take
	// from anyone.
	Disabled []string
	// Sources name the files that trusted servers, for messages.
	Sources []string
}

// SourcedRule is a rule and the file (or flag) it came from.
type SourcedRule struct {
	Rule   string
	Source string
}

// Load reads the layers of a project: ~/.claude/settings.json (unless
// noClaude), the Workbench user file, .claude project and local (unless
// noClaude), .workbench project and local, the person's own file for the
// project (Paths.Personal), then the --settings file.
func Load(projectDir string, p Paths, noClaude bool) (*Settings, error) {
	type candidate struct {
		path   string
		claude bool
		// personal files are the person's own, outside any repository:
		// only they may trust a project's MCP servers.
		personal bool
	}
	var list []candidate
	if !noClaude {
		list = append(list, candidate{p.ClaudeUser, true, true})
	}
	list = append(list, candidate{p.User, false, true})
	if !noClaude {
		list = append(list, candidate{p.ClaudeProject, true, false}, candidate{p.ClaudeLocal, true, false})
	}
	list = append(list, candidate{p.Project, false, false}, candidate{p.Local, false, false})
	// The person's own file for the project comes after the project's, so
	// what they chose there is not undone by a file the project ships.
	list = append(list, candidate{p.Personal, false, true})
	s := &Settings{Rules: map[permission.Behavior][]SourcedRule{}, Env: map[string]string{}, Sandbox: defaultSandbox()}
	if p.Untrusted {
		// Only an untrusted project's question needs it; a file that does
		// not parse is reported by the reading below.
		s.Digest, _ = ProjectDigest(projectDir)
	}
	for _, c := range list {
		if c.path != "" {
			s.Files = append(s.Files, c.path)
		}
	}
	extra := ""
	if p.Extra != "" {
		extra = mustAbs(p.Extra)
		list = append(list, candidate{extra, false, true})
	}
	for _, c := range list {
		if c.path == "" {
			continue
		}
		l, ok, err := ReadFile(c.path, c.claude)
		if err != nil {
			return nil, err
		}
		if !ok {
			if c.path == extra {
				return nil, &Error{Path: p.Extra, Msg: "file not found"}
			}
			continue
		}
		if p.Untrusted && !c.personal {
			var parts []string
			if l, parts = restrictOnly(l); len(parts) > 0 {
				w := Withheld{Path: c.path, Parts: parts, Changed: p.TrustChanged}
				s.Withheld = append(s.Withheld, w)
				s.Notices = append(s.Notices, w.String())
			}
		}
		s.merge(projectDir, l, c.personal, p.Untrusted && !c.personal)
	}
	if p.Untrusted {
		if parts := commandGrantsWithheld(projectDir); len(parts) > 0 {
			w := Withheld{Path: filepath.Join(projectDir, ".claude", "commands"), Parts: parts, Changed: p.TrustChanged}
			s.Withheld = append(s.Withheld, w)
			s.Notices = append(s.Notices, w.String())
		}
	}
	return s, nil
}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

// merge adds one layer; untrusted says the layer is an untrusted project's.
func (s *Settings) merge(projectDir string, l Layer, personal, untrusted bool) {
	s.Layers = append(s.Layers, l)
	s.mergeSandbox(projectDir, l)
	for _, n := range l.Notices {
		s.Notices = append(s.Notices, n.String())
	}
	f := l.File
	enables := f.EnableAllProjectMcpServers || len(f.EnabledMcpjsonServers) > 0
	switch {
	case personal && enables:
		s.ProjectMCP.EnableAll = s.ProjectMCP.EnableAll || f.EnableAllProjectMcpServers
		s.ProjectMCP.Enabled = append(s.ProjectMCP.Enabled, f.EnabledMcpjsonServers...)
		s.ProjectMCP.Sources = append(s.ProjectMCP.Sources, l.Path)
	case enables && !untrusted:
		// The one-time question's answers, kept where Claude Code keeps
		// them; each counts only with this machine's approval of the
		// server (mcp.ProjectPolicy), since a repository can ship them.
		s.ProjectMCP.AnsweredAll = s.ProjectMCP.AnsweredAll || f.EnableAllProjectMcpServers
		s.ProjectMCP.Answered = append(s.ProjectMCP.Answered, f.EnabledMcpjsonServers...)
	case enables:
		s.Notices = append(s.Notices, fmt.Sprintf("%s: enableAllProjectMcpServers and enabledMcpjsonServers wait until you trust this project, and then count only for servers you approved on this machine (a repository cannot trust its own .mcp.json)", l.Path))
	}
	s.ProjectMCP.Disabled = append(s.ProjectMCP.Disabled, f.DisabledMcpjsonServers...)
	if r := f.Rewind; r != nil {
		s.RewindIgnore = append(s.RewindIgnore, r.Ignore...)
		s.RewindDisable = s.RewindDisable || r.Disable
	}
	if p := f.Permissions; p != nil {
		if p.DisableBypassPermissionsMode == "disable" && !s.DisableBypass {
			s.DisableBypass, s.DisabledBy = true, l.Path
		}
		add := func(b permission.Behavior, rules []string) {
			for _, r := range rules {
				s.Rules[b] = append(s.Rules[b], SourcedRule{Rule: r, Source: l.Path})
			}
		}
		add(permission.Allow, p.Allow)
		add(permission.Ask, p.Ask)
		add(permission.Deny, p.Deny)
		if p.DefaultMode != "" {
			s.Mode = permission.Mode(p.DefaultMode)
		}
		for _, d := range p.AdditionalDirectories {
			if !filepath.IsAbs(d) {
				d = filepath.Join(projectDir, d)
			}
			s.AdditionalDirectories = append(s.AdditionalDirectories, filepath.Clean(d))
		}
	}
	if len(f.Hooks) > 0 {
		s.Hooks = append(s.Hooks, f.Hooks)
	}
	if f.MaxOutputBytes > 0 {
		s.MaxOutputBytes = f.MaxOutputBytes
	}
	if f.ContextWindow > 0 {
		s.ContextWindow = f.ContextWindow
	}
	if f.AutoCompactPercent > 0 {
		s.AutoCompactPercent = f.AutoCompactPercent
	}
	if f.Theme != "" {
		s.Theme = f.Theme
	}
	for k, v := range f.Env {
		s.Env[k] = v
	}
	s.DeferredTools = append(s.DeferredTools, f.DeferredTools...)
	if f.Provider != "" {
		s.Provider = f.Provider
	}
	if f.Model != "" {
		s.Model = f.Model
	}
	if f.BaseURL != "" {
		s.BaseURL = f.BaseURL
	}
	if len(f.MCPServers) > 0 && !personal {
		s.ProjectMCPServers = append(s.ProjectMCPServers, FileMCPServers{Path: l.Path, Servers: f.MCPServers})
	}
	for name, srv := range f.MCPServers {
		if !personal {
			break
		}
		if s.MCPServers == nil {
			s.MCPServers = map[string]MCPServer{}
		}
		s.MCPServers[name] = srv
	}
	if f.WebFetch != nil {
		s.WebFetch = *f.WebFetch
	}
	if f.WebSearch != nil {
		s.WebSearch = f.WebSearch
	}
	s.DisableBackgroundTasks = s.DisableBackgroundTasks || f.DisableBackgroundTasks
	s.DisableShellSessions = s.DisableShellSessions || f.DisableShellSessions
	if r := f.SpillRetention; r != nil {
		if r.MaxAgeDays > 0 {
			s.Retention.MaxAgeDays = r.MaxAgeDays
		}
		if r.MaxTotalMB > 0 {
			s.Retention.MaxTotalMB = r.MaxTotalMB
		}
	}
}

// Policy builds the permission policy: workspace roots, every layer's rules
// with their sources, and the settings files as protected paths.
func (s *Settings) Policy(projectDir string) (*permission.Policy, error) {
	roots := append([]string{projectDir}, s.AdditionalDirectories...)
	p := permission.NewPolicy(roots)
	for _, b := range []permission.Behavior{permission.Deny, permission.Ask, permission.Allow} {
		for _, r := range s.Rules[b] {
			if err := p.AddRules(b, r.Source, r.Rule); err != nil {
				return nil, err
			}
		}
	}
	p.AddProtected(s.Files...)
	return p, nil
}

// HookRegistry builds the hooks of every layer, in layer order.
func (s *Settings) HookRegistry() (*hooks.Registry, error) {
	r := hooks.NewRegistry()
	for _, cfg := range s.Hooks {
		// What Load ignores was already reported as Notices by Parse.
		if _, err := r.Load(cfg); err != nil {
			return nil, fmt.Errorf("hooks: %w", err)
		}
	}
	return r, nil
}

// Environ renders Env as KEY=VALUE entries for child processes.
func (s *Settings) Environ() []string {
	out := make([]string, 0, len(s.Env))
	for k, v := range s.Env {
		out = append(out, k+"="+v)
	}
	return out
}
