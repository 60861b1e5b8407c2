package permission

import (
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A Read deny rule means the agent does not see the file, by any route. The
// sandbox hides such files from the processes it starts; before that, a
// command line whose visible words name one is refused outright (issue
// 16): the arguments of every command (`cat .env`, `cp .env y`,
// `grep x .env`, `--file=.env`, `if=.env`), wrappers and nested scripts
// included, and the files of input redirections (`cat < .env`,
// `echo $(<.env)`, `<>`). Globs are expanded against the file system when
// the call is checked, like write targets. echo and printf print their
// arguments and open nothing, so `echo .env >> .gitignore` names no file.
// The answer comes from the same rules, read the same way, as Readable's
// for Read, Grep, Glob and LS.

// printers are the programs whose arguments are text, never files.
var printers = map[string]bool{"echo": true, "printf": true}

// argReads records the files a command's words may name.
func (w *walker) argReads(vals []string, globs []*syntax.Word, d dirs) {
	if len(vals) == 0 {
		return
	}
	u, _ := unwrap(vals)
	if len(u) > 0 && printers[path.Base(u[0])] {
		return
	}
	for i, v := range vals {
		var glob *syntax.Word
		if i < len(globs) {
			glob = globs[i]
		}
		if j := strings.IndexByte(v, '='); j > 0 && glob == nil {
			w.readTarget(v[j+1:], d, nil) // --file=.env, if=.env
		}
		if j := strings.IndexByte(v, ':'); j > 0 && glob == nil {
			w.readTarget(v[j+1:], d, nil) // git show HEAD:.env, host:.env
		}
		switch {
		case i == 0 && !strings.Contains(v, "/"):
			continue // a program found through PATH, not a file here
		case len(v) > 1 && v[0] == '-' && glob == nil:
			continue // an option (its value, if attached with =, is above)
		}
		w.readTarget(v, d, glob)
	}
	if len(u) > 1 && path.Base(u[0]) == "sed" {
		for _, f := range sedReads(u[1:]) {
			w.readTarget(f, d, nil) // sed 'r .env', 1R.env
		}
	}
}

// readTarget records one file a line may read, as seen from each directory
// it may run in. Parts of a name only known when it runs are taken as
// empty; what else they may hold is left to the sandbox.
func (w *walker) readTarget(t string, d dirs, glob *syntax.Word) {
	if strings.IndexByte(t, opaque) >= 0 {
		// `cat .env$x`: with the unknown parts empty the word may name
		// the file; any other value is left to the sandbox.
		t = strings.ReplaceAll(t, opaqueStr, "")
		glob = nil
	}
	if t == "" {
		return
	}
	t, harmless, blind := specialTarget(t) // /proc/self/root/x is /x
	if harmless || blind {
		return // a stream, or a place only known when the line runs
	}
	if path.IsAbs(t) || d.unknown {
		// Relative to the start when the directory is not known: the
		// directory the line most likely runs in.
		w.a.reads = append(w.a.reads, write{path: t, glob: glob, dir: ".", home: w.home})
		return
	}
	for _, dir := range d.list {
		p := t
		if dir != "." {
			p = dir + "/" + t
		}
		w.a.reads = append(w.a.reads, write{path: p, glob: glob, dir: dir, home: w.home})
	}
}

// readsFrom reports whether a redirection opens its file for reading.
func readsFrom(op syntax.RedirOperator) bool {
	return op == syntax.RdrIn || op == syntax.RdrInOut
}

// readRule returns the Read rule that keeps the agent from reading f without
// a person's say-so: deny rules first, then ask rules. Readable and the
// command check both use it. The caller holds p.mu.
func (p *Policy) readRule(f pathForms) (Behavior, *compiledRule) {
	for _, set := range []struct {
		b     Behavior
		rules []compiledRule
	}{{Deny, p.cdeny}, {Ask, p.cask}} {
		for i := range set.rules {
			r := &set.rules[i]
			if r.kind == specRead && (r.path.match(f.real, p.roots) || r.path.match(f.lit, p.roots)) {
				return set.b, r
			}
		}
	}
	return Allow, nil
}

// commandReads judges the files a call's command lines name against the
// Read rules: the first with behaviour b decides.
func (p *Policy) commandReads(e *evaluation, b Behavior) (Decision, bool) {
	for _, f := range e.reads {
		got, r := p.readRule(f)
		if got != b {
			continue
		}
		if b == Deny {
			return Decision{Behavior: Deny, Rule: r.Raw,
				Message: fmt.Sprintf("%s reads %s, which rule %s%s keeps from the agent", describe(e), f.given, r.Raw, from(r.Source))}, true
		}
		return Decision{Behavior: Ask, Rule: r.Raw,
			Message: fmt.Sprintf("rule %s%s asks before %s reads %s", r.Raw, from(r.Source), describe(e), f.given)}, true
	}
	return Decision{}, false
}
