package session

import (
	"errors"
	"fmt"
	"github.com/seed92b641c3/workbench/agent"
	"os/exec"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/sandbox"
	"github.com/seed92b641c3/workbench/settings"
	"github.com/seed92b641c3/workbench/tasks/pty"
	"github.com/seed92b641c3/workbench/tools/shell"
	"github.com/seed92b641c3/workbench/tools/web"
)

// newSessionSandbox builds the sandbox under every process the agent starts
// (H16) from the settings and the --sandbox flag. The proxy of
// sandbox.allowedDomains dials with WebFetch's checks (H11): private
// addresses only for a host a WebFetch(domain:...) allow rule names.
func newSessionSandbox(dir string, s *settings.Settings, policy *permission.Policy, flagMode string) (*sandbox.Sandbox, error) {
	cfg := s.Sandbox
	mode := cfg.Mode
	if flagMode != "" {
		m, ok := sandbox.ParseMode(flagMode)
		if !ok {
			return nil, fmt.Errorf("--sandbox %q: unknown mode (one of %s)", flagMode, settings.SandboxModes())
		}
		mode = m
	}
	return sandbox.New(sandbox.Policy{
		Mode:                mode,
		Roots:               append([]string{dir}, s.AdditionalDirectories...),
		AllowWrite:          cfg.AllowWrite,
		DenyRead:            cfg.DenyRead,
		AllowRead:           cfg.AllowRead,
		HideRules:           hideRules(policy),
		Network:             cfg.Network,
		AllowedDomains:      cfg.AllowedDomains,
		Required:            cfg.Required,
		AllowAllUnixSockets: cfg.AllowAllUnixSockets,
		SealRoots:           cfg.SealWorkspaceRoot,
	}, sandbox.Options{
		Dial: web.CheckedDial(nil, func(host string) bool { return namesHost(policy, host) }),
	})
}

// hideRules are the Read deny rules as paths for the sandbox to hide, so
// a file the Read tool may not open is not there for the agent's commands
// either (issue 16).
func hideRules(policy *permission.Policy) []sandbox.HideRule {
	var out []sandbox.HideRule
	for _, d := range policy.DeniedReads() {
		out = append(out, sandbox.HideRule{Rule: d.Rule, Patterns: d.Patterns, Name: d.Name})
	}
	return out
}

// sandboxNotes are what the person should know of the sandbox at start: why
// it is unavailable, and settings paths that do not exist.
func sandboxNotes(sb *sandbox.Sandbox) []string {
	var notes []string
	if n := sb.Notice(); n != "" {
		notes = append(notes, n)
	}
	return append(notes, sb.Warnings()...)
}

// sandboxNotes are the session's sandbox notes at Open. While the start-up
// check is still running (in the background, off the first frame's path)
// its notice is left out and follows its answer, through w.LateNotes or
// as a notice event, before any command starts: commands wait for it.
func (s *Session) sandboxNotes(w Wiring) []string {
	sb := s.Config.Sandbox
	select {
	case <-sb.Checked():
		return sandboxNotes(sb)
	default:
	}
	sb.AfterCheck(func() {
		n := sb.Notice()
		switch {
		case n == "":
		case w.LateNotes != nil:
			w.LateNotes([]string{n})
		case w.Publish != nil:
			w.Publish(agent.Event{Kind: agent.EventNotice, Text: n})
		}
	})
	return sb.Warnings()
}

// bashOptions put Bash's commands into the session's sandbox.
func (c *Config) bashOptions() []shell.Option {
	return []shell.Option{shell.WithSandbox(c.Sandbox, c.Settings.Sandbox.AllowUnsandboxedCommands)}
}

// sandboxGate is the pipeline's view of the sandbox: escapes ask,
// autoAllow, and where each process runs.
func (c *Config) sandboxGate() *shell.Gatekeeper {
	d := c.Sandbox.Describe()
	return &shell.Gatekeeper{
		Sandbox: c.Sandbox, Label: d.String(), AutoAllow: c.Settings.Sandbox.AutoAllow,
		NetworkClosed: d.Network == sandbox.NetNone,
	}
}

// PersonShell is how the person's own /shell pane runs: as it is, unless
// sandbox.person asks for the sandbox there too.
func (c *Config) PersonShell() pty.Wrapper {
	if c.Settings.Sandbox.Person {
		return c.Sandbox.Start
	}
	return pty.Unconfined
}

// mcpSandbox starts the MCP stdio servers whose entry says "sandbox": true
// in the session's sandbox, with the launcher and policy of the agent's
// commands. Where the sandbox is off or unavailable such a server does not
// start: its entry asked for the wall.
func (c *Config) mcpSandbox(cmd *exec.Cmd) (func(), error) {
	if !c.Sandbox.Active() {
		if err := c.Sandbox.Unavailable(); err != nil {
			return nil, fmt.Errorf("the sandbox is unavailable: %w", err)
		}
		return nil, errors.New("the sandbox is off")
	}
	return c.Sandbox.Wrap(cmd)
}

// SandboxNotes are the sandbox's start-up notes, for a caller that shows
// them before the session opens (the TUI prints them on stderr too).
func (c *Config) SandboxNotes() []string { return sandboxNotes(c.Sandbox) }
