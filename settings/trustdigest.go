package settings

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"

	"github.com/seed92b641c3/workbench/hooks"
)

// Trust is given to a project's settings as they were when the person
// said yes. A `git pull` that adds a hook, an allow rule or a looser
// sandbox changes what the person agreed to, so trust records a digest of
// what the files may do only with trust, and a project whose files now
// ask for something else is untrusted until the person says yes again.
// Restrictions (deny and ask rules, a tighter sandbox) are not in the
// digest: adding one never asks.

// projectFiles are a project's own settings files, whichever of them the
// session reads: trust covers all four.
func projectFiles(projectDir string) []struct {
	path   string
	claude bool
} {
	return []struct {
		path   string
		claude bool
	}{
		{filepath.Join(projectDir, ".claude", "settings.json"), true},
		{filepath.Join(projectDir, ".claude", "settings.local.json"), true},
		{filepath.Join(projectDir, ".workbench", "settings.json"), false},
		{filepath.Join(projectDir, ".workbench", "settings.local.json"), false},
	}
}

// powers is the part of one settings file that needs trust, in a form
// whose JSON encoding is canonical (maps are encoded in key order).
type powers struct {
	File        string               `json:"file"`
	Allow       []string             `json:"allow,omitempty"`
	DefaultMode string               `json:"defaultMode,omitempty"`
	Dirs        []string             `json:"additionalDirectories,omitempty"`
	Hooks       hooks.Config         `json:"hooks,omitempty"`
	Env         map[string]string    `json:"env,omitempty"`
	BaseURL     string               `json:"baseURL,omitempty"`
	MCPServers  map[string]MCPServer `json:"mcpServers,omitempty"`
	WebFetch    *WebFetch            `json:"webFetch,omitempty"`
	WebSearch   *WebSearch           `json:"webSearch,omitempty"`
	Sandbox     []string             `json:"sandbox,omitempty"`
}

func powersOf(name string, l Layer) powers {
	f := l.File
	p := powers{File: name, Hooks: f.Hooks, Env: f.Env, BaseURL: f.BaseURL,
		MCPServers: f.MCPServers, WebFetch: f.WebFetch, WebSearch: f.WebSearch}
	if perms := f.Permissions; perms != nil {
		p.Allow, p.DefaultMode, p.Dirs = perms.Allow, perms.DefaultMode, perms.AdditionalDirectories
	}
	if l.Sandbox != nil {
		_, p.Sandbox = tighterSandbox(*l.Sandbox)
	}
	return p
}

// ProjectDigest is the digest of what the project's settings files may do
// only with the person's trust. A file that cannot be read or parsed is an
// error: trust is never decided on half a file.
func ProjectDigest(projectDir string) (string, error) {
	var all []powers
	for _, f := range projectFiles(projectDir) {
		l, ok, err := ReadFile(f.path, f.claude)
		if err != nil {
			return "", err
		}
		if ok {
			all = append(all, powersOf(filepath.Base(filepath.Dir(f.path))+"/"+filepath.Base(f.path), l))
		}
	}
	data, err := json.Marshal(all)
	if err != nil {
		return "", err
	}
	if g := commandGrants(projectDir); len(g) > 0 {
		// Only when there are any, so a trust recorded before command
		// files counted still holds for a project without them.
		more, err := json.Marshal(g)
		if err != nil {
			return "", err
		}
		data = append(data, more...)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}
