package permission

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"mvdan.cc/sh/v3/syntax"
)

// specKind says what a rule's specifier is matched against.
type specKind int

const (
	specNone    specKind = iota // bare name: the tool, whatever its target
	specCommand                 // Bash(...): every shell command part, whatever the tool (H5)
	specRead                    // Read(...): paths read (or merely named)
	specWrite                   // Edit(...), Write(...): paths written
	specHost                    // WebFetch(domain:...): the fetched host
	specOther                   // Name(...) of another tool: that tool's commands, paths or host
)

// specKindOf maps a rule's tool name to the kind of specifier it takes.
func specKindOf(tool string) specKind {
	switch tool {
	case "Bash":
		return specCommand
	case "Read":
		return specRead
	case "Edit", "Write":
		return specWrite
	case "WebFetch":
		return specHost
	}
	return specOther
}

// compiledRule is a Rule prepared once, when it is added, so Evaluate does no
// parsing or pattern building per call.
type compiledRule struct {
	Rule
	kind specKind
	cmd  cmdMatcher
	// program is the first word of an exact or prefix command rule, "" for
	// any other rule. A command part can only match such a rule if it
	// starts with the same word, so most rules are passed over with one
	// string comparison (see firstWord).
	program string
	// base matches the rule with its program's path cut to the base name
	// (`Bash(/bin/rm:*)` as `Bash(rm:*)`): deny and ask rules use it.
	base *cmdMatcher
	path pathMatcher
	host hostMatcher
	// scope marks a rule of a GrantScoped grant, so revoking it removes
	// exactly its rules; nil for every other rule.
	scope *byte
}

// compileRule prepares r against the directories that anchor its path
// patterns.
func compileRule(r Rule, a anchors) (compiledRule, error) {
	c := compiledRule{Rule: r, kind: specNone}
	if r.Specifier == "" {
		return c, nil
	}
	c.kind = specKindOf(r.Tool)
	spec := r.Specifier
	switch c.kind {
	case specCommand:
		m, err := newCmdMatcher(spec)
		if err != nil {
			return c, err
		}
		c.cmd = m
		if m.mode != cmdGlob {
			c.program = firstWord(m.text)
		}
		if prog := firstWord(m.text); m.mode != cmdGlob && strings.Contains(prog, "/") {
			b := m
			b.text = path.Base(prog) + m.text[len(prog):]
			if b.mode == cmdPrefix {
				b.prefix = b.text + " "
			}
			c.base = &b
			c.program = "" // matched by either name
		}
	case specHost:
		c.host = newHostMatcher(strings.TrimPrefix(spec, "domain:"))
	case specRead, specWrite:
		pm, err := newPathMatcher(spec, a)
		if err != nil {
			return c, err
		}
		c.path = pm
	case specOther:
		// The specifier of an unknown tool is read in whichever way fits
		// the call's target, so `Monitor(npm test)` or `Grep(./src/**)`
		// mean what they say.
		c.cmd, _ = newCmdMatcher(spec)
		if h, ok := strings.CutPrefix(spec, "domain:"); ok {
			c.host = newHostMatcher(h)
		}
		if pm, err := newPathMatcher(spec, a); err == nil {
			c.path = pm
		}
	}
	return c, nil
}

// nameMatches reports whether the rule's name part covers tool.
func (c *compiledRule) nameMatches(tool string) bool {
	if c.Tool == "*" || c.Tool == tool || mcpServerCovers(c.Tool, tool) {
		return true
	}
	return strings.IndexByte(c.Tool, '*') >= 0 && wildcardMatch(c.Tool, tool)
}

// mcpServerCovers reports whether rule is a bare server rule, `mcp__github`,
// and tool one of that server's tools, `mcp__github__create_issue`. Server
// names hold no "__" (see mcp.ToolPrefix), so the first "__" after the
// server ends it and `mcp__git` does not cover `mcp__github__x`.
func mcpServerCovers(rule, tool string) bool {
	server, ok := strings.CutPrefix(rule, "mcp__")
	if !ok || server == "" || strings.Contains(server, "__") || strings.IndexByte(server, '*') >= 0 {
		return false
	}
	return strings.HasPrefix(tool, rule+"__") && len(tool) > len(rule)+2
}

// wholeTool reports whether c is a bare rule that decides the call whatever
// it touches. A bare Bash rule also covers every shell tool (H5).
func (c *compiledRule) wholeTool(e *evaluation) bool {
	if c.kind != specNone {
		return false
	}
	return c.nameMatches(e.req.Tool) || (c.Tool == "Bash" && len(e.cmds) > 0)
}

// firstWord is the text up to its first space. Rule texts and command parts
// are printed the same way, so a part matching a rule exactly or by prefix
// shares the rule's first word.
func firstWord(s string) string {
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return s[:i]
	}
	return s
}

// aboutPrograms reports whether c could match a command starting with one
// of programs: it is not a command rule about one program, or it is about
// one of these.
func (c *compiledRule) aboutPrograms(programs []string) bool {
	return c.program == "" || slices.Contains(programs, c.program)
}

// matchesCommand reports whether a deny or ask rule matches a command
// part: as written, by its program's base name, or, for a part holding a
// value only known at run time, for some value it might take.
func (c *compiledRule) matchesCommand(text string) bool {
	if strings.IndexByte(text, opaque) >= 0 {
		return c.cmd.mightMatch(text) || (c.base != nil && c.base.mightMatch(text))
	}
	return c.cmd.match(text) || (c.base != nil && c.base.match(text))
}

// commandRule reports whether c's specifier applies to the call's commands.
func (c *compiledRule) commandRule(tool string) bool {
	return c.kind == specCommand || (c.kind == specOther && c.nameMatches(tool))
}

// pathRule reports whether c's specifier applies to paths with access a.
func (c *compiledRule) pathRule(tool string, a Access) bool {
	switch c.kind {
	case specRead:
		return a != AccessWrite
	case specWrite:
		return a == AccessWrite
	case specOther:
		return c.path.valid && c.nameMatches(tool)
	}
	return false
}

// hostRule reports whether c's specifier applies to the call's host.
func (c *compiledRule) hostRule(tool string) bool {
	return c.kind == specHost || (c.kind == specOther && c.host.valid && c.nameMatches(tool))
}

// cmdMatcher matches one simple command's source text.
type cmdMatcher struct {
	mode   int // cmdExact, cmdPrefix or cmdGlob
	text   string
	prefix string // text + " ", for the word-boundary test
}

const (
	cmdExact = iota
	cmdPrefix
	cmdGlob
)

func newCmdMatcher(spec string) (cmdMatcher, error) {
	m := cmdMatcher{mode: cmdExact}
	text := spec
	if p, ok := strings.CutSuffix(spec, ":*"); ok {
		m.mode = cmdPrefix
		text = strings.TrimSpace(p)
	}
	text, err := normalizeCommand(text)
	switch {
	case m.mode == cmdPrefix:
		m.prefix = text + " "
	case strings.Count(text, "*") == 1 && strings.HasSuffix(text, " *"):
		// Claude Code's reading: a lone trailing ` *` also matches the
		// command without arguments, so `Bash(git push *)` denies a bare
		// `git push` as it does there. That is the prefix rule's meaning.
		m.mode = cmdPrefix
		text = strings.TrimSuffix(text, " *")
		m.prefix = text + " "
	case strings.IndexByte(text, '*') >= 0:
		m.mode = cmdGlob
	}
	m.text = text
	return m, err
}

// errCompound explains why a specifier with several commands is refused:
// rules are matched one simple command at a time, so it could never match,
// and a deny rule that never matches is worse than an error.
var errCompound = errors.New("a Bash rule matches one simple command; write one rule per command instead of joining them with ;, &&, || or |")

// normalizeCommand prints a specifier the way SplitCommand prints parts, so
// `npm  test` in a rule matches the part `npm test`. Text that does not parse
// is kept as written; text holding more than one command is an error.
func normalizeCommand(s string) (string, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s), "")
	if err != nil || len(f.Stmts) == 0 {
		return s, nil
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if len(f.Stmts) > 1 || !ok || len(call.Args) == 0 || st.Background || st.Negated || len(st.Redirs) > 0 {
		return s, errCompound
	}
	pr := syntax.NewPrinter()
	var b strings.Builder
	for i, w := range call.Args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if v, ok := ruleWordValue(w); ok {
			b.WriteString(v)
			continue
		}
		if err := pr.Print(&b, w); err != nil {
			return s, nil
		}
	}
	return b.String(), nil
}

// ruleWordValue is a rule word's value after quote removal, when it holds
// no expansion (a `*` stays a wildcard).
func ruleWordValue(w *syntax.Word) (string, bool) {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if _, ok := literalWord(&syntax.Word{Parts: p.Parts}); !ok {
				return "", false
			}
		default:
			return "", false
		}
	}
	x := &expander{}
	vals, _ := x.fields(w)
	v := strings.Join(vals, " ")
	return v, strings.IndexByte(v, opaque) < 0
}

// mightMatch reports whether some value of part, whose opaque bytes stand
// for any text, would match: a deny or ask rule that might match decides
// (H15). It compares the rule's pattern with the part's as two patterns (a
// '*' in a prefix rule's text counts as a wildcard here, which only makes
// the rule match more).
func (m *cmdMatcher) mightMatch(part string) bool {
	if m.mode == cmdPrefix {
		return meet(m.text, part, true) || meet(m.prefix+"*", part, true)
	}
	return meet(m.text, part, true)
}

// meet decides whether the patterns share a string, by dynamic
// programming over positions; pStars says whether '*' in p is a wildcard.
func meet(p, q string, pStars bool) bool {
	type pos struct{ i, j int }
	seen := map[pos]bool{}
	var f func(i, j int) bool
	f = func(i, j int) bool {
		if i == len(p) && j == len(q) {
			return true
		}
		k := pos{i, j}
		if v, ok := seen[k]; ok {
			return v
		}
		seen[k] = false
		pw := i < len(p) && pStars && p[i] == '*'
		qw := j < len(q) && q[j] == opaque
		var r bool
		switch {
		case pw:
			r = f(i+1, j) || (j < len(q) && f(i, j+1))
		case qw:
			r = f(i, j+1) || (i < len(p) && f(i+1, j))
		default:
			r = i < len(p) && j < len(q) && p[i] == q[j] && f(i+1, j+1)
		}
		seen[k] = r
		return r
	}
	return f(0, 0)
}

func (m *cmdMatcher) match(part string) bool {
	switch m.mode {
	case cmdPrefix:
		return part == m.text || strings.HasPrefix(part, m.prefix)
	case cmdGlob:
		return wildcardMatch(m.text, part)
	}
	return part == m.text
}

// hostMatcher matches a host name: exactly, or any subdomain for "*.x".
type hostMatcher struct {
	valid  bool
	any    bool
	host   string // exact host, lower case
	suffix string // ".example.com" for "*.example.com"
}

func newHostMatcher(h string) hostMatcher {
	h = normalizeHost(h)
	switch {
	case h == "":
		return hostMatcher{}
	case h == "*":
		return hostMatcher{valid: true, any: true}
	case strings.HasPrefix(h, "*."):
		return hostMatcher{valid: true, suffix: h[1:]}
	}
	return hostMatcher{valid: true, host: h}
}

// normalizeHost lowers case and drops a trailing dot and IPv6 brackets, the
// spellings that name the same host.
func normalizeHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	h = strings.TrimSuffix(h, ".")
	if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		h = h[1 : len(h)-1]
	}
	return h
}

func (m *hostMatcher) match(host string) bool {
	switch {
	case !m.valid || host == "":
		return false
	case m.any:
		return true
	case m.suffix != "":
		return len(host) > len(m.suffix) && strings.HasSuffix(host, m.suffix)
	}
	return host == m.host
}

// pathMatcher matches absolute paths against a gitignore-style pattern.
type pathMatcher struct {
	valid bool
	// patterns are absolute doublestar patterns: the pattern as written
	// and, when different, with its fixed leading directories resolved
	// through symlinks.
	patterns []string
	// component, when set, is a pattern without a slash: it matches any
	// path component below the containing root (the base name anywhere).
	component string
}

// anchors are the directories path rules are written against: the project
// root for `/path`, the working directory for `./path` and `path`, the home
// directory for `~/path`. `//path` needs none: it is absolute.
type anchors struct {
	project, work, home string
}

// newPathMatcher reads a path specifier the way Claude Code documents it, so
// one rule means the same in both programs: `//path` is absolute, `~/path`
// is in the home directory, `/path` is relative to the project root, and
// `./path` or `dir/path` relative to the working directory. A pattern with no
// slash at all (`*.env`) matches that name at any depth, gitignore-style.
func newPathMatcher(spec string, a anchors) (pathMatcher, error) {
	s := spec
	if strings.HasSuffix(s, "/") {
		s += "**"
	}
	var abs string
	switch {
	case s == "~" || strings.HasPrefix(s, "~/"):
		if a.home == "" {
			return pathMatcher{}, fmt.Errorf("cannot expand ~ in %q: no home directory", spec)
		}
		abs = escapeGlob(a.home) + s[1:]
	case strings.HasPrefix(s, "//"):
		abs = s[1:]
	case strings.HasPrefix(s, "/"):
		abs = escapeGlob(a.project) + s
	case !strings.Contains(s, "/"):
		if !doublestar.ValidatePattern(s) {
			return pathMatcher{}, fmt.Errorf("invalid path pattern %q", spec)
		}
		return pathMatcher{valid: true, component: s}, nil
	default:
		abs = escapeGlob(a.work) + "/" + strings.TrimPrefix(s, "./")
	}
	abs = filepath.Clean(abs)
	if !doublestar.ValidatePattern(abs) {
		return pathMatcher{}, fmt.Errorf("invalid path pattern %q", spec)
	}
	m := pathMatcher{valid: true, patterns: []string{abs}}
	if r := resolvePatternPrefix(abs); r != abs {
		m.patterns = append(m.patterns, r)
	}
	return m, nil
}

// resolvePatternPrefix resolves symlinks in the directories before the first
// glob character, so `/tmp/x/**` also matches where /tmp really is.
func resolvePatternPrefix(pattern string) string {
	i := strings.IndexAny(pattern, `*?[{\`)
	if i < 0 {
		return resolvePath(pattern)
	}
	slash := strings.LastIndexByte(pattern[:i], '/')
	if slash <= 0 {
		return pattern
	}
	dir := resolvePath(pattern[:slash])
	return escapeGlob(dir) + pattern[slash:]
}

// match reports whether the absolute path p matches, given the workspace
// roots that anchor component patterns.
func (m *pathMatcher) match(p string, roots []string) bool {
	if !m.valid {
		return false
	}
	if m.component != "" {
		rel := p
		if root := containingRoot(p, roots); root != "" {
			rel = strings.TrimPrefix(p[len(root):], "/")
		}
		for _, c := range strings.Split(rel, "/") {
			if c != "" && doublestar.MatchUnvalidated(m.component, c) {
				return true
			}
		}
		return false
	}
	for _, pat := range m.patterns {
		if doublestar.MatchUnvalidated(pat, p) {
			return true
		}
	}
	return false
}

// escapeGlob quotes the glob characters of a literal path so a directory
// named `a[1]` is matched as written.
func escapeGlob(s string) string {
	if !strings.ContainsAny(s, `*?[]{}\`) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]{}\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// wildcardMatch matches s against a pattern whose only special character is
// '*' (any run of characters, '/' and spaces included).
func wildcardMatch(pattern, s string) bool {
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case p < len(pattern) && pattern[p] == s[i]:
			p++
			i++
		case star >= 0:
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}
