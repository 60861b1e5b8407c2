package permission

import (
	"strings"
	"testing"
)

// rules is a test policy's rule set.
type rules struct {
	allow, ask, deny []string
}

// newPolicy builds a policy over roots with the given rules, failing the test
// on a bad rule.
func newPolicy(t testing.TB, roots []string, r rules) *Policy {
	t.Helper()
	p := NewPolicy(roots)
	for _, set := range []struct {
		b     Behavior
		rules []string
	}{{Allow, r.allow}, {Ask, r.ask}, {Deny, r.deny}} {
		if err := p.AddRules(set.b, "test", set.rules...); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func bash(cmd string) Request {
	return Request{Tool: "Bash", Target: Target{Commands: []string{cmd}}}
}

// check compares a decision with the behaviour and deciding rule a case wants.
func check(t *testing.T, d Decision, want Behavior, rule string) {
	t.Helper()
	if d.Behavior != want || d.Rule != rule {
		t.Fatalf("got %s by %q (%s), want %s by %q", d.Behavior, d.Rule, d.Message, want, rule)
	}
	if d.Message == "" {
		t.Fatalf("decision %s by %q has no message", d.Behavior, d.Rule)
	}
}

func mustContain(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Fatalf("%q does not mention %q", s, sub)
		}
	}
}
