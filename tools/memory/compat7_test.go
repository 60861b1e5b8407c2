package memory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func paths(files []InstructionFile) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

// TestCompat7_InstructionFilesFromRootToWorkDir checks which files are read
// and in what order: the person's, then each directory from the root down.
func TestCompat7_InstructionFilesFromRootToWorkDir(t *testing.T) {
	t.Parallel()
	home, root := t.TempDir(), t.TempDir()
	work := filepath.Join(root, "pkg", "sub")
	write(t, filepath.Join(home, ".claude", "CLAUDE.md"), "user rules")
	write(t, filepath.Join(root, "CLAUDE.md"), "root claude")
	write(t, filepath.Join(root, ".claude", "CLAUDE.md"), "root dot-claude")
	write(t, filepath.Join(root, "AGENTS.md"), "root agents")
	write(t, filepath.Join(root, "CLAUDE.local.md"), "root local")
	write(t, filepath.Join(root, "pkg", "AGENTS.md"), "pkg agents")
	write(t, filepath.Join(work, "CLAUDE.md"), "sub claude")
	write(t, filepath.Join(root, "other", "CLAUDE.md"), "not on the way")
	files, notes := LoadInstructions(InstructionDirs{Home: home, ProjectRoot: root, WorkDir: work})
	want := []string{
		filepath.Join(home, ".claude", "CLAUDE.md"),
		filepath.Join(root, "CLAUDE.md"), filepath.Join(root, ".claude", "CLAUDE.md"),
		filepath.Join(root, "AGENTS.md"), filepath.Join(root, "CLAUDE.local.md"),
		filepath.Join(root, "pkg", "AGENTS.md"), filepath.Join(work, "CLAUDE.md"),
	}
	if got := paths(files); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if files[0].Scope != "user" || files[1].Scope != "project" || len(notes) != 0 {
		t.Fatalf("scopes %s/%s, notes %q", files[0].Scope, files[1].Scope, notes)
	}
}

// TestCompat7_Imports checks @path imports: relative to the importing file,
// ~/, nested, outside code, each file once.
func TestCompat7_Imports(t *testing.T) {
	t.Parallel()
	home, root := t.TempDir(), t.TempDir()
	write(t, filepath.Join(root, "CLAUDE.md"), "See @docs/style.md and @README.md.\n`@not/this.md` and\n```\n@neither/this.md\n```\nmail a@b.md, @alice\n- @~/.claude/personal.md\n")
	write(t, filepath.Join(root, "docs", "style.md"), "style; also @./deeper/x.md")
	write(t, filepath.Join(root, "docs", "deeper", "x.md"), "deeper and again @../style.md")
	write(t, filepath.Join(root, "README.md"), "readme")
	write(t, filepath.Join(root, "not", "this.md"), "code span")
	write(t, filepath.Join(root, "neither", "this.md"), "code block")
	write(t, filepath.Join(root, "b.md"), "an address, not an import")
	write(t, filepath.Join(home, ".claude", "personal.md"), "personal")
	files, notes := LoadInstructions(InstructionDirs{Home: home, ProjectRoot: root, WorkDir: root})
	want := []string{
		filepath.Join(root, "CLAUDE.md"), filepath.Join(root, "docs", "style.md"),
		filepath.Join(root, "docs", "deeper", "x.md"), filepath.Join(root, "README.md"),
		filepath.Join(home, ".claude", "personal.md"),
	}
	if got := paths(files); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if files[1].ImportedBy != filepath.Join(root, "CLAUDE.md") {
		t.Fatalf("ImportedBy = %q", files[1].ImportedBy)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "cycle") || !strings.Contains(notes[0], "style.md") {
		t.Fatalf("notes = %q, want the style.md -> x.md -> style.md cycle", notes)
	}
}

// TestCompat7_ImportDepthIsFive checks the depth limit: a chain of six
// imports loads five and names the sixth.
func TestCompat7_ImportDepthIsFive(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, filepath.Join(root, "CLAUDE.md"), "@d1.md")
	for i := 1; i <= 6; i++ {
		write(t, filepath.Join(root, "d"+string(rune('0'+i))+".md"), "level @d"+string(rune('0'+i+1))+".md")
	}
	write(t, filepath.Join(root, "d7.md"), "too deep")
	files, notes := LoadInstructions(InstructionDirs{ProjectRoot: root, WorkDir: root})
	if len(files) != 6 || files[5].Path != filepath.Join(root, "d5.md") {
		t.Fatalf("files = %q, want CLAUDE.md and d1..d5", paths(files))
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "d6.md") || !strings.Contains(notes[0], "at most 5") {
		t.Fatalf("notes = %q", notes)
	}
}

// TestCompat7_ProjectImportsStayInTheProject checks that a cloned
// repository's CLAUDE.md cannot pull a key or a credentials file into the
// prompt, through ~/, an absolute path, ../ or a symlink.
func TestCompat7_ProjectImportsStayInTheProject(t *testing.T) {
	t.Parallel()
	home, root, outside := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(home, ".ssh", "id_rsa"), "PRIVATE KEY")
	write(t, filepath.Join(home, ".claude", ".credentials.json"), "TOKEN")
	write(t, filepath.Join(home, ".claude", "notes.txt"), "not markdown")
	write(t, filepath.Join(outside, "x.md"), "outside")
	if err := os.Symlink(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(root, "key.md")); err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(root, filepath.Join(outside, "x.md"))
	write(t, filepath.Join(root, "CLAUDE.local.md"), "@~/.ssh/id_rsa @~/.claude/.credentials.json @~/.claude/notes.txt @"+filepath.Join(outside, "x.md")+" @"+rel+" @key.md")
	// The person's own file may import what it likes.
	write(t, filepath.Join(home, ".claude", "CLAUDE.md"), "@"+filepath.Join(outside, "x.md"))
	files, notes := LoadInstructions(InstructionDirs{Home: home, ProjectRoot: root, WorkDir: root})
	for _, f := range files {
		if strings.Contains(f.Content, "PRIVATE KEY") || strings.Contains(f.Content, "TOKEN") || strings.Contains(f.Content, "not markdown") {
			t.Fatalf("%s was read into the prompt", f.Path)
		}
	}
	if got := paths(files); len(got) != 3 || got[1] != filepath.Join(outside, "x.md") {
		t.Fatalf("files = %q, want the user file, its import, and the project file", got)
	}
	if len(notes) != 6 {
		t.Fatalf("notes = %q, want six refusals", notes)
	}
	for _, n := range notes {
		if !strings.Contains(n, "refused") || !strings.Contains(n, "inside the project") {
			t.Errorf("note %q does not say why", n)
		}
	}
}
