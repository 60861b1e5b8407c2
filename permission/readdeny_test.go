package permission

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// DeniedReads gives the sandbox each Read deny rule's paths with the same
// anchors Readable applies, so what it hides is what the rules deny.
func TestH16_DeniedReadsAreAnchoredLikeReadable(t *testing.T) {
	root := t.TempDir()
	p := NewPolicy([]string{root})
	p.home = "/home/someone"
	root = p.Roots()[0]
	if err := p.SetWorkDir(filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := p.AddRules(Deny, "test", "Read(./.env)", "Read(/secrets/**)", "Read(//etc/shadow)",
		"Read(~/.aws/**)", "Read(*.pem)", "Read", "Bash(cat:*)"); err != nil {
		t.Fatal(err)
	}
	if err := p.AddRules(Allow, "test", "Read(./public/**)"); err != nil {
		t.Fatal(err)
	}
	got := p.DeniedReads()
	want := map[string]string{
		"Read(./.env)":       filepath.Join(root, "sub", ".env"),
		"Read(/secrets/**)":  root + "/secrets/**",
		"Read(//etc/shadow)": "/etc/shadow",
		"Read(~/.aws/**)":    "/home/someone/.aws/**",
	}
	if len(got) != 5 {
		t.Fatalf("DeniedReads = %+v, want the five Read deny rules with paths", got)
	}
	for _, d := range got {
		if d.Rule == "Read(*.pem)" {
			if d.Name != "*.pem" || len(d.Patterns) != 0 {
				t.Errorf("a bare name: %+v", d)
			}
			continue
		}
		if !slices.Contains(d.Patterns, want[d.Rule]) || d.Source != "test" {
			t.Errorf("%s: %+v, want the pattern %s", d.Rule, d, want[d.Rule])
		}
		// Each pattern denies what Readable denies.
		probe := want[d.Rule]
		if base, ok := strings.CutSuffix(probe, "/**"); ok {
			probe = base + "/x"
		}
		if b, rule := p.Readable(probe); b != Deny || rule != d.Rule {
			t.Errorf("Readable(%s) = %s %s, want denied by %s", probe, b, rule, d.Rule)
		}
	}
}
