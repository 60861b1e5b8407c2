package memory

import (
	"path/filepath"
	"strings"
	"testing"
)

// Rules without paths are read with CLAUDE.md: the person's after
// ~/.claude/CLAUDE.md, the project's after the root's files, subfolders
// included; path-scoped ones are not in the system prompt.
func TestRulesWithoutPathsLoadWithClaudeMD(t *testing.T) {
	t.Parallel()
	home, root := t.TempDir(), t.TempDir()
	write(t, filepath.Join(home, ".claude", "CLAUDE.md"), "user claude")
	write(t, filepath.Join(home, ".claude", "rules", "mine.md"), "my rule")
	write(t, filepath.Join(root, "CLAUDE.md"), "root claude")
	write(t, filepath.Join(root, ".claude", "rules", "style.md"), "Use tabs.")
	write(t, filepath.Join(root, ".claude", "rules", "frontend", "react.md"), "---\ndescription: x\n---\nHooks only.")
	write(t, filepath.Join(root, ".claude", "rules", "api.md"), "---\npaths:\n  - \"src/api/**/*.ts\"\n---\nValidate input.")
	write(t, filepath.Join(root, ".claude", "rules", "bad.md"), "---\npaths: [\n---\nx")
	files, notes := LoadInstructions(InstructionDirs{Home: home, ProjectRoot: root, WorkDir: root})
	want := []string{
		filepath.Join(home, ".claude", "CLAUDE.md"), filepath.Join(home, ".claude", "rules", "mine.md"),
		filepath.Join(root, "CLAUDE.md"),
		filepath.Join(root, ".claude", "rules", "frontend", "react.md"), filepath.Join(root, ".claude", "rules", "style.md"),
	}
	if got := paths(files); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if files[3].Content != "Hooks only." {
		t.Errorf("a rule's front matter is not instructions: %q", files[3].Content)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "bad.md") {
		t.Errorf("notes %q, want one naming bad.md", notes)
	}
}

// A path-scoped rule is given once, when a touched path matches one of its
// globs; `paths: **/*.go` (not YAML) is read as Claude Code reads it.
func TestPathRulesAreGivenOnceForAMatchingFile(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, filepath.Join(root, ".claude", "rules", "api.md"), "---\npaths:\n  - \"src/api/**/*.ts\"\n  - lib/*.ts\n---\nValidate input.")
	write(t, filepath.Join(root, ".claude", "rules", "go.md"), "---\npaths: **/*.go\n---\nRun gofmt.")
	rules, notes := LoadRules("", root)
	if len(notes) != 0 {
		t.Fatalf("notes %q", notes)
	}
	pr := NewPathRules(root, rules)
	if got := pr.Touch(root, []string{"README.md", "/elsewhere/src/api/x.ts"}); len(got) != 0 {
		t.Errorf("no rule names these files, got %q", got)
	}
	got := pr.Touch(filepath.Join(root, "src"), []string{"api/v1/users.ts"})
	if len(got) != 1 || !strings.Contains(got[0], "Validate input.") || !strings.Contains(got[0], "src/api/v1/users.ts") {
		t.Fatalf("touching src/api/v1/users.ts gave %q", got)
	}
	if again := pr.Touch(root, []string{"lib/a.ts"}); len(again) != 0 {
		t.Errorf("a rule was given twice: %q", again)
	}
	if g := pr.Touch(root, []string{filepath.Join(root, "cmd", "main.go")}); len(g) != 1 || !strings.Contains(g[0], "Run gofmt.") {
		t.Errorf("the unquoted **/*.go rule: %q", g)
	}
}
