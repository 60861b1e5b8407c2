package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/sandbox"
)

// A project's own settings files come with the repository: whoever wrote
// the repository wrote them. Until the person trusts the project, those
// files count only where they restrict (deny and ask rules, a stricter
// sandbox, turning things off). What would run a program (hooks, MCP
// servers), widen what the agent may do (allow rules, defaultMode, more
// directories, a looser sandbox) or send the person's keys and requests
// elsewhere (baseURL, env, webFetch, webSearch) waits for trust.

// TrustFile is where the person's trusted projects are recorded: beside
// the Workbench user settings, outside every project, and hidden from
// sandboxed commands with the rest of that directory.
func TrustFile(p Paths) string {
	return filepath.Join(filepath.Dir(p.User), "trusted-projects.json")
}

// trustRecord is the trust file's shape.
type trustRecord struct {
	Projects map[string]trustEntry `json:"projects"`
}

type trustEntry struct {
	Trusted time.Time `json:"trusted"`
	// Digest is ProjectDigest of the files the person trusted. An entry
	// without one (written before trust followed content) trusts nothing.
	Digest string `json:"digest,omitempty"`
}

// trustKey is a project's real path, so a symbolic link to it is the same
// project and a look-alike path is not.
func trustKey(projectDir string) string {
	if real, err := filepath.EvalSymlinks(projectDir); err == nil {
		return real
	}
	return filepath.Clean(projectDir)
}

func readTrust(file string) (trustRecord, error) {
	var r trustRecord
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return trustRecord{Projects: map[string]trustEntry{}}, nil
	}
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return r, fmt.Errorf("%s: %w", file, err)
	}
	if r.Projects == nil {
		r.Projects = map[string]trustEntry{}
	}
	return r, nil
}

// IsTrusted reports whether the person has trusted the project as its
// settings files are now. A trust file that cannot be read trusts nothing.
func IsTrusted(file, projectDir string) bool {
	ok, _ := TrustState(file, projectDir)
	return ok
}

// TrustChanged reports whether the person trusted the project once and its
// settings files now ask for something else, so the notices can say why
// trust no longer holds.
func TrustChanged(file, projectDir string) bool {
	_, changed := TrustState(file, projectDir)
	return changed
}

// TrustState is IsTrusted and TrustChanged from one reading of the files.
func TrustState(file, projectDir string) (trusted, changed bool) {
	e, ok := trustedEntry(file, projectDir)
	if !ok {
		return false, false
	}
	d, err := ProjectDigest(projectDir)
	trusted = e.Digest != "" && err == nil && d == e.Digest
	return trusted, !trusted
}

// keepingTrust runs write, a change the person makes to a project's
// settings file at path (an "Always" rule, an answer): when the person
// trusted the project as it was, the trust follows the change.
func keepingTrust(path string, write func() error) error {
	project := filepath.Dir(filepath.Dir(path))
	trustFile := TrustFile(DefaultPaths(project))
	keep := false
	for _, f := range projectFiles(project) {
		keep = keep || f.path == path
	}
	keep = keep && IsTrusted(trustFile, project)
	if err := write(); err != nil {
		return err
	}
	if keep {
		_, err := SetTrust(trustFile, project, true)
		return err
	}
	return nil
}

func trustedEntry(file, projectDir string) (trustEntry, bool) {
	r, err := readTrust(file)
	if err != nil {
		return trustEntry{}, false
	}
	e, ok := r.Projects[trustKey(projectDir)]
	return e, ok
}

// SetTrust records (trust true) or removes the person's trust in a
// project, for its settings files as they are now. It reports whether
// anything changed.
func SetTrust(file, projectDir string, trust bool) (bool, error) {
	if !trust {
		return writeTrust(file, projectDir, "")
	}
	d, err := ProjectDigest(projectDir)
	if err != nil {
		return false, err
	}
	return writeTrust(file, projectDir, d)
}

// ErrTrustMoved is SetTrustAsShown's answer when the files changed between
// the question and the answer: the person said yes to something else.
var ErrTrustMoved = errors.New("the project's settings files changed while the question was open; nothing was trusted")

// SetTrustAsShown records trust only if the project's files still have the
// digest of what the person was shown.
func SetTrustAsShown(file, projectDir, shown string) error {
	d, err := ProjectDigest(projectDir)
	if err != nil {
		return err
	}
	if d != shown {
		return ErrTrustMoved
	}
	_, err = writeTrust(file, projectDir, d)
	return err
}

// writeTrust records digest for the project, or removes the entry when
// digest is empty.
func writeTrust(file, projectDir, digest string) (bool, error) {
	r, err := readTrust(file)
	if err != nil {
		return false, err
	}
	key := trustKey(projectDir)
	old, had := r.Projects[key]
	switch {
	case digest == "" && !had, digest != "" && had && old.Digest == digest:
		return false, nil
	case digest == "":
		delete(r.Projects, key)
	default:
		r.Projects[key] = trustEntry{Trusted: time.Now().UTC(), Digest: digest}
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return false, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".trusted-projects-*")
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return false, err
	}
	if err := tmp.Close(); err != nil {
		return false, err
	}
	return true, os.Rename(tmp.Name(), file)
}

// Withheld is what an untrusted project's settings file asked for and did
// not get.
type Withheld struct {
	Path string
	// Parts name what was left out, for the person: "hooks: SessionStart
	// `touch x`", "permissions.allow: Bash(*)".
	Parts []string
	// Changed says the person trusted the project before its files changed.
	Changed bool
}

// String is one line per file, for notices.
func (w Withheld) String() string {
	why := "not applied until you trust this project"
	if w.Changed {
		why = "not applied: the project's settings changed since you trusted it; trust it again"
	}
	return fmt.Sprintf("%s: %s (workbench trust, or --trust-project for one run): %s", w.Path, why, strings.Join(w.Parts, "; "))
}

// restrictOnly keeps what an untrusted project file restricts and returns
// the rest as withheld parts.
func restrictOnly(l Layer) (Layer, []string) {
	f := l.File
	var parts []string
	add := func(cond bool, part string) {
		if cond {
			parts = append(parts, part)
		}
	}
	kept := f
	kept.Hooks, kept.Env, kept.BaseURL = nil, nil, ""
	kept.MCPServers, kept.WebFetch, kept.WebSearch = nil, nil, nil
	kept.Sandbox = nil
	if p := f.Permissions; p != nil {
		kept.Permissions = &Permissions{Deny: p.Deny, Ask: p.Ask, DisableBypassPermissionsMode: p.DisableBypassPermissionsMode}
		add(len(p.Allow) > 0, "permissions.allow: "+strings.Join(p.Allow, ", "))
		add(p.DefaultMode != "", "permissions.defaultMode: "+p.DefaultMode)
		add(len(p.AdditionalDirectories) > 0, "permissions.additionalDirectories: "+strings.Join(p.AdditionalDirectories, ", "))
	}
	if len(f.Hooks) > 0 {
		parts = append(parts, "hooks: "+hookSummary(f.Hooks))
	}
	add(len(f.Env) > 0, "env: "+strings.Join(sortedKeys(f.Env), ", "))
	add(f.BaseURL != "", "baseURL: "+f.BaseURL)
	add(len(f.MCPServers) > 0, "mcpServers: "+strings.Join(sortedKeys(f.MCPServers), ", "))
	add(f.WebFetch != nil, "webFetch")
	add(f.WebSearch != nil, "webSearch")
	l.File = kept
	if sb := l.Sandbox; sb != nil {
		tight, loose := tighterSandbox(*sb)
		l.Sandbox = &tight
		add(len(loose) > 0, "sandbox: "+strings.Join(loose, ", "))
	}
	return l, parts
}

// tighterSandbox keeps the sandbox keys that only make it stricter.
func tighterSandbox(sb Sandbox) (tight Sandbox, loose []string) {
	isTrue := func(b *bool) bool { return b != nil && *b }
	isFalse := func(b *bool) bool { return b != nil && !*b }
	if sb.Mode == string(sandbox.ReadOnly) {
		tight.Mode = sb.Mode
	} else if sb.Mode != "" && sb.Mode != string(sandbox.WorkspaceWrite) {
		loose = append(loose, "mode "+sb.Mode)
	}
	tight.DenyRead = sb.DenyRead
	keep := func(name string, src *bool, dst **bool, strict func(*bool) bool) {
		switch {
		case src == nil:
		case strict(src):
			*dst = src
		default:
			loose = append(loose, fmt.Sprintf("%s %v", name, *src))
		}
	}
	keep("network", sb.Network, &tight.Network, isFalse)
	keep("autoAllow", sb.AutoAllow, &tight.AutoAllow, isFalse)
	keep("allowUnsandboxedCommands", sb.AllowUnsandboxedCommands, &tight.AllowUnsandboxedCommands, isFalse)
	keep("allowAllUnixSockets", sb.AllowAllUnixSockets, &tight.AllowAllUnixSockets, isFalse)
	keep("required", sb.Required, &tight.Required, isTrue)
	keep("person", sb.Person, &tight.Person, isTrue)
	keep("sealWorkspaceRoot", sb.SealWorkspaceRoot, &tight.SealWorkspaceRoot, isTrue)
	if len(sb.AllowedDomains) > 0 {
		loose = append(loose, "allowedDomains "+strings.Join(sb.AllowedDomains, ", "))
	}
	if len(sb.AllowWrite) > 0 {
		loose = append(loose, "allowWrite "+strings.Join(sb.AllowWrite, ", "))
	}
	if len(sb.AllowRead) > 0 {
		loose = append(loose, "allowRead "+strings.Join(sb.AllowRead, ", "))
	}
	return tight, loose
}

// hookSummary names each hook command (or prompt) by its event.
func hookSummary(c hooks.Config) string {
	var out []string
	for _, ev := range sortedKeys(c) {
		for _, m := range c[ev] {
			for _, h := range m.Hooks {
				what := h.Command
				if h.Type == "prompt" {
					what = "prompt " + h.Prompt
				}
				out = append(out, fmt.Sprintf("%s `%s`", ev, what))
			}
		}
	}
	return strings.Join(out, ", ")
}

func sortedKeys[K ~string, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}
