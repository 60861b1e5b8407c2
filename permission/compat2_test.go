package permission

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompat2_PathRuleForms checks the four path forms Claude Code documents,
// for a session started in a subdirectory (project/sub) so that "project
// root" and "working directory" differ.
func TestCompat2_PathRuleForms(t *testing.T) {
	t.Parallel()
	project, outside := workspace(t)
	sub := filepath.Join(project, "sub")
	for _, d := range []string{"sub/lib", "lib", "src/deep"} {
		if err := os.MkdirAll(filepath.Join(project, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	home := resolvePath(absOrSelf(homeDir()))
	tests := []struct {
		name  string
		rules rules
		req   Request
		want  Behavior
		rule  string
	}{
		{"/path is relative to the project root, not the working directory",
			rules{allow: []string{"Edit(/src/**)"}}, edit(ModeDefault, filepath.Join(project, "src/deep/a.go")), Allow, "Edit(/src/**)"},
		{"/path is not the file system's /src",
			rules{allow: []string{"Edit(/src/**)"}}, edit(ModeDefault, filepath.Join(sub, "src/a.go")), Ask, "mode:default"},
		{"a /path deny guards the project file whatever directory the call names it from",
			rules{deny: []string{"Read(/src/**)"}}, Request{Tool: "Read", ReadOnly: true, WorkDir: sub, Target: Target{Paths: []string{"../src/x"}, Access: AccessRead}}, Deny, "Read(/src/**)"},
		{"//path is absolute",
			rules{allow: []string{"Read(/" + outside + "/**)"}}, read(filepath.Join(outside, "secret")), Allow, "Read(/" + outside + "/**)"},
		{"//path is absolute for deny rules too, through a symlink",
			rules{deny: []string{"Read(/" + outside + "/secret)"}, allow: []string{"Read(/" + outside + "/**)"}}, read(filepath.Join(project, "escape/secret")), Deny, "Read(/" + outside + "/secret)"},
		{"a /path that names an outside directory is inside the project",
			rules{allow: []string{"Read(" + outside + "/**)"}}, read(filepath.Join(outside, "secret")), Ask, "workspace"},
		{"./path is relative to the working directory",
			rules{allow: []string{"Edit(./lib/**)"}}, edit(ModeDefault, filepath.Join(sub, "lib/x.go")), Allow, "Edit(./lib/**)"},
		{"./path does not reach the project root's lib",
			rules{allow: []string{"Edit(./lib/**)"}}, edit(ModeDefault, filepath.Join(project, "lib/x.go")), Ask, "mode:default"},
		{"dir/path is relative to the working directory",
			rules{allow: []string{"Edit(lib/**)"}}, edit(ModeDefault, filepath.Join(sub, "lib/x.go")), Allow, "Edit(lib/**)"},
		{"dir/path does not reach the project root's lib",
			rules{allow: []string{"Edit(lib/**)"}}, edit(ModeDefault, filepath.Join(project, "lib/x.go")), Ask, "mode:default"},
		{"a bare name matches at any depth",
			rules{deny: []string{"Read(*.env)"}}, read(filepath.Join(project, "src/deep/.env")), Deny, "Read(*.env)"},
		{"~/path is in the home directory",
			rules{allow: []string{"Read(~/wb-compat-notes/*)"}}, read(filepath.Join(home, "wb-compat-notes/a.md")), Allow, "Read(~/wb-compat-notes/*)"},
		{"relative request paths resolve against the working directory",
			rules{allow: []string{"Edit(./lib/**)"}}, edit(ModeDefault, "lib/y.go"), Allow, "Edit(./lib/**)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newPolicy(t, []string{project}, rules{})
			if err := p.SetWorkDir(sub); err != nil {
				t.Fatal(err)
			}
			for _, set := range []struct {
				b     Behavior
				rules []string
			}{{Allow, tc.rules.allow}, {Ask, tc.rules.ask}, {Deny, tc.rules.deny}} {
				if err := p.AddRules(set.b, "test", set.rules...); err != nil {
					t.Fatal(err)
				}
			}
			check(t, p.Evaluate(tc.req), tc.want, tc.rule)
		})
	}
}

// TestCompat2_SetWorkDirRecompilesEarlierRules makes sure rules added before
// the working directory was known are read against it, not the project.
func TestCompat2_SetWorkDirRecompilesEarlierRules(t *testing.T) {
	t.Parallel()
	project, _ := workspace(t)
	sub := filepath.Join(project, "sub")
	p := newPolicy(t, []string{project}, rules{deny: []string{"Edit(./lib/**)"}})
	if err := p.SetWorkDir(sub); err != nil {
		t.Fatal(err)
	}
	check(t, p.Evaluate(edit(ModeDefault, filepath.Join(sub, "lib/a"))), Deny, "Edit(./lib/**)")
	check(t, p.Evaluate(edit(ModeAcceptEdits, filepath.Join(project, "lib/a"))), Allow, "mode:acceptEdits")
	if p.WorkDir() != sub {
		t.Fatalf("WorkDir = %q, want %q", p.WorkDir(), sub)
	}
}

// TestCompat2_SuggestionsUseTheForms checks that a session grant is written
// in the form that means the same place: ./ in the working directory, / in
// the rest of the project, // outside.
func TestCompat2_SuggestionsUseTheForms(t *testing.T) {
	t.Parallel()
	project, outside := workspace(t)
	sub := filepath.Join(project, "sub")
	p := NewPolicy([]string{project})
	if err := p.SetWorkDir(sub); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{filepath.Join(sub, "a/x.go"), "Edit(./a/**)"},
		{filepath.Join(project, "docs/x.md"), "Edit(/docs/**)"},
		{filepath.Join(outside, "x"), "Edit(/" + outside + "/**)"},
	} {
		got := p.suggestUncovered(&evaluation{req: Request{Tool: "Edit", Target: Target{Access: AccessWrite}},
			paths: []pathForms{resolveForms(tc.path, sub, "")}})
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: suggestion %q, want %q", tc.path, got, tc.want)
			continue
		}
		q := NewPolicy([]string{project})
		_ = q.SetWorkDir(sub)
		if err := q.Grant(tc.want); err != nil {
			t.Fatal(err)
		}
		check(t, q.Evaluate(edit(ModeDefault, tc.path)), Allow, tc.want)
	}
}

// TestCompat2_MCPServerRules checks `mcp__server` and `mcp__server__*`, as
// Claude Code documents them, and names that only look alike.
func TestCompat2_MCPServerRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rule, tool string
		covers     bool
	}{
		{"mcp__github", "mcp__github__create_issue", true},
		{"mcp__github__*", "mcp__github__create_issue", true},
		{"mcp__github__create_issue", "mcp__github__create_issue", true},
		{"mcp__github", "mcp__github", true},
		{"mcp__github", "mcp__githubx__create_issue", false},
		{"mcp__git", "mcp__github__create_issue", false},
		{"mcp__github", "mcp__github__", false},
		{"mcp__github", "github__create_issue", false},
		{"mcp__github__create", "mcp__github__create_issue", false},
		{"mcp__", "mcp__github__x", false},
	}
	for _, tc := range tests {
		for _, b := range []Behavior{Allow, Deny} {
			p := NewPolicy([]string{t.TempDir()})
			if err := p.AddRules(b, "test", tc.rule); err != nil {
				t.Fatal(err)
			}
			d := p.Evaluate(Request{Tool: tc.tool})
			got := d.Rule == tc.rule
			if got != tc.covers {
				t.Errorf("%s %s on %s: decided by %q (%s), want covered=%v", b, tc.rule, tc.tool, d.Rule, d.Behavior, tc.covers)
			}
		}
	}
}

// TestCompat2_AnchorNotesNameOldAbsoluteRules checks the notice for a rule
// written when /path was absolute.
func TestCompat2_AnchorNotesNameOldAbsoluteRules(t *testing.T) {
	t.Parallel()
	project, _ := workspace(t)
	p := newPolicy(t, []string{project}, rules{deny: []string{"Read(/etc/**)", "Read(/src/**)", "Read(//etc/**)", "Bash(/etc/x)"}})
	notes := p.AnchorNotes()
	if len(notes) != 1 {
		t.Fatalf("notes = %q, want one for Read(/etc/**)", notes)
	}
	mustContain(t, notes[0], "test: rule Read(/etc/**)", project+"/etc/**", "Read(//etc/**)")
	if strings.Contains(notes[0], "Read(/src") {
		t.Fatal("a rule naming a project directory is not a mistake")
	}
}

// TestCompat7_ScopedGrantsComeAndGo checks a skill's allowed-tools grant:
// it allows while it lasts, never past a deny rule or the workspace, and
// revoking it removes only its own rules.
func TestCompat7_ScopedGrantsComeAndGo(t *testing.T) {
	t.Parallel()
	project, outside := workspace(t)
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(git status:*)"}, deny: []string{"Bash(git push:*)"}})
	revoke, err := p.GrantScoped("skill commit", "Bash(git status:*)", "Bash(git add:*)", "Bash(git push:*)", "Edit")
	if err != nil {
		t.Fatal(err)
	}
	check(t, p.Evaluate(bash("git add -A")), Allow, "Bash(git add:*)")
	check(t, p.Evaluate(bash("git push")), Deny, "Bash(git push:*)")
	check(t, p.Evaluate(edit(ModeDefault, filepath.Join(outside, "x"))), Ask, "workspace")
	revoke()
	check(t, p.Evaluate(bash("git add -A")), Ask, "mode:default")
	check(t, p.Evaluate(bash("git status")), Allow, "Bash(git status:*)")
	if n := len(p.Rules(Allow)); n != 1 {
		t.Fatalf("%d allow rules after revoking, want the configured one", n)
	}
	if _, err := p.GrantScoped("skill bad", "Read", "Bash("); err == nil || !strings.Contains(err.Error(), "skill bad") {
		t.Fatalf("a bad rule must fail naming its source: %v", err)
	}
	if n := len(p.Rules(Allow)); n != 1 {
		t.Fatal("a failed grant added rules")
	}
}
