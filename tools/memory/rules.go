package memory

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/seed92b641c3/workbench/internal/frontmatter"
	"go.yaml.in/yaml/v3"
)

// Rules are Claude Code's .claude/rules/**/*.md (and ~/.claude/rules): a
// rule without `paths` front matter is an instruction file like CLAUDE.md;
// one with `paths` (a glob or a list of globs, relative to the project
// root) joins the conversation when a file tool first touches a matching
// file (PathRules), so instructions for one part of a project cost nothing
// until the work goes there.

// Rule is one rule file.
type Rule struct {
	// Path is the file; Scope "user" or "project" as for instruction files.
	Path, Scope string
	// Globs are the `paths` patterns; empty for a rule that always applies.
	Globs []string
	// Body is the text after the front matter, cut at maxInstructionBytes.
	Body string
}

// ruleDirs are the rule folders: the person's first, then the project's,
// in the order instruction files are read.
func ruleDirs(home, projectRoot string) [][2]string {
	var out [][2]string
	if home != "" {
		out = append(out, [2]string{filepath.Join(home, ".claude", "rules"), "user"})
	}
	if projectRoot != "" {
		out = append(out, [2]string{filepath.Join(projectRoot, ".claude", "rules"), "project"})
	}
	return out
}

// LoadRules reads every rule of the person's and the project's rule
// folders. Nothing here stops a session: a file that cannot be read or
// whose front matter is not YAML is a notice, and is left out.
func LoadRules(home, projectRoot string) ([]Rule, []string) {
	var rules []Rule
	var notices []string
	for _, d := range ruleDirs(home, projectRoot) {
		var files []string
		filepath.WalkDir(d[0], func(path string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(e.Name(), ".md") {
				files = append(files, path)
			}
			return nil
		})
		sort.Strings(files)
		for _, f := range files {
			r, err := readRule(f, d[1])
			if err != nil {
				notices = append(notices, err.Error())
				continue
			}
			rules = append(rules, r)
		}
	}
	return rules, notices
}

// readRule reads one rule file.
func readRule(path, scope string) (Rule, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Rule{}, fmt.Errorf("%s: %w", path, err)
	}
	r := Rule{Path: path, Scope: scope, Body: string(data)}
	if front, body, ok := frontmatter.Split(data); ok {
		r.Body = string(body)
		var v struct {
			Paths yaml.Node `yaml:"paths"`
		}
		if err := yaml.Unmarshal(front, &v); err != nil {
			// `paths: **/*.ts` is an alias to YAML, a glob to Claude
			// Code: read the globs as written.
			globs, ok := lenientPaths(string(front))
			if !ok {
				return Rule{}, fmt.Errorf("%s: front matter: %w", path, err)
			}
			v.Paths = yaml.Node{Kind: yaml.SequenceNode}
			for _, g := range globs {
				v.Paths.Content = append(v.Paths.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: g})
			}
		}
		switch n := v.Paths; n.Kind {
		case yaml.ScalarNode:
			for _, g := range strings.Split(n.Value, ",") {
				if g = strings.TrimSpace(g); g != "" {
					r.Globs = append(r.Globs, g)
				}
			}
		case yaml.SequenceNode:
			for _, it := range n.Content {
				if g := strings.TrimSpace(it.Value); g != "" {
					r.Globs = append(r.Globs, g)
				}
			}
		}
		for _, g := range r.Globs {
			if !doublestar.ValidatePattern(g) {
				return Rule{}, fmt.Errorf("%s:%d: paths: %q is not a valid glob", path, v.Paths.Line, g)
			}
		}
	}
	r.Body = strings.TrimSpace(r.Body)
	if len(r.Body) > maxInstructionBytes {
		r.Body = r.Body[:maxInstructionBytes] + "\n[... cut: the file is longer; Read it for the rest]"
	}
	return r, nil
}

// PathRules hands out the path-scoped rules as files are touched, each rule
// once per session. It is safe for concurrent calls.
type PathRules struct {
	root  string
	mu    sync.Mutex
	rules []Rule
	given map[string]bool
}

// NewPathRules keeps the rules of rules that have globs; root is the
// project root the globs are relative to.
func NewPathRules(root string, rules []Rule) *PathRules {
	p := &PathRules{root: root, given: map[string]bool{}}
	for _, r := range rules {
		if len(r.Globs) > 0 {
			p.rules = append(p.rules, r)
		}
	}
	return p
}

// Touch returns the messages of the rules that match any of paths
// (absolute, or relative to workDir) and were not given before. A path
// outside the project matches no rule.
func (p *PathRules) Touch(workDir string, paths []string) []string {
	if p == nil || len(p.rules) == 0 {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, path := range paths {
		if !filepath.IsAbs(path) {
			path = filepath.Join(workDir, path)
		}
		rel, err := filepath.Rel(p.root, filepath.Clean(path))
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		rel = filepath.ToSlash(rel)
		for _, r := range p.rules {
			if p.given[r.Path] || !matchesAny(r.Globs, rel) {
				continue
			}
			p.given[r.Path] = true
			out = append(out, fmt.Sprintf("<rule file=%q applies-to=%q>\nThese instructions of the project apply to the file you just touched (%s) and files like it:\n\n%s\n</rule>",
				r.Path, strings.Join(r.Globs, ", "), rel, r.Body))
		}
	}
	return out
}

// lenientPaths reads `paths:` as text: the rest of its line, or the `- `
// items below it, without their quotes.
func lenientPaths(front string) ([]string, bool) {
	var out []string
	in, found := false, false
	unquote := func(s string) string { return strings.Trim(strings.TrimSpace(s), `"'`) }
	for _, line := range strings.Split(front, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "paths:"):
			in, found = true, true
			if rest := strings.TrimSpace(strings.TrimPrefix(line, "paths:")); rest != "" {
				for _, g := range strings.Split(strings.Trim(rest, "[]"), ",") {
					if g = unquote(g); g != "" {
						out = append(out, g)
					}
				}
				in = false
			}
		case in && strings.HasPrefix(trimmed, "- "):
			out = append(out, unquote(trimmed[2:]))
		case in && trimmed != "":
			in = false
		}
	}
	return out, found && len(out) > 0
}

func matchesAny(globs []string, rel string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(strings.TrimPrefix(g, "./"), rel); ok {
			return true
		}
	}
	return false
}
