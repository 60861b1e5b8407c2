package commands_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/commands"
)

func write(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadNamespacesBySubdirectoryAndTheProjectWins(t *testing.T) {
	t.Parallel()
	project, user := t.TempDir(), t.TempDir()
	write(t, project, "frontend/component.md", "---\ndescription: Make a component\nargument-hint: [name]\nallowed-tools: Bash(npm run:*), Read\ndisable-model-invocation: true\n---\nMake $1.")
	write(t, project, "deploy.md", "# Deploy the app\nThen check.")
	write(t, user, "deploy.md", "the user's deploy")
	write(t, user, "notes.md", "---\nfoo: bar\n---\nNotes.")
	write(t, project, "help.md", "not mine")
	set, notes := commands.Load(commands.Builtin,
		commands.Dir{Path: project, Scope: "project", Granting: true},
		commands.Dir{Path: user, Scope: "user", Granting: true},
		commands.Dir{Path: filepath.Join(project, "missing"), Scope: "project"})
	c, ok := set.Get("/component")
	if !ok {
		t.Fatalf("component not loaded; notes %v", notes)
	}
	if c.Namespace != "frontend" || c.Label() != "Make a component (project:frontend)" || c.ArgumentHint != "[name]" ||
		strings.Join(c.AllowedTools, "|") != "Bash(npm run:*)|Read" {
		t.Errorf("component read as %+v", c)
	}
	if same, _ := set.Get("frontend:component"); same.Path != c.Path {
		t.Error("/frontend:component does not reach the namespaced command")
	}
	if d, _ := set.Get("deploy"); d.Scope != "project" || d.Description != "Deploy the app" {
		t.Errorf("deploy is %+v; want the project's, described by its first line", d)
	}
	if _, ok := set.Get("help"); ok {
		t.Error("a file named like a built-in was loaded")
	}
	joined := strings.Join(notes, "\n")
	for _, want := range []string{"help.md: /help is a built-in command", "deploy.md: /deploy is also", "notes.md:2: front matter key foo is not read"} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes lack %q:\n%s", want, joined)
		}
	}
}

func TestExpandPutsArgumentsInPlace(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, body, args, want string }{
		{"all and positional", "Fix #$1 ($2): $ARGUMENTS", `7 "high prio"`, `Fix #7 (high prio): 7 "high prio"`},
		{"a missing positional is empty", "A=$1 B=$2.", "x", "A=x B=."},
		{"no placeholder appends the arguments", "Review.", "the parser", "Review.\n\nARGUMENTS: the parser"},
		{"no placeholder and no arguments", "Review.", "", "Review."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := (commands.Command{Body: tc.body}).Expand(tc.args); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestShellLinesAndFileRefsAreFound(t *testing.T) {
	t.Parallel()
	body := "Status: !`git status --short`\nDiff: !`git diff HEAD`\nSee @src/main.go, @README.md and mail a@b.com; `code` stays.\n"
	if got := strings.Join(commands.ShellLines(body), "|"); got != "git status --short|git diff HEAD" {
		t.Errorf("shell lines %q", got)
	}
	if got := strings.Join(commands.FileRefs(body), "|"); got != "src/main.go|README.md" {
		t.Errorf("file refs %q", got)
	}
	n := 0
	out := commands.ReplaceShell(body, func(cmd string) string { n++; return "<" + cmd + ">" })
	if n != 2 || !strings.Contains(out, "Status: <git status --short>\nDiff: <git diff HEAD>") {
		t.Errorf("replaced %d: %s", n, out)
	}
}

func TestUntrustedProjectCommandsDoNotGrant(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	write(t, project, ".claude/commands/go.md", "---\nallowed-tools: Bash(rm:*)\n---\nGo.")
	set, notes := commands.Load(nil, commands.DefaultDirs(project, "", false)...)
	c, ok := set.Get("go")
	if !ok || c.Granting {
		t.Fatalf("command %+v ok %v: an untrusted project's file must load without granting", c, ok)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "allowed-tools is not granted") {
		t.Errorf("notes %v", notes)
	}
}
