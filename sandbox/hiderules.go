package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// HideRule is a Read deny rule's paths, hidden from sandboxed commands as
// sandbox.denyRead paths are (issue 16): what the Read tool may not open
// must not be there for `cat`, a script, a task or a terminal either. The
// session fills it from the permission rules, which own what a pattern
// means; the sandbox only expands it to paths.
type HideRule struct {
	// Rule is the rule as written, for notes and explanations.
	Rule string
	// Patterns are absolute doublestar patterns matched against whole
	// paths (as written and with leading symbolic links resolved).
	Patterns []string
	// Name, when set, is a pattern for one path component (`*.env`): it
	// matches at any depth below each workspace root, and in any path
	// outside them, which the sandbox cannot hide.
	Name string
}

// Limits of one expansion, so a rule over a huge tree (a glob over the
// whole home directory) costs a bounded time at each command start; what
// lies beyond them is reported at start as not hidden.
const (
	maxHideWalk = 20000 // directory entries read, over all rules
	maxHidden   = 512   // paths hidden by rules (each is one mount)
)

// hiddenPath is one path hidden for a rule.
type hiddenPath struct {
	path, rule string
}

// expansion is what the rules hide for one command, and what they could
// not.
type expansion struct {
	hidden []hiddenPath
	// short says, per rule, what was left visible; only the start-up
	// expansion's is shown.
	short map[string][]string
	// walked counts directory entries read.
	walked int
}

// expandHideRules turns rules into the real paths to hide now, leaving out
// what an already hidden path covers. roots are the workspace roots, which
// are never hidden themselves (nor any directory holding one).
func expandHideRules(rules []HideRule, roots, already []string) expansion {
	e := &expansion{short: map[string][]string{}}
	taken := slices.Clone(already)
	for _, rule := range rules {
		x := ruleExpander{e: e, rule: rule, roots: roots, taken: &taken}
		if rule.Name != "" {
			x.visited = map[string]bool{}
			for _, root := range roots {
				x.walk(root, root, true)
			}
			x.note(fmt.Sprintf("outside the workspace roots, paths named %q stay visible to commands (the Read tool still refuses them)", rule.Name))
		}
		for _, pat := range rule.Patterns {
			x.pattern(pat)
		}
	}
	return *e
}

// ruleExpander expands one rule.
type ruleExpander struct {
	e     *expansion
	rule  HideRule
	roots []string
	taken *[]string
	// pat is the pattern being walked, segs its segments below base;
	// visited are the real directories read for it.
	pat     string
	base    string
	segs    []string
	visited map[string]bool
	// noted keeps each kind of note once per rule.
	noted map[string]bool
}

func (x *ruleExpander) note(s string) {
	if x.noted == nil {
		x.noted = map[string]bool{}
	}
	if !x.noted[s] {
		x.noted[s] = true
		x.e.short[x.rule.Rule] = append(x.e.short[x.rule.Rule], s)
	}
}

// pattern expands one absolute pattern: a literal path is hidden when it
// exists; a glob is walked from its fixed leading directories.
func (x *ruleExpander) pattern(pat string) {
	base, rest := fixedPrefix(pat)
	real, err := filepath.EvalSymlinks(base)
	if err != nil {
		return // nothing there yet: hidden from the next command once it is
	}
	if rest == "" {
		x.hide(real)
		return
	}
	x.pat, x.base, x.visited = pat, base, map[string]bool{}
	x.segs = strings.Split(rest, "/")
	if x.matches(base, real) {
		if x.hide(real) {
			return
		}
	}
	x.walk(base, real, false)
}

// walk reads the directory real (lit as the rules may name it) and hides
// each entry that matches, descending where a match can still be below.
// byName matches the entry names against the rule's Name.
func (x *ruleExpander) walk(lit, real string, byName bool) {
	if x.visited[real] || pseudoFS(real) {
		return
	}
	x.visited[real] = true
	entries, err := os.ReadDir(real)
	if err != nil {
		return
	}
	for _, ent := range entries {
		if x.e.walked >= maxHideWalk {
			x.note(fmt.Sprintf("the search for its paths stopped after %d directory entries; what lies beyond stays visible to commands", maxHideWalk))
			return
		}
		x.e.walked++
		childLit, childReal := filepath.Join(lit, ent.Name()), filepath.Join(real, ent.Name())
		isDir := ent.IsDir()
		if ent.Type()&os.ModeSymlink != 0 {
			r, err := filepath.EvalSymlinks(childReal)
			if err != nil {
				continue // a dangling link hides nothing
			}
			childReal = r
			fi, err := os.Stat(r)
			isDir = err == nil && fi.IsDir()
		}
		var match bool
		if byName {
			match = doublestar.MatchUnvalidated(x.rule.Name, ent.Name())
		} else {
			match = x.matches(childLit, childReal)
		}
		if match && x.hide(childReal) {
			continue
		}
		if isDir && (byName || x.mayHoldMatches(childLit)) {
			x.walk(childLit, childReal, byName)
		}
	}
}

// matches reports whether the pattern being walked matches either form of
// a path.
func (x *ruleExpander) matches(lit, real string) bool {
	return doublestar.MatchUnvalidated(x.pat, lit) || doublestar.MatchUnvalidated(x.pat, real)
}

// mayHoldMatches reports whether a path below dir can match the pattern
// being walked, comparing dir's components below the pattern's base with
// the pattern's segments; a `**` or a brace (which may hold a slash) makes
// anything below possible.
func (x *ruleExpander) mayHoldMatches(dir string) bool {
	if strings.Contains(x.pat, "{") {
		return true
	}
	rel, ok := strings.CutPrefix(dir, x.base)
	if !ok {
		return true
	}
	rel = strings.Trim(rel, "/")
	if rel == "" {
		return true
	}
	comps := strings.Split(rel, "/")
	for i, c := range comps {
		if i >= len(x.segs) {
			return false
		}
		if strings.Contains(x.segs[i], "**") {
			return true
		}
		if !doublestar.MatchUnvalidated(x.segs[i], c) {
			return false
		}
	}
	return len(x.segs) > len(comps)
}

// hide records real as hidden for the rule and reports whether it is
// covered now (hidden by this call or already). A workspace root, or a
// directory holding one, is never hidden: its matching contents are.
func (x *ruleExpander) hide(real string) bool {
	if holdsRoot(real, x.roots) {
		x.note(fmt.Sprintf("%s holds the workspace, so it is not hidden itself (what it holds that the rule names is)", real))
		return false
	}
	for _, t := range *x.taken {
		if within(real, t) {
			return true
		}
	}
	if len(x.e.hidden) >= maxHidden {
		x.note(fmt.Sprintf("it names more than %d paths; the ones past that stay visible to commands", maxHidden))
		return true // stop descending: nothing more can be hidden
	}
	// A directory hidden now covers what was hidden below it before.
	*x.taken = slices.DeleteFunc(*x.taken, func(t string) bool { return within(t, real) })
	x.e.hidden = slices.DeleteFunc(x.e.hidden, func(h hiddenPath) bool { return within(h.path, real) })
	*x.taken = append(*x.taken, real)
	x.e.hidden = append(x.e.hidden, hiddenPath{path: real, rule: x.rule.Rule})
	return true
}

// fixedPrefix splits an absolute pattern into its leading directories
// without glob characters (unescaped, as a file system path) and the rest.
func fixedPrefix(pat string) (base, rest string) {
	segs := strings.Split(strings.TrimPrefix(pat, "/"), "/")
	var fixed []string
	for i, s := range segs {
		if strings.ContainsAny(s, `*?[{\`) {
			if !strings.ContainsAny(s, `*?[{`) {
				// Only escapes: a literal name.
				fixed = append(fixed, unescape(s))
				continue
			}
			return "/" + strings.Join(fixed, "/"), strings.Join(segs[i:], "/")
		}
		fixed = append(fixed, s)
	}
	return "/" + strings.Join(fixed, "/"), ""
}

// unescape drops the backslashes that quote glob characters.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// pseudoFS reports whether p is in a kernel file system whose entries are
// not files a rule can mean (and whose walk never ends).
func pseudoFS(p string) bool {
	for _, d := range []string{"/proc", "/sys", "/dev"} {
		if within(p, d) {
			return true
		}
	}
	return false
}

// hideNotes are the start-up notes for rules that could not be hidden
// whole, in rule order.
func hideNotes(rules []HideRule, e expansion) []string {
	var notes []string
	for _, r := range rules {
		short := e.short[r.Rule]
		if len(short) == 0 {
			continue
		}
		n := 0
		for _, h := range e.hidden {
			if h.rule == r.Rule {
				n++
			}
		}
		notes = append(notes, fmt.Sprintf("sandbox: the deny rule %s is only partly hidden from commands (%d paths hidden now): %s",
			r.Rule, n, strings.Join(short, "; ")))
	}
	return notes
}
