package permission

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkEvaluate50Rules measures one shell call against a realistic rule
// set; the whole tool pipeline has a 10 µs budget, so Evaluate must be a
// small part of it.
func BenchmarkEvaluate50Rules(b *testing.B) {
	r := fiftyRules()
	r.allow = append(r.allow, "Read(~/notes/*)")
	benchmarkShellCall(b, r)
}

// BenchmarkEvaluate50RulesReadDeny is BenchmarkEvaluate50Rules with a Read
// deny rule, so every file the command line names is checked against it
// (issue 16) on each call: those checks look at the file system now, so
// they are not cached.
func BenchmarkEvaluate50RulesReadDeny(b *testing.B) {
	r := fiftyRules()
	r.deny = append(r.deny, "Read(./.env)")
	benchmarkShellCall(b, r)
}

// fiftyRules is the realistic rule set both benchmarks start from: allow
// rules for commands and paths, deny rules for commands, ask rules for
// hosts.
func fiftyRules() rules {
	var r rules
	for i := 0; i < 15; i++ {
		r.allow = append(r.allow, fmt.Sprintf("Bash(tool%d sub:*)", i))
		r.allow = append(r.allow, fmt.Sprintf("Edit(./dir%d/**)", i))
	}
	for i := 0; i < 8; i++ {
		r.deny = append(r.deny, fmt.Sprintf("Bash(danger%d:*)", i))
		r.ask = append(r.ask, fmt.Sprintf("WebFetch(domain:*.site%d.test)", i))
	}
	r.allow = append(r.allow, "Bash(git status:*)", "Bash(go test:*)", "mcp__x__*")
	return r
}

// benchmarkShellCall times Evaluate of one allowed shell line under r.
func benchmarkShellCall(b *testing.B, r rules) {
	root := b.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		b.Fatal(err) // a project git status runs in
	}
	p := newPolicy(b, []string{root}, r)
	req := bash("git status -s && go test ./...")
	if d := p.Evaluate(req); d.Behavior != Allow {
		b.Fatalf("benchmark request not allowed: %+v", d)
	}
	b.ReportAllocs()
	for b.Loop() {
		p.Evaluate(req)
	}
}
