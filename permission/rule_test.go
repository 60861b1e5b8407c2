package permission

import (
	"errors"
	"strings"
	"testing"
)

func TestParseRule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    Rule
		wantErr string // substring of the error; "" means success
	}{
		{"a star matches every tool", "*", Rule{Tool: "*", Raw: "*"}, ""},
		{"a bare name has no specifier", "Read", Rule{Tool: "Read", Raw: "Read"}, ""},
		{"surrounding space is trimmed", "  Edit \n", Rule{Tool: "Edit", Raw: "Edit"}, ""},
		{"a prefix specifier is kept whole", "Bash(git diff:*)", Rule{Tool: "Bash", Specifier: "git diff:*", Raw: "Bash(git diff:*)"}, ""},
		{"an mcp glob is a name", "mcp__github__*", Rule{Tool: "mcp__github__*", Raw: "mcp__github__*"}, ""},
		{"a domain specifier parses", "WebFetch(domain:example.com)", Rule{Tool: "WebFetch", Specifier: "domain:example.com", Raw: "WebFetch(domain:example.com)"}, ""},
		{"nested parentheses stay in the specifier", "Bash(echo (a))", Rule{Tool: "Bash", Specifier: "echo (a)", Raw: "Bash(echo (a))"}, ""},
		{"an empty rule is an error", "   ", Rule{}, "empty rule"},
		{"an empty name is an error", "(ls)", Rule{}, "empty tool name"},
		{"an empty specifier is an error", "Bash()", Rule{}, "empty specifier"},
		{"a blank specifier is an error", "Bash(  )", Rule{}, "empty specifier"},
		{"a missing close parenthesis is an error", "Bash(git status", Rule{}, "missing ')'"},
		{"a stray close parenthesis is an error", "Bash)", Rule{}, "')' without '('"},
		{"text after the close parenthesis is an error", "Bash(ls) -la", Rule{}, `unexpected text " -la"`},
		{"a second group is an error", "Bash(a)(b)", Rule{}, "unexpected text"},
		{"a name with spaces is an error", "Bash git", Rule{}, "white space"},
		{"a WebFetch rule needs domain:", "WebFetch(example.com)", Rule{}, "domain:<host>"},
		{"a WebFetch rule needs a host", "WebFetch(domain:)", Rule{}, "domain:<host>"},
		{"a broken path glob is an error", "Read(src/[a)", Rule{}, "invalid path pattern"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseRule(tc.in)
			if tc.wantErr != "" {
				var re *RuleError
				if !errors.As(err, &re) {
					t.Fatalf("ParseRule(%q) error = %v, want a *RuleError", tc.in, err)
				}
				if !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseRule(%q) error = %q, want it to mention %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseRule(%q) = %v", tc.in, err)
			}
			if got != tc.want {
				t.Fatalf("ParseRule(%q) = %+v, want %+v", tc.in, got, tc.want)
			}
		})
	}
}

func TestAddRulesNamesRuleAndSource(t *testing.T) {
	t.Parallel()
	p := NewPolicy([]string{t.TempDir()})
	err := p.AddRules(Deny, "settings.json", "Bash(rm:*)", "Bash(oops")
	if err == nil {
		t.Fatal("AddRules accepted an unbalanced rule")
	}
	var re *RuleError
	if !errors.As(err, &re) || re.Source != "settings.json" || re.Raw != "Bash(oops" {
		t.Fatalf("error = %v, want a RuleError naming Bash(oops and settings.json", err)
	}
	if !strings.Contains(err.Error(), "settings.json") || !strings.Contains(err.Error(), "Bash(oops") {
		t.Fatalf("message %q does not name the rule and source", err)
	}
	if got := p.Rules(Deny); len(got) != 1 || got[0].Raw != "Bash(rm:*)" || got[0].Source != "settings.json" {
		t.Fatalf("valid rules were not kept: %+v", got)
	}
}

func TestAddRulesRejectsUnknownBehavior(t *testing.T) {
	t.Parallel()
	p := NewPolicy([]string{t.TempDir()})
	if err := p.AddRules(Behavior("maybe"), "x", "Read"); err == nil {
		t.Fatal("AddRules accepted an unknown behaviour")
	}
}

func TestGrantAcceptsASuggestionList(t *testing.T) {
	t.Parallel()
	p := NewPolicy([]string{t.TempDir()})
	if err := p.Grant("Bash(git status:*), Bash(touch:*)"); err != nil {
		t.Fatal(err)
	}
	got := p.Rules(Allow)
	if len(got) != 2 || got[0].Raw != "Bash(git status:*)" || got[1].Raw != "Bash(touch:*)" || got[1].Source != SessionSource {
		t.Fatalf("Rules(Allow) = %+v", got)
	}
	if err := p.Grant("Bash(ok:*), Bash(bad"); err == nil {
		t.Fatal("Grant accepted a broken rule")
	}
	if n := len(p.Rules(Allow)); n != 2 {
		t.Fatalf("a failed grant added rules: %d", n)
	}
}

func FuzzParseRule(f *testing.F) {
	for _, s := range []string{"*", "Bash(git diff:*)", "Read(./src/**)", "WebFetch(domain:*.x.org)",
		"mcp__a__*", "Bash(", ")", "Bash(a)(b)", " Edit ( x ) ", "Read(src/[a)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRule(s)
		if err != nil {
			return
		}
		again, err := ParseRule(r.Raw)
		if err != nil {
			t.Fatalf("ParseRule(%q) ok but its Raw %q fails: %v", s, r.Raw, err)
		}
		if again != r {
			t.Fatalf("round trip changed the rule: %+v then %+v", r, again)
		}
		if r.Tool == "" {
			t.Fatalf("ParseRule(%q) returned an empty tool", s)
		}
	})
}

func TestAddRulesRefusesACompoundBashRule(t *testing.T) {
	t.Parallel()
	p := NewPolicy([]string{t.TempDir()})
	for _, r := range []string{"Bash(cd x && rm:*)", "Bash(a; b)", "Bash(curl x | sh)"} {
		if err := p.AddRules(Deny, "test", r); err == nil || !strings.Contains(err.Error(), "one simple command") {
			t.Errorf("AddRules(%q) error = %v, want one saying rules match one command", r, err)
		}
	}
	if err := p.AddRules(Deny, "test", "Bash(npm run *)", "Bash(echo $(date))", "Bash(git diff:*)"); err != nil {
		t.Fatalf("simple command rules refused: %v", err)
	}
}
