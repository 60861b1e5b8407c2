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

// commandCase is a shell line and the decision it must get: the behaviour,
// the deciding rule ("" for any) and words the message must hold.
type commandCase struct {
	cmd  string
	want Behavior
	rule string
	say  string
}

// checkCommands evaluates each case as a Bash call in dir.
func checkCommands(t *testing.T, p *Policy, dir string, cases []commandCase) {
	t.Helper()
	for _, c := range cases {
		req := bash(c.cmd)
		req.WorkDir = dir
		d := p.Evaluate(req)
		if d.Behavior != c.want || (c.rule != "" && d.Rule != c.rule) {
			t.Errorf("%s: %s by %q (%s), want %s by %q", c.cmd, d.Behavior, d.Rule, d.Message, c.want, c.rule)
			continue
		}
		if !strings.Contains(d.Message, c.say) {
			t.Errorf("%s: message %q should say %q", c.cmd, d.Message, c.say)
		}
	}
}
