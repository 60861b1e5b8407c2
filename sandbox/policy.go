package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seed92b641c3/workbench/sandbox/launcher"
)

// Mode says how much of the file system a sandboxed command may write.
type Mode string

// The modes of sandbox.mode and --sandbox.
const (
	// WorkspaceWrite lets commands write in the workspace roots, the temp
	// directories, the tool caches and sandbox.allowWrite: the default.
	WorkspaceWrite Mode = "workspace-write"
	// ReadOnly lets commands write only in the temp directories.
	ReadOnly Mode = "read-only"
	// Off runs commands without a sandbox.
	Off Mode = "off"
)

// ParseMode reads a mode as written in settings or on the command line.
func ParseMode(s string) (Mode, bool) {
	switch m := Mode(s); m {
	case WorkspaceWrite, ReadOnly, Off:
		return m, true
	}
	return "", false
}

// Modes lists the modes for error messages and help.
func Modes() []Mode { return []Mode{WorkspaceWrite, ReadOnly, Off} }

// Policy is what a sandboxed command may do. The zero value of every list
// adds nothing; Resolve fills in the defaults.
type Policy struct {
	// Mode chooses what is writable; empty means WorkspaceWrite.
	Mode Mode
	// Roots are the workspace roots: the project directory and
	// additionalDirectories.
	Roots []string
	// AllowWrite are further writable paths (sandbox.allowWrite).
	AllowWrite []string
	// Caches are the tool caches a build writes; nil means DefaultCaches.
	Caches []string
	// DenyRead are hidden paths added to DefaultDenyRead.
	DenyRead []string
	// AllowRead leaves the default hidden paths it names (or that lie
	// inside one it names) readable: a registry token a build needs.
	AllowRead []string
	// HideRules are the Read deny rules' paths, expanded to paths to hide
	// when the sandbox is made and again at every command start, so a file
	// created since is hidden from the next command.
	HideRules []HideRule
	// Network opens the network (sandbox.network).
	Network bool
	// AllowedDomains opens the network only for these domains, through
	// Workbench's proxy (sandbox.allowedDomains). Ignored when Network is
	// set, which opens everything.
	AllowedDomains []string
	// Required refuses to run commands when the sandbox is unavailable.
	Required bool
	// SealRoots seals a workspace root that lacks .workbench, .claude or
	// .git (sandbox.sealWorkspaceRoot): no directory or link may be made
	// directly in it, so none of those can be created, at the cost of
	// `mkdir build`, `npm install` and `git init` there. Off by default.
	SealRoots bool
	// AllowAllUnixSockets lets sandboxed commands create Unix sockets
	// (sandbox.allowAllUnixSockets). Off, they cannot reach the servers
	// behind socket files (tmux, ssh-agent, the session bus, docker),
	// which would run commands outside the sandbox for them.
	AllowAllUnixSockets bool
	// Home is the person's home directory; empty means os.UserHomeDir.
	Home string
	// SettingsDirs are the person's own Workbench and Claude settings
	// directories, hidden by default; nil means ~/.config/workbench,
	// ~/.workbench and ~/.claude.
	SettingsDirs []string
}

// NetworkMode is the network a sandboxed command gets.
type NetworkMode = launcher.NetworkMode

// The network modes a Description reports.
const (
	NetNone    = launcher.NetNone
	NetOpen    = launcher.NetOpen
	NetDomains = launcher.NetDomains
)

// Net is the network mode the policy asks for.
func (p Policy) Net() NetworkMode {
	switch {
	case p.Network:
		return NetOpen
	case len(p.AllowedDomains) > 0:
		return NetDomains
	}
	return NetNone
}

// DefaultCaches are the caches builds write, found the way each tool finds
// its own: Go's build and module caches, npm's and pip's. Each is writable
// so `go build`, `go test`, `npm ci` and `pip install` work inside.
func DefaultCaches(home string) []string {
	env := func(k, def string) string {
		if v := os.Getenv(k); v != "" {
			return v
		}
		return def
	}
	cache := env("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	gopath := env("GOPATH", filepath.Join(home, "go"))
	if i := strings.IndexByte(gopath, os.PathListSeparator); i >= 0 {
		gopath = gopath[:i]
	}
	return []string{
		env("GOCACHE", filepath.Join(cache, "go-build")),
		env("GOMODCACHE", filepath.Join(gopath, "pkg", "mod")),
		env("npm_config_cache", filepath.Join(home, ".npm")),
		env("PIP_CACHE_DIR", filepath.Join(cache, "pip")),
	}
}

// DefaultDenyRead are the person's credentials and settings, hidden from
// every sandboxed command: keys, the tokens of git, package registries and
// cloud tools, password stores, and the settings that decide what the
// agent may do. A command that could print one hands it to whatever reads
// its output; Policy.AllowRead opens one a command really needs.
func DefaultDenyRead(home string, settingsDirs []string) []string {
	var list []string
	for _, rel := range credentialPaths {
		list = append(list, filepath.Join(home, rel))
	}
	return append(list, settingsDirs...)
}

// credentialPaths are the credential files and directories under the home
// directory that DefaultDenyRead hides.
var credentialPaths = []string{
	".ssh", ".aws", ".gnupg", ".config/gh",
	".git-credentials", ".config/git/credentials", ".netrc",
	".npmrc", ".yarnrc.yml", ".pypirc", ".gem/credentials", ".cargo/credentials", ".cargo/credentials.toml",
	".docker/config.json", ".kube", ".config/gcloud", ".azure", ".oci",
	".vault-token", ".terraform.d/credentials.tfrc.json",
	".password-store", ".local/share/keyrings", ".config/op",
}

// hiddenSockets are the Unix sockets that reach something outside the
// sandbox whatever its network: the SSH agent (the person's keys), the
// session and system buses (systemd-run starts commands outside), container
// engines (root on the host). A fresh network namespace does not cut a
// socket with a path, so each is hidden like a denyRead path.
func hiddenSockets() []string {
	list := []string{
		"/run/docker.sock", "/var/run/docker.sock", "/run/podman", "/run/containerd",
		"/run/dbus/system_bus_socket", "/var/run/dbus/system_bus_socket",
	}
	if s := os.Getenv("SSH_AUTH_SOCK"); s != "" {
		list = append(list, s)
	}
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" {
		for _, name := range []string{"bus", "systemd", "docker.sock", "podman", "gnupg", "keyring"} {
			list = append(list, filepath.Join(rt, name))
		}
	}
	return list
}

// protectedNames are the paths inside a workspace root that stay read-only:
// a hook or git config planted there runs later outside any sandbox, and
// the settings decide what the agent may do next time.
// .claude is read-only whole: besides the settings files that may not
// exist yet, its commands, agents and skills shape the agent as much as
// .workbench's do.
var protectedNames = []string{
	".workbench",
	".claude",
	".mcp.json",
}

// sealNames are the directories a command could create in a workspace root
// where they are missing, to plant settings or a repository whose hooks and
// config run later outside any sandbox. No name can be refused on its own
// (Landlock allows by place, not by name, and a mount needs an existing
// path), so a root missing any of them is sealed: nothing new is made
// directly in it but regular files.
var sealNames = []string{".workbench", ".claude", ".git"}

// Resolved is a Policy with every default filled in and every path made
// absolute and real: what the backend enforces.
type Resolved struct {
	Mode Mode
	// Write are the writable paths; ReadOnly the paths inside them that
	// stay read-only; Hide the paths replaced by an empty file or
	// directory.
	Write, ReadOnly, Hide []string
	// Roots are the workspace roots, real: never hidden by a rule.
	Roots []string
	// SealRoots is Policy.SealRoots.
	SealRoots bool
	// Sealed are the roots where no directory, symbolic link or other
	// non-regular file may be made directly (see sealNames), decided at
	// each command's start.
	Sealed []string
	// HideRules are expanded at each command start (see HideRule).
	HideRules []HideRule
	// Pin are directories bound onto themselves, so a command cannot
	// rename or remove them: the workspace roots, their git directories
	// and .claude. Without it `mv .git g && mkdir .git` would replace the
	// read-only hooks and config with the command's own.
	Pin     []string
	Net     NetworkMode
	Domains []string
	// UnixSockets is true when sandboxed commands may create Unix sockets.
	UnixSockets bool
	// Caches are the tool caches among Write (real paths). A command
	// reads the person's cache but writes into a layer of its own over it
	// (see cacheLayers): what the person's builds outside read later is
	// never what a sandboxed command wrote.
	Caches []string
	// Layers are the cache layers of one command, filled in by Wrap.
	Layers []CacheLayer
	// Unmade are the run-later files missing at one command's start
	// (withRunLater): one the command makes is removed when it ends.
	Unmade []string
	// Warnings are settings problems that did not stop anything: a path
	// in allowWrite or denyRead that does not exist.
	Warnings []string
}

// Resolve fills in the defaults and turns every path into an absolute one
// with symbolic links resolved (the kernel enforces on the real path). A
// git directory in a root gets a hooks directory if it has none, so a hook
// cannot be planted in one created later.
func (p Policy) Resolve() (Resolved, error) {
	r := Resolved{Mode: p.Mode, Net: p.Net(), Domains: slices.Clone(p.AllowedDomains), UnixSockets: p.AllowAllUnixSockets, SealRoots: p.SealRoots}
	if r.Mode == "" {
		r.Mode = WorkspaceWrite
	}
	if _, ok := ParseMode(string(r.Mode)); !ok {
		return r, fmt.Errorf("sandbox: unknown mode %q", r.Mode)
	}
	home := p.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	var roots []string
	for i, root := range p.Roots {
		real, err := realPath(root)
		if err != nil && i == 0 {
			return r, fmt.Errorf("sandbox: workspace root %s: %w", root, err)
		}
		if err != nil {
			r.Warnings = append(r.Warnings, fmt.Sprintf("sandbox: additional directory %s: %v; it is not made writable", root, err))
			continue
		}
		roots = append(roots, real)
	}
	r.Roots, r.HideRules = roots, slices.Clone(p.HideRules)
	for _, t := range tempDirs() {
		r.Write = appendReal(r.Write, t)
	}
	if r.Mode == WorkspaceWrite {
		r.Write = append(r.Write, roots...)
		for _, root := range roots {
			for _, d := range worktreeGitDirs(root) {
				r.Write = appendReal(r.Write, d)
			}
		}
		caches := p.Caches
		if caches == nil {
			caches = DefaultCaches(home)
		}
		for _, c := range caches {
			r.Write = appendReal(r.Write, c)
			r.Caches = appendReal(r.Caches, c)
		}
		for _, w := range p.AllowWrite {
			w = expandHome(w, home)
			if _, err := os.Stat(w); err != nil {
				r.Warnings = append(r.Warnings, fmt.Sprintf("sandbox.allowWrite: %s does not exist; it is not made writable", w))
				continue
			}
			r.Write = appendReal(r.Write, w)
		}
	}
	r.Pin = r.pinnedNow()
	r.ReadOnly, r.Sealed = r.protectedNow()
	settingsDirs := p.SettingsDirs
	if settingsDirs == nil {
		settingsDirs = []string{
			filepath.Join(home, ".config", "workbench"),
			filepath.Join(home, ".workbench"),
			filepath.Join(home, ".claude"),
		}
		// Where the settings really are when XDG_CONFIG_HOME moves them
		// (settings.DefaultPaths): the user settings, the trust record and
		// the person's own files per project.
		if cfg := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(cfg) {
			settingsDirs = append(settingsDirs, filepath.Join(cfg, "workbench"))
		}
	}
	explicit := map[string]bool{}
	deny := slices.DeleteFunc(DefaultDenyRead(home, settingsDirs), func(d string) bool {
		return slices.ContainsFunc(p.AllowRead, func(a string) bool { return within(d, expandHome(a, home)) })
	})
	deny = append(deny, hiddenSockets()...)
	for _, d := range p.DenyRead {
		d = expandHome(d, home)
		explicit[d] = true
		deny = append(deny, d)
	}
	for _, d := range deny {
		real, err := realPath(d)
		if err != nil {
			if explicit[d] {
				r.Warnings = append(r.Warnings, fmt.Sprintf("sandbox.denyRead: %s does not exist; nothing to hide", d))
			}
			continue
		}
		if holdsRoot(real, roots) {
			r.Warnings = append(r.Warnings, fmt.Sprintf("sandbox.denyRead: %s holds the workspace; it is not hidden", d))
			continue
		}
		if !slices.Contains(r.Hide, real) {
			r.Hide = append(r.Hide, real)
		}
	}
	return r, nil
}

// protectedNow lists the protected paths of the workspace roots as they
// are now, and the roots to seal (see sealNames). It runs at every command
// start, so a settings directory made since is protected from the next
// command on.
func (r Resolved) protectedNow() (readOnly, sealed []string) {
	for _, root := range r.Roots {
		readOnly = append(readOnly, protectedIn(root)...)
		if r.SealRoots && r.Mode == WorkspaceWrite && r.sealable(root) && slices.ContainsFunc(sealNames, func(n string) bool {
			_, err := os.Lstat(filepath.Join(root, n))
			return err != nil
		}) {
			sealed = append(sealed, root)
		}
	}
	return readOnly, sealed
}

// pinnedNow lists the directories of the workspace roots to pin as they
// are now; like protectedNow it runs at every command start.
func (r Resolved) pinnedNow() []string {
	var pins []string
	for _, root := range r.Roots {
		for _, p := range pinnedIn(root) {
			if !slices.Contains(pins, p) {
				pins = append(pins, p)
			}
		}
	}
	return pins
}

// sealable reports whether Landlock can seal root: not when a writable
// path holds it (a temp directory), whose grant covers the root whole.
func (r Resolved) sealable(root string) bool {
	return !slices.ContainsFunc(r.Write, func(w string) bool { return w != root && within(root, w) })
}

// protectedIn lists the existing protected paths of one root, following a
// worktree's .git file to its git directory and the common directory. A
// git directory without its config is read-only whole, since the config
// cannot be refused by name.
func protectedIn(root string) []string {
	var out []string
	for _, name := range protectedNames {
		out = appendReal(out, filepath.Join(root, name))
	}
	// A worktree's .git file says where its git directory is: rewritten,
	// it would send the person's next git command to hooks of the
	// command's making.
	if fi, err := os.Lstat(filepath.Join(root, ".git")); err == nil && fi.Mode().IsRegular() {
		out = appendReal(out, filepath.Join(root, ".git"))
	}
	dirs := gitDirs(root)
	for _, gitDir := range dirs {
		hooks := filepath.Join(gitDir, "hooks")
		if _, err := os.Lstat(hooks); errors.Is(err, os.ErrNotExist) {
			_ = os.Mkdir(hooks, 0o755)
		}
		out = appendReal(out, hooks)
		out = appendGitFiles(out, gitDir)
		out = appendReal(out, filepath.Join(gitDir, "config.worktree"))
	}
	out = append(out, gitProtectedExtra(root, dirs)...)
	if n := len(dirs); n > 0 {
		// The config lives in the common directory (the last one).
		if _, err := os.Lstat(filepath.Join(dirs[n-1], "config")); errors.Is(err, os.ErrNotExist) {
			out = appendReal(out, dirs[n-1])
		}
	}
	return out
}

// pinnedIn lists a root's directories that must stay where they are: the
// root, its git directories and its .claude directory. A worktree's .git
// file is not a directory to pin; protectedIn makes it read-only.
func pinnedIn(root string) []string {
	out := []string{root}
	dirs := gitDirs(root)
	for _, p := range append(dirs, filepath.Join(root, ".claude")) {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			out = appendReal(out, p)
		}
	}
	return append(out, pinsOnTheWay(root, gitProtectedExtra(root, dirs))...)
}

// gitDirs finds the git directories a root's commands use: .git itself, or
// for a worktree (.git is a file) its own git directory and the common one
// that holds hooks and config.
func gitDirs(root string) []string {
	dotGit := filepath.Join(root, ".git")
	fi, err := os.Stat(dotGit)
	if err != nil {
		return nil
	}
	if fi.IsDir() {
		return []string{dotGit}
	}
	data, err := os.ReadFile(dotGit)
	if err != nil {
		return nil
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return nil
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	dirs := []string{dir}
	if c, err := os.ReadFile(filepath.Join(dir, "commondir")); err == nil {
		common := strings.TrimSpace(string(c))
		if !filepath.IsAbs(common) {
			common = filepath.Join(dir, common)
		}
		dirs = append(dirs, filepath.Clean(common))
	}
	return dirs
}

// worktreeGitDirs are the git directories outside a root that git writes
// when the root is a worktree; they are writable so `git commit` works.
func worktreeGitDirs(root string) []string {
	dirs := gitDirs(root)
	if len(dirs) == 0 || dirs[0] == filepath.Join(root, ".git") {
		return nil
	}
	return dirs
}

// tempDirs are the system temp directory and $TMPDIR.
func tempDirs() []string {
	list := []string{os.TempDir(), "/tmp", "/var/tmp", "/dev/shm"}
	if t := os.Getenv("TMPDIR"); t != "" {
		list = append(list, t)
	}
	return list
}

// realPath is the absolute path with symbolic links resolved.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// appendReal adds p's real path to list when p exists and is not there yet.
func appendReal(list []string, p string) []string {
	real, err := realPath(p)
	if err != nil || slices.Contains(list, real) {
		return list
	}
	return append(list, real)
}

// expandHome turns a leading ~/ into the home directory.
func expandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(home, rest)
	}
	return p
}

// holdsRoot reports whether dir is a workspace root or one of its parents.
func holdsRoot(dir string, roots []string) bool {
	for _, r := range roots {
		if within(r, dir) {
			return true
		}
	}
	return false
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	if p == dir || dir == "/" {
		return true
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}
