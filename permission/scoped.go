package permission

import (
	"errors"
	"slices"
)

// GrantScoped adds allow rules for a while, under source ("skill deploy"),
// and returns the func that takes them away again: a skill's allowed-tools
// hold while the skill runs, not for the session. Like Grant it adds only
// allow rules, which come after hard deny, deny and ask rules, the
// workspace boundary and protected files, so a scoped grant can never
// reach past those. On a parse error nothing is added.
func (p *Policy) GrantScoped(source string, rules ...string) (revoke func(), err error) {
	var compiled []compiledRule
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range rules {
		r, err := ParseRule(s)
		if err != nil {
			var re *RuleError
			if errors.As(err, &re) {
				re.Source = source
			}
			return func() {}, err
		}
		r.Source = source
		c, err := compileRule(r, p.anchors())
		if err != nil {
			return func() {}, &RuleError{Raw: r.Raw, Source: source, Reason: err.Error()}
		}
		compiled = append(compiled, c)
	}
	// Each grant is told apart from an equal rule granted elsewhere by a
	// token carried in its compiled form only.
	token := new(byte)
	for i := range compiled {
		compiled[i].scope = token
		p.allow = append(p.allow, compiled[i].Rule)
		p.callow = append(p.callow, compiled[i])
	}
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		for i := len(p.callow) - 1; i >= 0; i-- {
			if p.callow[i].scope == token {
				p.callow = slices.Delete(p.callow, i, i+1)
				p.allow = slices.Delete(p.allow, i, i+1)
			}
		}
	}, nil
}
