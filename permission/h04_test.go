package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// workspace makes a project directory with a src dir, a .git dir, a settings
// file and a symlink `escape` pointing to a directory outside, and returns
// the project and the outside directory, both symlink-resolved.
func workspace(t *testing.T) (project, outside string) {
	t.Helper()
	project = resolvePath(t.TempDir())
	outside = resolvePath(t.TempDir())
	for _, d := range []string{"src", ".git", ".workbench"} {
		if err := os.Mkdir(filepath.Join(project, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(project, "escape")); err != nil {
		t.Fatal(err)
	}
	return project, outside
}

func edit(mode Mode, paths ...string) Request {
	return Request{Tool: "Edit", Mode: mode, Target: Target{Paths: paths, Access: AccessWrite}}
}

func read(paths ...string) Request {
	return Request{Tool: "Read", ReadOnly: true, Target: Target{Paths: paths, Access: AccessRead}}
}

func TestH04_WorkspaceBoundary(t *testing.T) {
	t.Parallel()
	project, outside := workspace(t)
	extra := resolvePath(t.TempDir())
	tests := []struct {
		name  string
		rules rules
		req   Request
		want  Behavior
		rule  string
	}{
		{"a read inside the workspace is allowed",
			rules{}, read("src/main.go"), Allow, "read-only"},
		{"a ../ escape asks",
			rules{}, read("src/../../etc/passwd"), Ask, "workspace"},
		{"an absolute path outside asks",
			rules{}, read("/etc/passwd"), Ask, "workspace"},
		{"a symlink pointing outside asks",
			rules{}, read("escape/secret"), Ask, "workspace"},
		{"a new file under a symlinked directory asks",
			rules{}, edit(ModeAcceptEdits, "escape/new/file.txt"), Ask, "workspace"},
		{"a symlink followed by .. is resolved like the kernel does",
			rules{}, read("escape/../x"), Ask, "workspace"},
		{"acceptEdits allows an edit inside",
			rules{}, edit(ModeAcceptEdits, "src/a.go"), Allow, "mode:acceptEdits"},
		{"acceptEdits allows a new file inside",
			rules{}, edit(ModeAcceptEdits, "src/new/dir/a.go"), Allow, "mode:acceptEdits"},
		{"acceptEdits asks for an edit outside",
			rules{}, edit(ModeAcceptEdits, filepath.Join(outside, "x")), Ask, "workspace"},
		{"a bare allow rule does not open the outside",
			rules{allow: []string{"Edit", "*"}}, edit(ModeDefault, filepath.Join(outside, "x")), Ask, "workspace"},
		{"bypass mode does not open the outside",
			rules{}, edit(ModeBypass, filepath.Join(outside, "x")), Ask, "workspace"},
		{"an explicit absolute allow rule opens an outside path",
			rules{allow: []string{"Edit(/" + outside + "/**)"}}, edit(ModeDefault, filepath.Join(outside, "x")), Allow, "Edit(/" + outside + "/**)"},
		{"an explicit read rule does not open writes",
			rules{allow: []string{"Read(/" + outside + "/**)"}}, edit(ModeDefault, filepath.Join(outside, "x")), Ask, "workspace"},
		{"an explicit rule opens an outside path reached through a symlink",
			rules{allow: []string{"Read(/" + outside + "/**)"}}, read("escape/secret"), Allow, "Read(/" + outside + "/**)"},
		{"an additional root is inside the workspace",
			rules{}, read(filepath.Join(extra, "notes.md")), Allow, "read-only"},
		{"a .git/config write asks even in bypass mode",
			rules{allow: []string{"Edit", "Edit(./**)"}}, edit(ModeBypass, ".git/config"), Ask, "protected"},
		{"a .git hook write asks in acceptEdits mode",
			rules{}, edit(ModeAcceptEdits, ".git/hooks/pre-commit"), Ask, "protected"},
		{"a nested repository's .git asks",
			rules{}, edit(ModeAcceptEdits, "vendor/lib/.git/HEAD"), Ask, "protected"},
		{"reading .git is not protected",
			rules{}, read(".git/config"), Allow, "read-only"},
		{"a .gitignore write is not protected",
			rules{}, edit(ModeAcceptEdits, ".gitignore"), Allow, "mode:acceptEdits"},
		{"a protected settings file asks even in bypass mode",
			rules{allow: []string{"*"}}, edit(ModeBypass, ".workbench/settings.json"), Ask, "protected"},
		{"a deny rule with a path pattern denies",
			rules{deny: []string{"Read(*.env)"}}, read("src/.env"), Deny, "Read(*.env)"},
		{"a relative path rule allows under the project",
			rules{allow: []string{"Edit(./src/**)"}}, edit(ModeDefault, "src/a/b.go"), Allow, "Edit(./src/**)"},
		{"a relative path rule without ./ is relative to the project",
			rules{allow: []string{"Edit(src/**)"}}, edit(ModeDefault, "src/a.go"), Allow, "Edit(src/**)"},
		{"a relative path rule does not allow elsewhere",
			rules{allow: []string{"Edit(./src/**)"}}, edit(ModeDefault, "docs/a.md"), Ask, "mode:default"},
		{"an Edit rule does not allow reads' tools to write",
			rules{allow: []string{"Read(./**)"}}, edit(ModeDefault, "src/a.go"), Ask, "mode:default"},
		{"a Write rule allows writes",
			rules{allow: []string{"Write(./src/*)"}}, Request{Tool: "Write", Target: Target{Paths: []string{"src/a.go"}, Access: AccessWrite}}, Allow, "Write(./src/*)"},
		{"a deny rule on a symlink's real target denies",
			rules{deny: []string{"Read(/" + outside + "/secret)"}, allow: []string{"Read(/" + outside + "/**)"}}, read("escape/secret"), Deny, "Read(/" + outside + "/secret)"},
		{"a deny rule on the path as written denies",
			rules{deny: []string{"Read(./escape/**)"}, allow: []string{"Read(/" + outside + "/**)"}}, read("escape/secret"), Deny, "Read(./escape/**)"},
		{"a home rule opens a path under home",
			rules{allow: []string{"Read(~/wb-test-notes/*)"}}, read("~/wb-test-notes/a.md"), Allow, "Read(~/wb-test-notes/*)"},
		{"a home path without a rule asks",
			rules{}, read("~/wb-test-notes/a.md"), Ask, "workspace"},
		{"a path rule does not allow a shell command",
			rules{allow: []string{"Edit(./**)"}}, Request{Tool: "Bash", Target: Target{Commands: []string{"ls"}}}, Ask, "mode:default"},
		{"relative paths resolve against the work directory",
			rules{}, Request{Tool: "Read", ReadOnly: true, WorkDir: filepath.Join(project, "src"), Target: Target{Paths: []string{"../../x"}, Access: AccessRead}}, Ask, "workspace"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newPolicy(t, []string{project, extra}, tc.rules)
			p.AddProtected(".workbench/settings.json")
			check(t, p.Evaluate(tc.req), tc.want, tc.rule)
		})
	}
}

func TestH04_SymlinkEscapeAsks(t *testing.T) {
	t.Parallel()
	project, outside := workspace(t)
	p := newPolicy(t, []string{project}, rules{allow: []string{"Edit(./**)"}})
	d := p.Evaluate(edit(ModeAcceptEdits, "escape/secret"))
	check(t, d, Ask, "workspace")
	mustContain(t, d.Message, filepath.Join(outside, "secret"), "outside the workspace")
	if want := "Edit(/" + outside + "/**)"; d.Suggestion != want {
		t.Fatalf("Suggestion = %q, want %q", d.Suggestion, want)
	}
}

func TestH04_DanglingSymlinkIsFollowed(t *testing.T) {
	t.Parallel()
	project, outside := workspace(t)
	if err := os.Symlink(filepath.Join(outside, "not-yet"), filepath.Join(project, "dangling")); err != nil {
		t.Fatal(err)
	}
	p := newPolicy(t, []string{project}, rules{})
	check(t, p.Evaluate(edit(ModeAcceptEdits, "dangling")), Ask, "workspace")
}

func TestH04_SymlinkedRootIsResolved(t *testing.T) {
	t.Parallel()
	project, _ := workspace(t)
	link := filepath.Join(resolvePath(t.TempDir()), "proj")
	if err := os.Symlink(project, link); err != nil {
		t.Fatal(err)
	}
	p := newPolicy(t, []string{link}, rules{})
	if got := p.Roots(); len(got) != 1 || got[0] != project {
		t.Fatalf("Roots() = %q, want [%q]", got, project)
	}
	check(t, p.Evaluate(edit(ModeAcceptEdits, filepath.Join(link, "src", "a.go"))), Allow, "mode:acceptEdits")
}
