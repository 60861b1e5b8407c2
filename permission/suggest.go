package permission

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// subcommandTools are commands whose second word picks what they do, so a
// session grant covers `git status`, not all of git.
var subcommandTools = map[string]bool{
	"git": true, "go": true, "npm": true, "pnpm": true, "yarn": true, "cargo": true,
	"docker": true, "kubectl": true, "pip": true, "uv": true, "gh": true,
	"systemctl": true, "brew": true, "apt": true, "apt-get": true,
}

// SessionRule is the rule a person grants with "Yes for this session": the
// narrowest rule likely to cover the same kind of call again. Several rules
// are joined by ", ", the form Grant accepts. workDir is the directory the
// session works in (the policy's WorkDir): relative paths in t are resolved
// against it and `./` rules are relative to it.
func SessionRule(tool string, t Target, workDir string) string {
	return strings.Join(SessionRules(tool, t, workDir), ", ")
}

// SessionRules lists the rules of SessionRule: `Bash(<command>:*)` per
// command part (two words for tools with subcommands such as git), `Edit(...)`
// or `Read(...)` on each file's directory (`./dir/**` inside workDir,
// `//abs/**` outside), `WebFetch(domain:<host>)`, or the bare tool name when
// the call has no target. A command that does not parse gets no rule: no
// prefix rule could allow it.
func SessionRules(tool string, t Target, workDir string) []string {
	var out []string
	for _, c := range t.Commands {
		a := cachedAnalysis(c)
		if a.err != nil {
			continue
		}
		for _, pt := range a.parts {
			if r := commandRule(pt); r != "" {
				out = append(out, r)
			}
		}
	}
	if len(t.Paths) > 0 {
		home := homeDir()
		root := resolvePath(absPath(workDir, cwd(), home))
		var real []string
		for _, p := range t.Paths {
			real = append(real, resolveForms(p, root, home).real)
		}
		out = append(out, pathRules(t.Access, real, root, root, resolvePath(home))...)
	}
	if h := normalizeHost(t.Host); h != "" {
		out = append(out, hostRule(h))
	}
	if len(t.Commands) == 0 && len(t.Paths) == 0 && t.Host == "" {
		out = append(out, tool)
	}
	return dedupe(out)
}

// commandRule proposes a prefix rule for one command part, or "" when no
// safe rule can be written (its words contain glob or rule syntax).
func commandRule(pt part) string {
	if len(pt.words) == 0 {
		return ""
	}
	prefix := pt.words[0]
	if subcommandTools[path.Base(prefix)] && len(pt.words) > 1 {
		if strings.HasPrefix(pt.words[1], "-") {
			// `git -C dir push`: no clean subcommand; grant the
			// exact command rather than all of git.
			return ruleIfValid("Bash(" + pt.text + ")")
		}
		prefix += " " + pt.words[1]
	}
	return ruleIfValid("Bash(" + prefix + ":*)")
}

// ruleIfValid returns r when it parses and contains no '*' beyond a final
// ":*", which would widen it into a glob.
func ruleIfValid(r string) string {
	rule, err := ParseRule(r)
	if err != nil || strings.IndexByte(strings.TrimSuffix(rule.Specifier, ":*"), '*') >= 0 {
		return ""
	}
	return r
}

// pathRules proposes Edit (for writes) or Read rules on the directories of
// real paths: `./dir/**` inside work (the directory `./` rules are relative
// to), `/dir/**` elsewhere inside the project root, `//abs/dir/**` outside
// it. A file directly in the home directory, in `/` or in a top-level
// directory such as /etc gets a rule for that file alone: a grant of the
// whole directory there would reach far more than the call asked for
// (~/.ssh, all of /etc). /tmp is the exception, made for such files.
func pathRules(a Access, real []string, root, work, home string) []string {
	name := "Read"
	if a == AccessWrite {
		name = "Edit"
	}
	var out []string
	for _, p := range real {
		dir := p
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			dir = filepath.Dir(p)
		}
		var spec string
		switch {
		case dir == work:
			spec = "./**"
		case within(dir, work):
			spec = "./" + escapeGlob(strings.TrimPrefix(dir[len(work):], "/")) + "/**"
		case dir == root:
			spec = "/**"
		case within(dir, root):
			spec = escapeGlob(dir[len(root):]) + "/**"
		case dir != p && tooBroad(dir, home):
			spec = "/" + escapeGlob(p)
		case dir == "/":
			spec = "//**"
		default:
			spec = "/" + escapeGlob(dir) + "/**"
		}
		if r := name + "(" + spec + ")"; ruleParses(r) {
			out = append(out, r)
		}
	}
	return dedupe(out)
}

// tooBroad reports a directory whose every file a session grant should not
// cover: the home directory, `/`, and the directories right under it
// except /tmp.
func tooBroad(dir, home string) bool {
	return dir == home || dir == "/" || filepath.Dir(dir) == "/" && dir != "/tmp"
}

func ruleParses(r string) bool {
	_, err := ParseRule(r)
	return err == nil
}

func hostRule(host string) string {
	return "WebFetch(domain:" + host + ")"
}

// dedupe keeps the first of each string, in order.
func dedupe(list []string) []string {
	var out []string
	for _, s := range list {
		if s != "" && !contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
