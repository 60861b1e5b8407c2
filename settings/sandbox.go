package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/seed92b641c3/workbench/sandbox"
)

// Sandbox is the "sandbox" object of a Workbench settings file (H16).
// Pointers tell "not set" from false, so a later layer can turn a key off.
type Sandbox struct {
	// Mode is workspace-write, read-only or off.
	Mode string `json:"mode,omitempty"`
	// Network opens the network to sandboxed commands.
	Network *bool `json:"network,omitempty"`
	// AllowedDomains opens it only for these domains, through the proxy.
	AllowedDomains []string `json:"allowedDomains,omitempty"`
	// AllowWrite and DenyRead add writable and hidden paths.
	AllowWrite []string `json:"allowWrite,omitempty"`
	DenyRead   []string `json:"denyRead,omitempty"`
	// AllowRead opens default hidden credential paths it names.
	AllowRead []string `json:"allowRead,omitempty"`
	// AutoAllow lets a Bash call that asks only because no rule allows it
	// run sandboxed without asking.
	AutoAllow *bool `json:"autoAllow,omitempty"`
	// AllowUnsandboxedCommands lets a call ask to run outside the sandbox
	// (dangerouslyDisableSandbox); false refuses such calls.
	AllowUnsandboxedCommands *bool `json:"allowUnsandboxedCommands,omitempty"`
	// Required refuses commands when the sandbox is unavailable.
	Required *bool `json:"required,omitempty"`
	// Person sandboxes the person's own /shell pane and ! commands too.
	Person *bool `json:"person,omitempty"`
	// AllowAllUnixSockets lets sandboxed commands create Unix sockets,
	// which reach servers outside the sandbox (Claude Code's
	// network.allowAllUnixSockets).
	AllowAllUnixSockets *bool `json:"allowAllUnixSockets,omitempty"`
	// SealWorkspaceRoot seals a root lacking .workbench, .claude or .git,
	// so a command cannot create them (nor any directory directly there).
	SealWorkspaceRoot *bool `json:"sealWorkspaceRoot,omitempty"`
}

// claudeSandbox is Claude Code's "sandbox" object; the keys that mean what
// Workbench's do are read, the rest ignored. "enabled" is not read: the
// sandbox is on by default here, and a project file must not turn it off
// by a key that means "not opted in" elsewhere.
type claudeSandbox struct {
	FailIfUnavailable        *bool `json:"failIfUnavailable"`
	AutoAllowBashIfSandboxed *bool `json:"autoAllowBashIfSandboxed"`
	AllowUnsandboxedCommands *bool `json:"allowUnsandboxedCommands"`
	Filesystem               struct {
		AllowWrite []string `json:"allowWrite"`
		DenyRead   []string `json:"denyRead"`
		AllowRead  []string `json:"allowRead"`
	} `json:"filesystem"`
	Network struct {
		AllowedDomains      []string `json:"allowedDomains"`
		AllowAllUnixSockets *bool    `json:"allowAllUnixSockets"`
	} `json:"network"`
}

// parseSandbox checks a file's sandbox object; raw is its text, data the
// whole file (for positions).
func parseSandbox(path string, data, raw []byte, claude bool) (*Sandbox, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	fail := func(keys []string, field, msg string) error {
		e := &Error{Path: path, Field: field, Msg: msg}
		if off := locate(data, keys); off >= 0 {
			e.Line, e.Column = position(data, off)
		}
		return e
	}
	if claude {
		var c claudeSandbox
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fail([]string{"sandbox"}, "sandbox", "not Claude Code's sandbox object: "+err.Error())
		}
		return &Sandbox{
			Required: c.FailIfUnavailable, AutoAllow: c.AutoAllowBashIfSandboxed,
			AllowUnsandboxedCommands: c.AllowUnsandboxedCommands,
			AllowWrite:               c.Filesystem.AllowWrite, DenyRead: c.Filesystem.DenyRead, AllowRead: c.Filesystem.AllowRead,
			AllowedDomains: c.Network.AllowedDomains, AllowAllUnixSockets: c.Network.AllowAllUnixSockets,
		}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var s Sandbox
	if err := dec.Decode(&s); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te):
			return nil, fail(append([]string{"sandbox"}, strings.Split(te.Field, ".")...), "sandbox."+te.Field,
				fmt.Sprintf("expected %s, found JSON %s", te.Type, te.Value))
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return nil, fail([]string{"sandbox", name}, "sandbox."+name,
				"unknown sandbox setting (one of mode, network, allowedDomains, allowWrite, denyRead, allowRead, autoAllow, allowUnsandboxedCommands, required, person, allowAllUnixSockets, sealWorkspaceRoot)")
		default:
			return nil, fail([]string{"sandbox"}, "sandbox", err.Error())
		}
	}
	if s.Mode != "" {
		if _, ok := sandbox.ParseMode(s.Mode); !ok {
			return nil, fail([]string{"sandbox", "mode"}, "sandbox.mode",
				fmt.Sprintf("unknown mode %q (one of %s)", s.Mode, SandboxModes()))
		}
	}
	return &s, nil
}

// SandboxModes lists the modes for messages and help.
func SandboxModes() string {
	var names []string
	for _, m := range sandbox.Modes() {
		names = append(names, string(m))
	}
	return strings.Join(names, ", ")
}

// SandboxSettings is the sandbox configuration of every layer merged:
// scalars from the last layer that sets them, lists added up.
type SandboxSettings struct {
	Mode                     sandbox.Mode
	Network                  bool
	AllowedDomains           []string
	AllowWrite               []string
	DenyRead                 []string
	AllowRead                []string
	AutoAllow                bool
	AllowUnsandboxedCommands bool
	Required                 bool
	Person                   bool
	AllowAllUnixSockets      bool
	SealWorkspaceRoot        bool
}

// defaultSandbox is the sandbox with nothing set: on, no network, escapes
// allowed (each one asks), nothing automatic.
func defaultSandbox() SandboxSettings {
	return SandboxSettings{Mode: sandbox.WorkspaceWrite, AllowUnsandboxedCommands: true}
}

func (s *Settings) mergeSandbox(projectDir string, l Layer) {
	sb := l.Sandbox
	if sb == nil {
		return
	}
	set := func(dst *bool, src *bool) {
		if src != nil {
			*dst = *src
		}
	}
	if sb.Mode != "" {
		s.Sandbox.Mode = sandbox.Mode(sb.Mode)
	}
	set(&s.Sandbox.Network, sb.Network)
	set(&s.Sandbox.AutoAllow, sb.AutoAllow)
	set(&s.Sandbox.AllowUnsandboxedCommands, sb.AllowUnsandboxedCommands)
	set(&s.Sandbox.Required, sb.Required)
	set(&s.Sandbox.Person, sb.Person)
	set(&s.Sandbox.AllowAllUnixSockets, sb.AllowAllUnixSockets)
	set(&s.Sandbox.SealWorkspaceRoot, sb.SealWorkspaceRoot)
	s.Sandbox.AllowedDomains = append(s.Sandbox.AllowedDomains, sb.AllowedDomains...)
	abs := func(p string) string {
		if p == "~" || strings.HasPrefix(p, "~/") || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(projectDir, p)
	}
	for _, p := range sb.AllowWrite {
		s.Sandbox.AllowWrite = append(s.Sandbox.AllowWrite, abs(p))
	}
	for _, p := range sb.DenyRead {
		s.Sandbox.DenyRead = append(s.Sandbox.DenyRead, abs(p))
	}
	for _, p := range sb.AllowRead {
		s.Sandbox.AllowRead = append(s.Sandbox.AllowRead, abs(p))
	}
}
