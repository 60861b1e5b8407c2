package permission

import (
	"os"
	"path/filepath"
	"strings"
)

// git runs what its repository's config says: core.fsmonitor at `git
// status` and `git diff`, filters, textconv, aliases, the pager. The
// workspace's own .git is protected, so `Bash(git status:*)` is safe there.
// But git finds its repository by looking up from the directory it runs in,
// and takes any directory holding a HEAD (with objects and refs) for a bare
// repository: after Write made evil/HEAD, evil/config, evil/objects/ and
// evil/refs/ (none of them a .git path), `cd ./evil && git status` ran the
// fsmonitor of evil/config. So a git command is judged by the repository it
// will read: the workspace's own (a root's .git) or one around the
// workspace is fine; any other, one the line itself may make before git
// runs, or a directory that is not there yet makes the line unknown.

// gitRun is a git command of a line: the directory it runs in (relative to
// the start, or absolute) and how many of the line's writes come before it.
type gitRun struct {
	dir    string
	before int
}

// whyGitDir explains a git command whose directory is only known when the
// line runs.
const whyGitDir = "git runs in a directory only known when the line runs, so which repository's config (fsmonitor, filters, aliases) it reads is not known"

// gitNames are the entries whose making turns a directory into a git
// repository, or changes which one git finds (lower-case).
var gitNames = map[string]bool{".git": true, "head": true, "config": true, "objects": true, "refs": true,
	"commondir": true, "packed-refs": true, "gitdir": true}

// gitRepoUnknown says why a git command of a's line reads a repository
// whose config the agent may have written, or "". base is the directory
// the line starts in.
func (p *Policy) gitRepoUnknown(a *analysis, base string) string {
	var buf [4]string // the chain of a usual call, on the stack
	for _, g := range a.gitRuns {
		dir := filepath.Clean(absPath(g.dir, base, p.home))
		real := resolveUnder(dir, p.roots) // a root itself costs nothing
		if containingRoot(real, p.roots) != real {
			if _, err := os.Lstat(real); err != nil {
				return "git runs in " + dir + ", which is not there yet, so which repository it reads is not known"
			}
		}
		chain, why := p.gitDiscovery(real, buf[:0])
		if why != "" {
			return why
		}
		for _, w := range a.writes[:min(g.before, len(a.writes))] {
			for _, f := range expandWrite(w, base) {
				at := resolvePath(absPath(f, base, p.home))
				for _, d := range chain {
					if at == d || filepath.Dir(at) == d && gitNames[strings.ToLower(filepath.Base(at))] {
						return "the line writes " + f + " before git runs, which may make or change the repository git reads there"
					}
				}
			}
		}
	}
	return ""
}

// gitDiscovery walks up from the resolved directory dir as git looks for
// its repository, appends the directories it looks at to chain, and says
// why the
// repository it finds is not one whose config is protected. Inside a root
// the walk ends at the root, whose .git is protected (and above which any
// repository holds the workspace, the person's); outside every root only a
// repository around a root is.
func (p *Policy) gitDiscovery(dir string, chain []string) ([]string, string) {
	root := containingRoot(dir, p.roots)
	for d := dir; ; d = filepath.Dir(d) {
		chain = append(chain, d)
		if _, seen := p.rootGit.Load(d); seen && d == root {
			return chain, ""
		}
		if _, err := os.Lstat(d + "/.git"); err == nil {
			if d == root {
				// Its .git is protected: neither Write nor a
				// command line moves it without asking.
				p.rootGit.Store(d, true)
			}
			if d == root || root == "" && p.aroundRoot(d) {
				return chain, ""
			}
			return chain, "git reads the repository " + filepath.Join(d, ".git") + ", not the workspace's, and its config may run commands"
		}
		if _, err := os.Lstat(d + "/HEAD"); err == nil {
			return chain, "git may take " + d + " (it holds a HEAD) for a bare repository, whose config may run commands"
		}
		if d == root || d == filepath.Dir(d) {
			return chain, ""
		}
	}
}

// aroundRoot reports whether d is a directory above a workspace root.
func (p *Policy) aroundRoot(d string) bool {
	for _, r := range p.roots {
		if r != d && within(r, d) {
			return true
		}
	}
	return false
}
