package permission

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestSessionRules(t *testing.T) {
	t.Parallel()
	project := resolvePath(t.TempDir())
	if err := os.MkdirAll(filepath.Join(project, "src", "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	outside := resolvePath(t.TempDir())
	tests := []struct {
		name string
		tool string
		t    Target
		want []string
	}{
		{"a plain command gets its first word", "Bash", Target{Commands: []string{"touch a"}}, []string{"Bash(touch:*)"}},
		{"git gets its subcommand", "Bash", Target{Commands: []string{"git status -s"}}, []string{"Bash(git status:*)"}},
		{"go gets its subcommand", "Bash", Target{Commands: []string{"go test ./..."}}, []string{"Bash(go test:*)"}},
		{"a full path tool gets its subcommand", "Bash", Target{Commands: []string{"/usr/bin/git log"}}, []string{"Bash(/usr/bin/git log:*)"}},
		{"a leading option gives an exact rule", "Bash", Target{Commands: []string{"git -C x push"}}, []string{"Bash(git -C x push)"}},
		{"each part gets a rule", "Bash", Target{Commands: []string{"make && git diff | less"}}, []string{"Bash(make:*)", "Bash(git diff:*)", "Bash(less:*)"}},
		{"repeated parts give one rule", "Bash", Target{Commands: []string{"ls a; ls b"}}, []string{"Bash(ls:*)"}},
		{"a glob in the first word gives no rule", "Bash", Target{Commands: []string{"*.sh"}}, nil},
		{"an unparsable command gives no rule", "Bash", Target{Commands: []string{`echo "x`}}, nil},
		{"another shell tool gets Bash rules", "shell_send", Target{Commands: []string{"npm run dev"}}, []string{"Bash(npm run:*)"}},
		{"a write inside gets a relative Edit rule", "Edit", Target{Paths: []string{"src/pkg/a.go"}, Access: AccessWrite}, []string{"Edit(./src/pkg/**)"}},
		{"a write at the root gets the whole project", "Write", Target{Paths: []string{"README.md"}, Access: AccessWrite}, []string{"Edit(./**)"}},
		{"a read inside gets a relative Read rule", "Read", Target{Paths: []string{"src/x.go"}, Access: AccessRead}, []string{"Read(./src/**)"}},
		{"a directory is its own rule", "Glob", Target{Paths: []string{"src"}, Access: AccessRead}, []string{"Read(./src/**)"}},
		{"a write outside gets an absolute rule", "Edit", Target{Paths: []string{filepath.Join(outside, "f")}, Access: AccessWrite}, []string{"Edit(/" + outside + "/**)"}},
		{"a host gets a domain rule", "WebFetch", Target{Host: "Docs.Example.com"}, []string{"WebFetch(domain:docs.example.com)"}},
		{"an empty target gets the tool name", "mcp__x__y", Target{}, []string{"mcp__x__y"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := SessionRules(tc.tool, tc.t, project)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("SessionRules = %q, want %q", got, tc.want)
			}
			for _, r := range got {
				if _, err := ParseRule(r); err != nil {
					t.Fatalf("suggested rule %q does not parse: %v", r, err)
				}
			}
		})
	}
}

func TestSessionRuleGrantAllowsTheSameCall(t *testing.T) {
	t.Parallel()
	project := resolvePath(t.TempDir())
	outside := resolvePath(t.TempDir())
	calls := []Request{
		{Tool: "Bash", Target: Target{Commands: []string{"make && git diff | less"}}},
		{Tool: "Edit", Target: Target{Paths: []string{"a/b/c.go"}, Access: AccessWrite}},
		{Tool: "Edit", Target: Target{Paths: []string{filepath.Join(outside, "x[1]", "f")}, Access: AccessWrite}},
		{Tool: "WebFetch", Target: Target{Host: "example.com"}},
		{Tool: "Frob"},
	}
	for _, req := range calls {
		p := newPolicy(t, []string{project}, rules{})
		d := p.Evaluate(req)
		if d.Behavior != Ask || d.Suggestion == "" {
			t.Fatalf("%s: got %s with suggestion %q, want an ask with one", req.Tool, d.Behavior, d.Suggestion)
		}
		if want := SessionRule(req.Tool, req.Target, project); d.Suggestion != want {
			t.Fatalf("%s: Suggestion %q differs from SessionRule %q", req.Tool, d.Suggestion, want)
		}
		if err := p.Grant(d.Suggestion); err != nil {
			t.Fatal(err)
		}
		if d := p.Evaluate(req); d.Behavior != Allow {
			t.Fatalf("%s: after granting %q got %s by %q (%s)", req.Tool, d.Suggestion, d.Behavior, d.Rule, d.Message)
		}
	}
}

// A grant offered for one file in the home directory or a top-level
// directory names that file: "Yes for this session" on `echo >> ~/.bashrc`
// must not open ~/.ssh or all of /etc for the rest of the session.
func TestSessionRuleForAFileInABroadDirectoryIsTheFile(t *testing.T) {
	home := resolvePath(t.TempDir())
	t.Setenv("HOME", home) // read by NewPolicy
	project := resolvePath(t.TempDir())
	if err := os.MkdirAll(filepath.Join(home, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := newPolicy(t, []string{project}, rules{})
	cases := []struct {
		path string
		want string
	}{
		{filepath.Join(home, ".bashrc"), "Edit(/" + filepath.Join(home, ".bashrc") + ")"},
		{"/etc/hosts", "Edit(//etc/hosts)"},
		{"/tmp/out.txt", "Edit(//tmp/**)"},
		{filepath.Join(home, "notes"), "Edit(/" + filepath.Join(home, "notes") + "/**)"},
		{filepath.Join(home, "notes", "a.md"), "Edit(/" + filepath.Join(home, "notes") + "/**)"},
	}
	write := func(path string) Decision {
		return p.Evaluate(Request{Tool: "Edit", Target: Target{Paths: []string{path}, Access: AccessWrite}, WorkDir: project})
	}
	for _, c := range cases {
		if d := write(c.path); d.Suggestion != c.want {
			t.Errorf("%s: suggestion %q, want %q", c.path, d.Suggestion, c.want)
		}
	}
	if err := p.Grant("Edit(/" + filepath.Join(home, ".bashrc") + ")"); err != nil {
		t.Fatal(err)
	}
	if write(filepath.Join(home, ".bashrc")).Behavior == Ask || write(filepath.Join(home, ".profile")).Behavior != Ask {
		t.Errorf("the file grant must allow that file and nothing else in the home directory")
	}
}
