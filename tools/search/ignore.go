package search

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// This file decides which directory entries the Go walker visits, with
// ripgrep's rules and precedence, so both engines search the same files:
//  1. the glob filter (the `glob` input, then `!.git`): a matching
//     glob includes or excludes the entry outright; a file that matches no
//     including glob is excluded;
//  2. ignore files (.rgignore, then .ignore, then .gitignore, then
//     .git/info/exclude; the deepest directory wins within each kind);
//     .gitignore and exclude rules count only inside a git repository;
//  3. the file type filter: a file not of the type is excluded;
//  4. hidden entries (a name starting with a dot) are excluded unless an
//     ignore rule or the type filter explicitly included them.
// The search root itself is never filtered.

// verdict is what a rule list says of an entry.
type verdict int8

const (
	noVerdict verdict = iota
	excluded
	included
)

// globRule is one line of an ignore file or one glob filter, parsed the way
// gitignore reads it.
type globRule struct {
	glob     string
	negate   bool // a leading "!"
	dirOnly  bool // a trailing "/"
	anchored bool // holds a "/": matched against the relative path, else the name
	fast     fastMatch
	lit      string // the name (fastEqual) or suffix (fastSuffix)
}

// fastMatch spares doublestar for the common shapes: a plain name and
// "*.ext".
type fastMatch int8

const (
	fastNone fastMatch = iota
	fastEqual
	fastSuffix
)

const globMeta = `*?[{\`

// parseRule reads one gitignore-style line; ok is false for blank lines,
// comments and invalid globs.
func parseRule(line string) (r globRule, ok bool) {
	line = strings.TrimSuffix(line, "\r")
	line = trimTrailingSpace(line)
	if line == "" || line[0] == '#' {
		return r, false
	}
	switch {
	case line[0] == '!':
		r.negate, line = true, line[1:]
	case strings.HasPrefix(line, `\!`), strings.HasPrefix(line, `\#`):
		line = line[1:]
	}
	if strings.HasPrefix(line, "/") {
		r.anchored, line = true, line[1:]
	}
	if len(line) > 1 && strings.HasSuffix(line, "/") {
		r.dirOnly, line = true, strings.TrimSuffix(line, "/")
	}
	if line == "" {
		return r, false
	}
	if strings.Contains(line, "/") {
		r.anchored = true
	}
	// "dir/**" matches what is inside dir, not dir itself.
	if strings.HasSuffix(line, "/**") {
		line += "/*"
	}
	if !doublestar.ValidatePattern(line) {
		return r, false
	}
	r.glob = line
	if !r.anchored {
		switch {
		case !strings.ContainsAny(line, globMeta):
			r.fast, r.lit = fastEqual, line
		case strings.HasPrefix(line, "*") && !strings.ContainsAny(line[1:], globMeta):
			r.fast, r.lit = fastSuffix, line[1:]
		}
	}
	return r, true
}

// trimTrailingSpace drops trailing spaces that are not escaped with a
// backslash, as gitignore does.
func trimTrailingSpace(s string) string {
	for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-1]
	}
	return s
}

// matches reports whether the rule matches an entry. rel is the entry's
// path relative to where the rule applies, name its last element.
func (r *globRule) matches(rel, name string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	switch r.fast {
	case fastEqual:
		return name == r.lit
	case fastSuffix:
		return strings.HasSuffix(name, r.lit)
	}
	target := name
	if r.anchored {
		target = rel
	}
	ok, _ := doublestar.Match(r.glob, target)
	return ok
}

// last returns the last rule that matches, which decides (gitignore order).
func last(rules []globRule, rel, name string, isDir bool) *globRule {
	for i := len(rules) - 1; i >= 0; i-- {
		if rules[i].matches(rel, name, isDir) {
			return &rules[i]
		}
	}
	return nil
}

// The kinds of ignore file, in ripgrep's order of precedence.
const (
	kindRgignore = iota
	kindIgnore
	kindGitignore
	kindExclude
	numKinds
)

var ignoreNames = [...]string{kindRgignore: ".rgignore", kindIgnore: ".ignore", kindGitignore: ".gitignore"}

// ignoreNode holds the ignore rules of one directory. Nodes form a chain to
// the root of the file system through the directories that have rules (or
// a .git), so a directory without any shares its parent's node.
type ignoreNode struct {
	parent *ignoreNode
	dir    string // absolute, ending in a separator
	hasGit bool   // this directory or an ancestor holds .git
	rules  [numKinds][]globRule
}

// verdict applies the chain's rules to an entry given by absolute path.
func (n *ignoreNode) verdict(abs, name string, isDir bool) verdict {
	if n == nil {
		return noVerdict
	}
	for k := range numKinds {
		if (k == kindGitignore || k == kindExclude) && !n.hasGit {
			continue
		}
		for p := n; p != nil; p = p.parent {
			if len(p.rules[k]) == 0 || !strings.HasPrefix(abs, p.dir) {
				continue
			}
			if r := last(p.rules[k], abs[len(p.dir):], name, isDir); r != nil {
				if r.negate {
					return included
				}
				return excluded
			}
		}
	}
	return noVerdict
}

// isIgnoreName says whether a directory entry feeds the ignore chain.
func isIgnoreName(name string) bool {
	switch name {
	case ".rgignore", ".ignore", ".gitignore", ".git":
		return true
	}
	return false
}

// childNode reads the ignore files of dir. It returns parent itself when dir
// adds nothing.
func childNode(parent *ignoreNode, dir string) *ignoreNode {
	n := &ignoreNode{parent: parent, dir: withSep(dir)}
	if parent != nil {
		n.hasGit = parent.hasGit
	}
	found := false
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		n.hasGit, found = true, true
		n.rules[kindExclude] = readRules(filepath.Join(dir, ".git", "info", "exclude"))
	}
	for k, name := range ignoreNames {
		if rs := readRules(filepath.Join(dir, name)); len(rs) > 0 {
			n.rules[k] = rs
			found = true
		}
	}
	if !found {
		return parent
	}
	return n
}

func readRules(path string) []globRule {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var rules []globRule
	for line := range strings.SplitSeq(string(data), "\n") {
		if r, ok := parseRule(line); ok {
			rules = append(rules, r)
		}
	}
	return rules
}

// ancestorNodes builds the chain for the directories above root, from the
// file system root down, since ripgrep honours their ignore files too.
func ancestorNodes(root string) *ignoreNode {
	if filepath.Dir(root) == root {
		return nil // the file system root has no ancestors
	}
	var dirs []string
	for d := filepath.Dir(root); ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	var n *ignoreNode
	for i := len(dirs) - 1; i >= 0; i-- {
		n = childNode(n, dirs[i])
	}
	return n
}

func withSep(dir string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir
	}
	return dir + string(filepath.Separator)
}

// entryFilter holds the glob and type filters of one search.
type entryFilter struct {
	globs      []globRule // the input glob, then "!.git"; the last match decides
	whitelists int        // globs that include (not negated)
	types      []globRule // nil when no type is asked for
}

func newEntryFilter(glob, typ string) *entryFilter {
	f := &entryFilter{}
	if glob != "" {
		// "!.git" keeps .git out when the glob would include hidden
		// entries; without a glob, .git is skipped as hidden.
		for _, g := range []string{glob, "!.git"} {
			if r, ok := parseRule(g); ok {
				f.globs = append(f.globs, r)
			}
		}
	}
	for _, g := range f.globs {
		if !g.negate {
			f.whitelists++
		}
	}
	if typ != "" {
		for _, g := range fileTypes[typ] {
			if r, ok := parseRule(g); ok {
				f.types = append(f.types, r)
			}
		}
	}
	return f
}

// skip decides whether the walker leaves out an entry. display is the path
// as shown (globs with a slash match it), abs the absolute path.
func (f *entryFilter) skip(ig *ignoreNode, abs, display, name string, isDir bool) bool {
	if r := last(f.globs, display, name, isDir); r != nil {
		return r.negate // globs are inclusions; "!" excludes
	}
	if f.whitelists > 0 && !isDir {
		return true
	}
	allowed := false
	switch ig.verdict(abs, name, isDir) {
	case excluded:
		return true
	case included:
		allowed = true
	}
	if f.types != nil && !isDir {
		if last(f.types, name, name, false) == nil {
			return true
		}
		allowed = true
	}
	return !allowed && strings.HasPrefix(name, ".")
}
