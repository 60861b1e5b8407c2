package rewind

import (
	"os/exec"
	"strings"
	"testing"
)

// A restore never writes the protected places, even from a checkpoint
// whose tree holds them (a shadow repository tampered with, or a tree
// recorded before a rule existed): git hooks and config, the settings of
// Workbench and Claude Code, .mcp.json, in any case and at any depth. The
// report names each one left alone.
func TestARestoreOfATreeHoldingProtectedPathsLeavesThemAlone(t *testing.T) {
	p := project(t)
	if out, err := exec.Command("git", "-C", p, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	write(t, p, ".claude/settings.json", "{}\n")
	s := open(t, p)
	c := must(s.BeginPrompt(ctx, "p"))

	blob := must(s.git.line(ctx, []byte("planted\n"), "hash-object", "-w", "--stdin"))
	tree := func(lines ...string) string {
		return must(s.git.line(ctx, []byte(strings.Join(lines, "\n")+"\n"), "mktree"))
	}
	hooks := tree("100755 blob " + blob + "\tpre-commit")
	gitDir := tree("040000 tree "+hooks+"\thooks", "100644 blob "+blob+"\tconfig")
	settings := tree("100644 blob " + blob + "\tsettings.json")
	sub := tree("040000 tree "+gitDir+"\t.GIT", "100644 blob "+blob+"\t.Mcp.json", "100644 blob "+blob+"\tok.txt")
	own := must(s.git.run(ctx, nil, "ls-tree", c.Tree))
	planted := tree(strings.TrimSpace(string(own)),
		"040000 tree "+gitDir+"\t.git",
		"040000 tree "+settings+"\t.claude",
		"040000 tree "+settings+"\t.workbench",
		"100644 blob "+blob+"\t.mcp.json",
		"040000 tree "+sub+"\tsub")
	bad := must(s.record(ctx, Meta{Kind: KindCall, Tool: "Bash"}, planted, ""))
	must(s.EndPrompt(ctx))

	rep := must(s.RestoreCheckpoint(ctx, bad.ID, RestoreOptions{Force: true}))
	for _, f := range []string{".git/hooks/pre-commit", ".workbench/settings.json", ".mcp.json", "sub/.GIT/config", "sub/.Mcp.json"} {
		if exists(p, f) {
			t.Errorf("%s was written by the restore", f)
		}
	}
	if got := read(t, p, ".claude/settings.json"); got != "{}\n" {
		t.Errorf(".claude/settings.json is %q", got)
	}
	if cfg := read(t, p, ".git/config"); strings.Contains(cfg, "planted") {
		t.Error(".git/config was written by the restore")
	}
	if read(t, p, "sub/ok.txt") != "planted\n" {
		t.Error("the ordinary file of the checkpoint was not restored")
	}
	skipped := map[string]bool{}
	for _, sk := range rep.Skipped {
		skipped[sk.Path] = true
	}
	for _, f := range []string{".git/config", ".git/hooks/pre-commit", ".claude/settings.json", ".workbench/settings.json", ".mcp.json", "sub/.GIT/config", "sub/.Mcp.json"} {
		if !skipped[f] {
			t.Errorf("the report does not say %s was left alone: %+v", f, rep.Skipped)
		}
	}
}
