package permission

import "path/filepath"

// Readable says whether the agent may see the file or directory at path
// (its contents or merely its name) without a person's say-so: Allow, or
// Deny or Ask with the Read rule that decides (deny rules first). Rules
// match the path as written and as it resolves now, like Evaluate's. It is
// the one answer to "is this path readable by the agent": Read checks the
// file it opened with it, and the tools that find files themselves (Grep,
// with ripgrep or without, Glob, LS) leave out every path that is not Allow
// and say how many they left out, since they cannot stop to ask per file.
// Relative paths are relative to the project directory. Only Read rules
// with a path specifier take part; a bare Read rule is about the Read tool.
// Evaluate asks the same question (readRule) of every file a shell command
// line names, so `cat .env` is denied by the rule that hides .env from Read.
func (p *Policy) Readable(path string) (Behavior, string) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if !p.hidesReadsLocked() {
		return Allow, ""
	}
	abs := absPath(path, p.root0(), p.home)
	f := pathForms{given: path, lit: filepath.Clean(abs), real: resolveUnder(abs, p.roots)}
	b, r := p.readRule(f)
	if r == nil {
		return Allow, ""
	}
	return b, r.Raw
}

// HidesReads reports whether any rule can make Readable answer other than
// Allow, so a tool can skip the work of counting what it leaves out.
func (p *Policy) HidesReads() bool {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.hidesReadsLocked()
}

func (p *Policy) hidesReadsLocked() bool {
	for _, rules := range [][]compiledRule{p.cdeny, p.cask} {
		for i := range rules {
			if rules[i].kind == specRead {
				return true
			}
		}
	}
	return false
}

// WriteProtected says why writing path always asks, or "": it is (or, as
// it resolves now, leads to) a protected place (see protectedReason). File
// tools ask again just before they write, so a place that became protected
// after the check (a link swapped during a slow hook) is not written.
func (p *Policy) WriteProtected(path string) string {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.protectedReason(resolveForms(path, p.root0(), p.home))
}
