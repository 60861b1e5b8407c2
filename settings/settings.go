// Package settings reads the JSON settings files people already write for
// coding agents, layered user < project < local < --settings < flags. A file
// that cannot be read fully stops the program with its path, line, column and
// what is wrong: running with half a permission policy is worse than not
// running.
package settings

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/permission"
)

// File is the shape of one settings file.
type File struct {
	Permissions *Permissions `json:"permissions,omitempty"`
	Hooks       hooks.Config `json:"hooks,omitempty"`
	// MaxOutputBytes caps a tool result before it is spilled.
	MaxOutputBytes int `json:"maxOutputBytes,omitempty"`
	// Env adds variables to the environment of tool processes.
	Env map[string]string `json:"env,omitempty"`
	// DeferredTools names tools (or globs such as mcp__*) kept out of the
	// model's schema list until searched for.
	DeferredTools []string `json:"deferredTools,omitempty"`
	// Provider and Model choose the model when flags do not.
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
	BaseURL  string `json:"baseURL,omitempty"`
	// SpillRetention bounds the spill files kept across sessions.
	SpillRetention *Retention `json:"spillRetention,omitempty"`
	// MCPServers are MCP servers in the shape other coding agents use.
	MCPServers map[string]MCPServer `json:"mcpServers,omitempty"`
	// WebFetch configures the fetch tool's egress.
	WebFetch *WebFetch `json:"webFetch,omitempty"`
	// WebSearch chooses a search backend; without it there is no search tool.
	WebSearch *WebSearch `json:"webSearch,omitempty"`
	// DisableBackgroundTasks and DisableShellSessions turn those tools off.
	DisableBackgroundTasks bool `json:"disableBackgroundTasks,omitempty"`
	DisableShellSessions   bool `json:"disableShellSessions,omitempty"`
	// ContextWindow is the model's context window in tokens, for models
	// Workbench does not know; AutoCompactPercent is how full it may get
	// before the conversation is compacted (1-100, default 80).
	ContextWindow      int `json:"contextWindow,omitempty"`
	AutoCompactPercent int `json:"autoCompactPercent,omitempty"`
	// Sandbox configures the sandbox under agent commands; checked by
	// parseSandbox in Workbench's shape or Claude Code's.
	Sandbox json.RawMessage `json:"sandbox,omitempty"`
	// Rewind configures the workspace checkpoints behind /rewind.
	Rewind *Rewind `json:"rewind,omitempty"`
	// EnableAllProjectMcpServers and EnabledMcpjsonServers trust a
	// project's .mcp.json (all of it, or the servers named), as in Claude
	// Code; they count only in the person's own files (see Settings).
	EnableAllProjectMcpServers bool     `json:"enableAllProjectMcpServers,omitempty"`
	EnabledMcpjsonServers      []string `json:"enabledMcpjsonServers,omitempty"`
	// DisabledMcpjsonServers never start, whoever trusted the file.
	DisabledMcpjsonServers []string `json:"disabledMcpjsonServers,omitempty"`
	// Theme chooses the TUI's palette: auto (from the terminal's
	// background), dark or light.
	Theme string `json:"theme,omitempty"`
}

// MCPServer is one MCP server entry: a command for stdio, or a URL.
type MCPServer struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Sandbox starts a stdio server inside the sandbox of the agent's
	// commands (README, Sandbox).
	Sandbox bool `json:"sandbox,omitempty"`
}

// WebFetch is the fetch tool's egress configuration.
type WebFetch struct {
	// Proxy is an http(s) proxy URL; a proxy that fails is an error, never
	// a reason to go direct.
	Proxy string `json:"proxy,omitempty"`
	// ProxyFromEnvironment uses HTTPS_PROXY / HTTP_PROXY.
	ProxyFromEnvironment bool `json:"proxyFromEnvironment,omitempty"`
	// MaxBytes caps the body read.
	MaxBytes int64 `json:"maxBytes,omitempty"`
}

// WebSearch chooses a search backend: brave, tavily or searxng.
type WebSearch struct {
	Backend string `json:"backend"`
	// APIKey may be written as ${VAR} to read it from the environment.
	APIKey  string `json:"apiKey,omitempty"`
	BaseURL string `json:"baseURL,omitempty"`
}

// Rewind is the rewind object of a settings file.
type Rewind struct {
	// Ignore are patterns in .gitignore syntax for files no checkpoint
	// records and no rewind touches, on top of the project's .gitignore.
	Ignore []string `json:"ignore,omitempty"`
	// Disable turns checkpoints off (then /rewind has nothing to offer).
	Disable bool `json:"disable,omitempty"`
}

// Permissions is the permissions object of a settings file.
type Permissions struct {
	Allow                 []string `json:"allow,omitempty"`
	Ask                   []string `json:"ask,omitempty"`
	Deny                  []string `json:"deny,omitempty"`
	DefaultMode           string   `json:"defaultMode,omitempty"`
	AdditionalDirectories []string `json:"additionalDirectories,omitempty"`
	// DisableBypassPermissionsMode "disable" refuses bypassPermissions
	// (flag, defaultMode, the mode cycle), as in Claude Code.
	DisableBypassPermissionsMode string `json:"disableBypassPermissionsMode,omitempty"`
}

// Retention says how long spill files are kept and how much space they may
// take; the oldest go first.
type Retention struct {
	MaxAgeDays int `json:"maxAgeDays,omitempty"`
	MaxTotalMB int `json:"maxTotalMB,omitempty"`
}

// Error is a settings problem with its place in the file.
type Error struct {
	Path   string
	Line   int
	Column int
	Field  string
	Msg    string
}

func (e *Error) Error() string {
	loc := e.Path
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", e.Path, e.Line, e.Column)
	}
	if e.Field != "" {
		return fmt.Sprintf("settings %s: %s: %s", loc, e.Field, e.Msg)
	}
	return fmt.Sprintf("settings %s: %s", loc, e.Msg)
}

// Layer is one settings file that was read.
type Layer struct {
	Path string
	// Claude marks a .claude/ file, of which only permissions and hooks are
	// read; other keys there belong to another program.
	Claude bool
	File   File
	// Sandbox is the file's sandbox object, checked; nil when absent.
	Sandbox *Sandbox
	// Notices are the parts of the file Workbench reads but does not do.
	Notices []Notice
}

// ReadFile reads and checks one settings file. A missing file is not an
// error (ok is false).
func ReadFile(path string, claude bool) (Layer, bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Layer{}, false, nil
	}
	if err != nil {
		return Layer{}, false, &Error{Path: path, Msg: err.Error()}
	}
	l, err := Parse(path, data, claude)
	return l, err == nil, err
}

// Parse checks one settings document. Unknown keys are errors in
// Workbench's own files (a misspelt "permisions" must not silently drop a
// deny list) and ignored in .claude/ files beyond permissions and hooks.
func Parse(path string, data []byte, claude bool) (Layer, error) {
	l := Layer{Path: path, Claude: claude}
	if len(bytes.TrimSpace(data)) == 0 {
		return l, nil
	}
	fail := func(off int64, field, msg string) error {
		e := &Error{Path: path, Field: field, Msg: msg}
		if off >= 0 {
			e.Line, e.Column = position(data, off)
		}
		return e
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if !claude {
		dec.DisallowUnknownFields()
	}
	var f File
	if err := dec.Decode(&f); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return l, fail(se.Offset, "", "invalid JSON: "+se.Error())
		case errors.As(err, &te):
			return l, fail(te.Offset, te.Field, fmt.Sprintf("expected %s, found JSON %s", te.Type, te.Value))
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			off := findKey(data, name)
			return l, fail(off, name, "unknown setting (check the spelling; see the README for the keys Workbench reads)")
		case errors.Is(err, io.ErrUnexpectedEOF):
			return l, fail(int64(len(bytes.TrimRight(data, " \t\r\n"))), "", "invalid JSON: the file ends before the settings object does")
		default:
			return l, fail(-1, "", err.Error())
		}
	}
	if dec.More() {
		return l, fail(dec.InputOffset(), "", "extra data after the settings object")
	}
	if r := f.Rewind; r != nil {
		for _, p := range r.Ignore {
			if strings.TrimSpace(p) == "" || strings.ContainsAny(p, "\n\r") {
				return l, fail(findKey(data, "ignore"), "rewind.ignore", fmt.Sprintf("pattern %q must be one non-blank line of .gitignore syntax", p))
			}
		}
	}
	sb, err := parseSandbox(path, data, f.Sandbox, claude)
	if err != nil {
		return l, err
	}
	l.Sandbox = sb
	if claude {
		f = File{Permissions: f.Permissions, Hooks: f.Hooks,
			EnableAllProjectMcpServers: f.EnableAllProjectMcpServers, EnabledMcpjsonServers: f.EnabledMcpjsonServers,
			DisabledMcpjsonServers: f.DisabledMcpjsonServers}
	}
	if p := f.Permissions; p != nil {
		lists := []struct {
			name  string
			rules []string
		}{{"allow", p.Allow}, {"ask", p.Ask}, {"deny", p.Deny}}
		for _, list := range lists {
			for i, r := range list.rules {
				if _, err := permission.ParseRule(r); err != nil {
					field := fmt.Sprintf("permissions.%s[%d]", list.name, i)
					return l, fail(locate(data, []string{"permissions", list.name, fmt.Sprint(i)}), field, err.Error())
				}
			}
		}
		if v := p.DisableBypassPermissionsMode; v != "" && v != "disable" {
			return l, fail(locate(data, []string{"permissions", "disableBypassPermissionsMode"}), "permissions.disableBypassPermissionsMode",
				fmt.Sprintf("unknown value %q (the only value is \"disable\")", v))
		}
		if p.DefaultMode != "" {
			if _, ok := permission.ParseMode(p.DefaultMode); !ok {
				return l, fail(locate(data, []string{"permissions", "defaultMode"}), "permissions.defaultMode",
					fmt.Sprintf("unknown mode %q (one of %s)", p.DefaultMode, modeList()))
			}
		}
	}
	if len(f.Hooks) > 0 {
		ignored, err := hooks.NewRegistry().Load(f.Hooks)
		if err != nil {
			return l, fail(locate(data, []string{"hooks"}), "hooks", err.Error())
		}
		l.Notices = hookNotices(path, data, ignored)
	}
	if claude {
		l.Notices = append(l.Notices, claudeKeysNotRead(path, data)...)
		l.Notices = append(l.Notices, claudeSandboxKeysNotRead(path, data)...)
	}
	if f.MaxOutputBytes < 0 {
		return l, fail(locate(data, []string{"maxOutputBytes"}), "maxOutputBytes", "must not be negative")
	}
	if f.ContextWindow < 0 {
		return l, fail(locate(data, []string{"contextWindow"}), "contextWindow", "must be a number of tokens above 0")
	}
	if f.AutoCompactPercent < 0 || f.AutoCompactPercent > 100 {
		return l, fail(locate(data, []string{"autoCompactPercent"}), "autoCompactPercent", "must be a percentage from 1 to 100")
	}
	if f.Theme != "" && !validTheme(f.Theme) {
		return l, fail(locate(data, []string{"theme"}), "theme", fmt.Sprintf("unknown theme %q (one of %s)", f.Theme, strings.Join(Themes, ", ")))
	}
	l.File = f
	return l, nil
}

func modeList() string {
	var names []string
	for _, m := range permission.Modes {
		names = append(names, string(m))
	}
	return strings.Join(names, ", ")
}

// findKey finds the first occurrence of a quoted key, for unknown-field
// errors that carry no offset.
func findKey(data []byte, name string) int64 {
	i := bytes.Index(data, []byte(`"`+name+`"`))
	return int64(i)
}

// Paths lists the settings files of a project in the order they apply.
// ClaudeUser is ~/.claude/settings.json, of which, like the project's
// .claude files, only the keys Workbench shares with Claude Code are read.
type Paths struct {
	ClaudeUser, User, Project, Local, ClaudeProject, ClaudeLocal, Extra string
	// Personal is the person's own settings for this project, kept beside
	// the user settings (PersonalFile): read after the project's files and
	// honoured whether or not the project is trusted, since no repository
	// can write it. "Always" in an untrusted project writes there.
	Personal string
	// Untrusted reads the project's own files (Project, Local,
	// ClaudeProject, ClaudeLocal) for what they restrict only: the person
	// has not trusted the project (see TrustFile).
	Untrusted bool
	// TrustChanged says why the project is untrusted: the person trusted
	// it once and its files changed since (see ProjectDigest).
	TrustChanged bool
}

// DefaultPaths returns where settings live for a project directory.
func DefaultPaths(projectDir string) Paths {
	cfg := os.Getenv("XDG_CONFIG_HOME")
	if cfg == "" || !filepath.IsAbs(cfg) {
		if home, err := os.UserHomeDir(); err == nil {
			cfg = filepath.Join(home, ".config")
		}
	}
	claudeUser := ""
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		claudeUser = filepath.Join(home, ".claude", "settings.json")
	}
	return Paths{
		ClaudeUser:    claudeUser,
		User:          filepath.Join(cfg, "workbench", "settings.json"),
		Project:       filepath.Join(projectDir, ".workbench", "settings.json"),
		Local:         filepath.Join(projectDir, ".workbench", "settings.local.json"),
		ClaudeProject: filepath.Join(projectDir, ".claude", "settings.json"),
		ClaudeLocal:   filepath.Join(projectDir, ".claude", "settings.local.json"),
		Personal:      PersonalFile(filepath.Join(cfg, "workbench", "settings.json"), projectDir),
	}
}

// PersonalFile is where the person's own settings for a project live,
// given the Workbench user settings file: projects/NAME-HASH/settings.json
// beside it, NAME the project directory's base name (to find it by) and
// HASH the start of the sha256 of its real path (two projects of one
// name are two files; a symbolic link to a project is the same project).
func PersonalFile(userSettings, projectDir string) string {
	key := trustKey(projectDir)
	sum := sha256.Sum256([]byte(key))
	name := filepath.Base(key) + "-" + hex.EncodeToString(sum[:6])
	return filepath.Join(filepath.Dir(userSettings), "projects", name, "settings.json")
}
