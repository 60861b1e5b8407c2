package permission

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Rule is one parsed permission rule such as `Bash(git diff:*)`,
// `Read(./src/**)`, `WebFetch(domain:example.com)`, `mcp__github__*` or `*`.
type Rule struct {
	// Tool is the part before the parenthesis ("Bash", "Read", "*").
	Tool string
	// Specifier is the text inside the parentheses; empty for a bare name.
	Specifier string
	// Raw is the rule as written, shown to people as the deciding rule.
	Raw string
	// Source says where the rule came from ("--allow", a settings path,
	// "session"), so a person can find and change it.
	Source string
}

// Policy is the rule set and workspace a session runs under. It is safe for
// concurrent use: parallel tool calls evaluate while an approval adds a grant.
type Policy struct {
	mu    sync.RWMutex
	allow []Rule
	ask   []Rule
	deny  []Rule
	// roots are the workspace roots, absolute and symlink-resolved: the
	// project directory first, then additional directories.
	roots []string
	// protected are files whose writes always ask (the settings files the
	// session loaded), absolute as written; where each resolves is decided
	// again at every check (see protectedReason).
	protected []string
	// hookDirs are the hooks directories outside .git (AddHookDirs).
	hookDirs []string
	// runLater are the files hooks and MCP servers run (AddRunLater).
	runLater []string
	// home anchors ~ in rules and paths.
	home string
	// workDir anchors `./path` and `path` rules: the directory the session
	// started in, the project directory unless SetWorkDir says otherwise.
	workDir string
	// callow, cask and cdeny are the rules compiled for matching, in the
	// same order as allow, ask and deny.
	callow, cask, cdeny []compiledRule
	// rootGit holds the roots seen with a .git (gitrepo.go), so a git
	// command in a root costs no system call after the first.
	rootGit sync.Map
}

// SessionSource is the Source of rules added by Grant, so a person can tell
// an approval given during the session from a configured rule.
const SessionSource = "session"

// NewPolicy starts a policy for a workspace. roots[0] is the project
// directory, which anchors relative path rules; further roots are extra
// directories the session may use. Roots are made absolute and resolved
// through symlinks, so the boundary check compares real locations. With no
// roots the current directory is the project.
func NewPolicy(roots []string) *Policy {
	p := &Policy{}
	if h, err := os.UserHomeDir(); err == nil && h != "" {
		p.home = resolvePath(absOrSelf(h))
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	for _, r := range roots {
		real := resolvePath(absPath(r, cwd(), p.home))
		if !contains(p.roots, real) {
			p.roots = append(p.roots, real)
		}
	}
	return p
}

func cwd() string {
	d, err := os.Getwd()
	if err != nil {
		return "/"
	}
	return d
}

func absOrSelf(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// SetWorkDir sets the directory `./path` and `dir/path` rules are relative
// to, for a session started below its project root. Call it before adding
// rules; rules added earlier are compiled again against it.
func (p *Policy) SetWorkDir(dir string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.workDir = resolvePath(absPath(dir, p.root0(), p.home))
	a := p.anchors()
	for _, list := range []struct {
		rules    []Rule
		compiled []compiledRule
	}{{p.allow, p.callow}, {p.ask, p.cask}, {p.deny, p.cdeny}} {
		for i, r := range list.rules {
			c, err := compileRule(r, a)
			if err != nil {
				return &RuleError{Raw: r.Raw, Source: r.Source, Reason: err.Error()}
			}
			c.scope = list.compiled[i].scope
			list.compiled[i] = c
		}
	}
	return nil
}

// WorkDir is the directory relative rules are anchored to.
func (p *Policy) WorkDir() string {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.work()
}

func (p *Policy) work() string {
	if p.workDir != "" {
		return p.workDir
	}
	return p.root0()
}

// anchors are the directories this policy's path rules are written against.
func (p *Policy) anchors() anchors {
	return anchors{project: p.root0(), work: p.work(), home: p.home}
}

// root0 is the project directory, or the current directory for a Policy
// not made by NewPolicy.
func (p *Policy) root0() string {
	if len(p.roots) > 0 {
		return p.roots[0]
	}
	return resolvePath(cwd())
}

// AddRules parses and adds rules with behaviour b, remembering source for
// messages. A rule that does not parse is reported (naming the rule and the
// source) and skipped, while the valid ones are still added: dropping a whole
// deny list because of one typo would loosen the policy.
func (p *Policy) AddRules(b Behavior, source string, rules ...string) error {
	if b != Allow && b != Ask && b != Deny {
		return fmt.Errorf("%s: unknown rule behaviour %q (want allow, ask or deny)", source, b)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for _, s := range rules {
		if err := p.addLocked(b, source, s); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (p *Policy) addLocked(b Behavior, source, s string) error {
	r, err := ParseRule(s)
	if err == nil {
		r.Source = source
		var c compiledRule
		if c, err = compileRule(r, p.anchors()); err == nil {
			switch b {
			case Allow:
				p.allow, p.callow = append(p.allow, r), append(p.callow, c)
			case Ask:
				p.ask, p.cask = append(p.ask, r), append(p.cask, c)
			case Deny:
				p.deny, p.cdeny = append(p.deny, r), append(p.cdeny, c)
			}
			return nil
		}
		err = &RuleError{Raw: r.Raw, Reason: err.Error()}
	}
	var re *RuleError
	if errors.As(err, &re) {
		re.Source = source
	}
	return err
}

// AddProtected names files (or directories) whose writes always ask, in
// every mode and whatever the rules say: the settings files that hold the
// rules themselves, so a session cannot grant itself more. Relative paths
// are relative to the project directory. Only the name is kept: where it
// leads is resolved at every check, so a symlink made later moves the
// protection with it (H17).
func (p *Policy) AddProtected(paths ...string) {
	p.addProtected(&p.protected, paths)
}

// AddHookDirs names directories git runs hooks from outside .git (the one
// core.hooksPath names, such as husky's .husky/_): a hook written there runs
// at the person's next git command, so writes there always ask, like
// writes into .git.
func (p *Policy) AddHookDirs(paths ...string) {
	p.addProtected(&p.hookDirs, paths)
}

// AddRunLater names files the person's hooks and MCP servers run outside
// the sandbox (a hook's ./scripts/lint.sh): a Write or Edit there would
// have the next hook run the model's code outside, so it always asks.
func (p *Policy) AddRunLater(paths ...string) {
	p.addProtected(&p.runLater, paths)
}

func (p *Policy) addProtected(list *[]string, paths []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range paths {
		lit := resolveForms(s, p.root0(), p.home).lit
		if !contains(*list, lit) {
			*list = append(*list, lit)
		}
	}
}

// Grant adds an allow rule for the rest of the session ("Yes for this
// session"), with Source "session". It accepts one rule or a Suggestion
// listing several, separated by ", ". Safe while other goroutines Evaluate;
// on a parse error nothing is added.
func (p *Policy) Grant(rule string) error {
	list := splitRuleList(rule)
	compiled := make([]compiledRule, 0, len(list))
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range list {
		r, err := ParseRule(s)
		if err != nil {
			var re *RuleError
			if errors.As(err, &re) {
				re.Source = SessionSource
			}
			return err
		}
		r.Source = SessionSource
		c, err := compileRule(r, p.anchors())
		if err != nil {
			return &RuleError{Raw: r.Raw, Source: SessionSource, Reason: err.Error()}
		}
		compiled = append(compiled, c)
	}
	for _, c := range compiled {
		p.allow = append(p.allow, c.Rule)
		p.callow = append(p.callow, c)
	}
	return nil
}

// Roots returns the workspace roots, absolute and symlink-resolved, project
// directory first.
func (p *Policy) Roots() []string {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return append([]string(nil), p.roots...)
}

// Rules returns a copy of the rules with behaviour b, in the order they were
// added, for settings views and headless explanations.
func (p *Policy) Rules(b Behavior) []Rule {
	p.mu.RLock()
	defer p.mu.RUnlock()
	switch b {
	case Allow:
		return append([]Rule(nil), p.allow...)
	case Ask:
		return append([]Rule(nil), p.ask...)
	case Deny:
		return append([]Rule(nil), p.deny...)
	}
	return nil
}

// rootList is the roots for messages.
func (p *Policy) rootList() string {
	return strings.Join(p.roots, ", ")
}
