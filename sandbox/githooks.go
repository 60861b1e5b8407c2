package sandbox

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Git runs hooks from more places than a root's .git/hooks: each
// submodule's git directory (.git/modules/NAME, nested for nested
// submodules) has hooks and a config of its own, and core.hooksPath can
// send every hook of a repository to a directory in the working tree
// (husky's .husky/_, a committed .githooks). A hook planted in any of them
// runs at the person's next git command, outside the sandbox, so each is
// read-only like .git/hooks.

// GitHookDirs is the hooks directory core.hooksPath names for the
// repository at root, when it has one outside its git directory: the
// permission check makes writes there ask, as the sandbox makes them
// read-only.
func GitHookDirs(root string) []string {
	if p := hooksPath(root, gitDirs(root)); p != "" {
		return []string{p}
	}
	return nil
}

// maxModuleDepth bounds the walk through nested submodules.
const maxModuleDepth = 8

// gitProtectedExtra lists the submodules' hooks and configs under the
// root's git directories and the hooks directory core.hooksPath names. A
// hooks directory that is missing is made, so none can be planted later.
func gitProtectedExtra(root string, gitDirs []string) []string {
	var out []string
	for _, d := range gitDirs {
		out = appendModules(out, filepath.Join(d, "modules"), 0)
	}
	if p := hooksPath(root, gitDirs); p != "" {
		if _, err := os.Lstat(p); os.IsNotExist(err) && within(p, root) {
			_ = os.MkdirAll(p, 0o755)
		}
		out = appendReal(out, p)
	}
	return out
}

// appendModules adds the hooks and config of every git directory below dir.
func appendModules(out []string, dir string, depth int) []string {
	for _, sub := range moduleGitDirs(dir, depth) {
		hooks := filepath.Join(sub, "hooks")
		if _, err := os.Lstat(hooks); os.IsNotExist(err) {
			_ = os.Mkdir(hooks, 0o755)
		}
		out = appendReal(out, hooks)
		out = appendGitFiles(out, sub)
	}
	return out
}

// moduleGitDirs are the submodules' git directories below dir (a
// repository's modules directory), nested ones included.
func moduleGitDirs(dir string, depth int) []string {
	if depth > maxModuleDepth {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		if _, err := os.Lstat(filepath.Join(sub, "HEAD")); err == nil {
			out = append(out, sub)
			out = append(out, moduleGitDirs(filepath.Join(sub, "modules"), depth+1)...)
			continue
		}
		// A submodule named a/b has its git directory at modules/a/b.
		out = append(out, moduleGitDirs(sub, depth+1)...)
	}
	return out
}

// gitRedirects are the files of a git directory that make git read its
// config from elsewhere (commondir), add to it (config.worktree, with
// extensions.worktreeConfig) or pick drivers by path (info/attributes):
// read-only where they exist, like the config itself.
var gitRedirects = []string{"commondir", "config.worktree", filepath.Join("info", "attributes")}

// appendGitFiles adds a git directory's config and the files that
// redirect it (gitRedirects).
func appendGitFiles(out []string, gitDir string) []string {
	out = appendReal(out, filepath.Join(gitDir, "config"))
	for _, name := range gitRedirects {
		out = appendReal(out, filepath.Join(gitDir, name))
	}
	return out
}

// hooksPath is the absolute hooks directory core.hooksPath names for the
// repository at root, or "". The repository's own config is read directly;
// one with include directives, and the person's global config, are asked
// of git itself, which knows every place a setting can come from.
func hooksPath(root string, gitDirs []string) string {
	var value string
	includes := false
	for _, d := range gitDirs {
		v, inc := coreHooksPath(filepath.Join(d, "config"))
		includes = includes || inc
		if v != "" {
			value = v
		}
	}
	if value == "" {
		for _, f := range globalGitConfigs() {
			v, inc := coreHooksPath(f)
			includes = includes || inc
			if v != "" {
				value = v
				break
			}
		}
	}
	if includes {
		if v := askGit(root); v != "" {
			value = v
		}
	}
	if value == "" {
		return ""
	}
	if rest, ok := strings.CutPrefix(value, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			value = filepath.Join(home, rest)
		}
	}
	if !filepath.IsAbs(value) {
		value = filepath.Join(root, value)
	}
	return filepath.Clean(value)
}

// coreHooksPath reads core.hooksPath from one config file, and whether the
// file includes others.
func coreHooksPath(file string) (value string, includes bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", false
	}
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				continue
			}
			name, _, _ := strings.Cut(strings.TrimSpace(line[1:end]), " ")
			section = strings.ToLower(name)
			if section == "include" || section == "includeif" {
				includes = true
			}
			if rest := strings.TrimSpace(line[end+1:]); rest != "" {
				line = rest // [core] hooksPath = x on one line
			} else {
				continue
			}
		}
		key, v, ok := strings.Cut(line, "=")
		if !ok || section != "core" || !strings.EqualFold(strings.TrimSpace(key), "hookspath") {
			continue
		}
		v = strings.TrimSpace(v)
		if i := strings.IndexAny(v, "#;"); i >= 0 && !strings.HasPrefix(v, `"`) {
			v = strings.TrimSpace(v[:i])
		}
		value = strings.Trim(v, `"`)
	}
	return value, includes
}

// askGit asks git for core.hooksPath as the repository at root sees it.
func askGit(root string) string {
	git, err := exec.LookPath("git")
	if err != nil {
		return ""
	}
	out, err := exec.Command(git, "-C", root, "config", "--get", "core.hooksPath").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// globalGitConfigs are the person's own git configs, the one git lets win
// first (~/.gitconfig over the XDG file; the repository's own config wins
// over both).
func globalGitConfigs() []string {
	var out []string
	home, _ := os.UserHomeDir()
	if home != "" {
		out = append(out, filepath.Join(home, ".gitconfig"))
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		out = append(out, filepath.Join(x, "git", "config"))
	} else if home != "" {
		out = append(out, filepath.Join(home, ".config", "git", "config"))
	}
	return out
}

// pinsOnTheWay are the directories from root down to each protected path,
// the path included when it is one: each is bound onto itself, so none can
// be renamed (a mount point cannot be) to put a look-alike with hooks of
// the command's making in its place.
func pinsOnTheWay(root string, protected []string) []string {
	var out []string
	for _, p := range protected {
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			continue
		}
		dir := root
		for _, part := range strings.Split(rel, string(filepath.Separator)) {
			dir = filepath.Join(dir, part)
			if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
				break
			}
			out = appendReal(out, dir)
		}
	}
	return out
}
