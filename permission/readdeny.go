package permission

import "slices"

// DeniedRead is one Read deny rule's path pattern as Readable matches it,
// with its anchors already applied, so the sandbox can hide what the rule
// denies from every process the agent starts (issue 16): the file the Read
// tool may not open must not be there for `cat` either.
type DeniedRead struct {
	// Rule is the rule as written and Source where it came from, for the
	// notes that say what could not be hidden.
	Rule, Source string
	// Patterns are absolute doublestar patterns matched against whole
	// paths: the pattern as written and, when different, with its fixed
	// leading directories resolved through symbolic links.
	Patterns []string
	// Name, when set instead of Patterns, is a pattern without a slash
	// (`*.env`): it matches any path component below a workspace root,
	// and any component of a path outside every root.
	Name string
}

// DeniedReads lists the Read deny rules that name paths, in rule order. A
// bare Read rule is about the Read tool, not about paths, and is left out.
func (p *Policy) DeniedReads() []DeniedRead {
	p.mu.RLock()
	defer p.mu.RUnlock()
	var out []DeniedRead
	for i := range p.cdeny {
		r := &p.cdeny[i]
		if r.kind != specRead || !r.path.valid {
			continue
		}
		out = append(out, DeniedRead{
			Rule: r.Raw, Source: r.Source,
			Patterns: slices.Clone(r.path.patterns), Name: r.path.component,
		})
	}
	return out
}
