package approval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/tools/askuser"
)

// sourceFile is the file on disk the file-tool screens diff against.
const sourceFile = `package x

import "fmt"

// Greet says hello.
func Greet(name string) {
	fmt.Println("hello", name)
}

func Count() int {
	return 1
}
`

// screens are the requests whose dialogs have golden screens; each builds
// its request in a fresh project directory.
func screens(t *testing.T) []struct {
	name          string
	req           agent.ApprovalRequest
	opts          Options
	width, height int
	keys          []string
} {
	dir := project(t, map[string]string{"src/x.go": sourceFile})
	covered := func(p string) bool { return p == "git status" }
	editInput := input(t, map[string]any{"file_path": "src/x.go",
		"old_string": `	fmt.Println("hello", name)`, "new_string": "\tfmt.Printf(\"hello, %s!\\n\", name)\n\tlog.Print(\"greeted\")"})
	return []struct {
		name          string
		req           agent.ApprovalRequest
		opts          Options
		width, height int
		keys          []string
	}{
		{name: "bash compound with one part covered", req: bash("git status && rm -rf build"),
			opts: Options{WorkDir: dir, Covered: covered}, width: 80, height: 24},
		{name: "bash ask rule", req: func() agent.ApprovalRequest {
			r := bash("git push --force origin main")
			r.Decision = permission.Decision{Behavior: permission.Ask, Rule: "Bash(git push:*)",
				Message: "rule Bash(git push:*) (from .workbench/settings.json) asks before Bash `git push --force origin main` runs"}
			return r
		}(), opts: Options{WorkDir: dir}, width: 80, height: 24},
		{name: "edit diff", req: agent.ApprovalRequest{Tool: "Edit", Input: editInput,
			Decision: permission.Decision{Rule: "tool", Message: "edit src/x.go: replace 1 occurrence"}},
			opts: Options{WorkDir: dir}, width: 80, height: 24},
		{name: "edit split view when wide", req: agent.ApprovalRequest{Tool: "Edit", Input: editInput,
			Decision: permission.Decision{Rule: "tool", Message: "edit src/x.go: replace 1 occurrence"}},
			opts: Options{WorkDir: dir}, width: 140, height: 30},
		{name: "multiedit applies edits in order", req: agent.ApprovalRequest{Tool: "MultiEdit",
			Input: input(t, map[string]any{"file_path": "src/x.go", "edits": []map[string]any{
				{"old_string": "return 1", "new_string": "return 2"},
				{"old_string": "return 2", "new_string": "return n"},
				{"old_string": "Count() int", "new_string": "Count(n int) int"},
			}})}, opts: Options{WorkDir: dir}, width: 80, height: 24},
		{name: "edit that does not apply", req: agent.ApprovalRequest{Tool: "Edit",
			Input: input(t, map[string]any{"file_path": "src/x.go", "old_string": "return 9", "new_string": "return 10"})},
			opts: Options{WorkDir: dir}, width: 80, height: 24},
		{name: "write to a new file", req: agent.ApprovalRequest{Tool: "Write",
			Input: input(t, map[string]any{"file_path": "docs/NOTES.md", "content": "# Notes\n\n- first\n- second\n"})},
			opts: Options{WorkDir: dir}, width: 80, height: 24},
		{name: "write outside the workspace", req: agent.ApprovalRequest{Tool: "Write",
			Input: input(t, map[string]any{"file_path": "/etc/motd", "content": "hi\n"}),
			Decision: permission.Decision{Rule: "workspace", Message: "/etc/motd is outside the workspace",
				Suggestion: "Edit(/etc/**)"}},
			opts: Options{WorkDir: dir, ReadFile: func(string) ([]byte, error) { return []byte("Welcome\n"), nil }}, width: 80, height: 24},
		{name: "webfetch", req: agent.ApprovalRequest{Tool: "WebFetch",
			Input:  input(t, map[string]any{"url": "https://docs.example.com/guide/install?lang=go", "prompt": "List the install steps"}),
			Target: permission.Target{Host: "docs.example.com"}},
			opts: Options{WorkDir: dir}, width: 80, height: 24},
		{name: "plan", req: agent.ApprovalRequest{Tool: "ExitPlanMode", Decision: permission.Decision{Rule: "plan",
			Message: "# Add --verbose\n\n1. Parse the flag in `main.go`\n2. Log each step\n\n```go\nif verbose {\n\tlog.Print(step)\n}\n```\n"}},
			opts: Options{WorkDir: dir}, width: 80, height: 24},
		{name: "other tool as json", req: agent.ApprovalRequest{Tool: "mcp__github__create_issue",
			Input: input(t, map[string]any{"repo": "acme/app", "title": "Crash on start", "labels": []string{"bug"}})},
			opts: Options{WorkDir: dir}, width: 80, height: 24},
		{name: "feedback line open", req: bash("rm -rf build"), opts: Options{WorkDir: dir},
			width: 80, height: 24, keys: []string{"n", "u", "s", "e", " ", "m", "a", "k", "e"}},
		{name: "editing the command", req: bash("rm -rf build"), opts: Options{WorkDir: dir},
			width: 80, height: 24, keys: []string{"e"}},
		{name: "narrow terminal", req: agent.ApprovalRequest{Tool: "Edit", Input: editInput},
			opts: Options{WorkDir: dir}, width: 50, height: 16},
	}
}

func TestApprovalScreens(t *testing.T) {
	t.Parallel()
	for _, s := range screens(t) {
		t.Run(s.name, func(t *testing.T) {
			d := ready(t, s.req, s.opts)
			for _, k := range s.keys {
				if len(k) == 1 && d.mode == feedback {
					typeText(d, k)
				} else {
					keys(d, k)
				}
			}
			requireGolden(t, d.View(s.width, s.height), s.width, s.height)
		})
	}
}

func TestEveryLineFitsTheScreen(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("very-long-argument ", 12)
	extra := []agent.ApprovalRequest{
		bash("echo " + long + "&& printf '%s' " + long + "| tee out.txt"),
		{Tool: "Write", Input: input(t, map[string]any{"file_path": "src/wide.txt",
			"content": strings.Repeat("wide\tline 世界 "+long+"\n", 40)})},
		{Tool: "mcp__x__y", Input: input(t, map[string]any{"text": long + long})},
	}
	sizes := [][2]int{{20, 8}, {40, 12}, {60, 20}, {80, 24}, {100, 30}, {139, 40}, {140, 40}, {200, 60}, {260, 60}}
	for _, s := range screens(t) {
		for _, size := range sizes {
			for _, mode := range [][]string{nil, {"n"}, {"e"}} {
				d := ready(t, s.req, s.opts)
				keys(d, mode...)
				name := fmt.Sprintf("%s at %dx%d after %v", s.name, size[0], size[1], mode)
				t.Run(name, func(t *testing.T) { screen(t, d.View(size[0], size[1]), size[0], size[1]) })
			}
		}
	}
	// One dialog per mode, resized through the sizes, as a terminal would
	// be.
	for _, c := range longCases(t) {
		for _, mode := range [][]string{nil, {"p"}, {"x"}, {"e"}} {
			d := ready(t, c.req, Options{WorkDir: t.TempDir()})
			keys(d, mode...)
			for _, size := range [][2]int{{20, 8}, {60, 20}, {80, 24}, {139, 40}, {200, 60}} {
				name := fmt.Sprintf("%s at %dx%d after %v", c.name, size[0], size[1], mode)
				t.Run(name, func(t *testing.T) { screen(t, d.View(size[0], size[1]), size[0], size[1]) })
			}
		}
	}
	for i, req := range extra {
		for _, size := range sizes {
			d := ready(t, req, Options{WorkDir: t.TempDir()})
			t.Run(fmt.Sprintf("extra %d at %dx%d", i, size[0], size[1]), func(t *testing.T) {
				screen(t, d.View(size[0], size[1]), size[0], size[1])
			})
		}
	}
	q := NewQuestion(questions())
	for _, size := range sizes {
		t.Run(fmt.Sprintf("questions at %dx%d", size[0], size[1]), func(t *testing.T) {
			screen(t, q.View(size[0], size[1]), size[0], size[1])
		})
	}
}

func TestSplitViewStartsAt140Columns(t *testing.T) {
	t.Parallel()
	dir := project(t, map[string]string{"a.txt": "one\ntwo\n"})
	req := agent.ApprovalRequest{Tool: "Edit", Input: input(t, map[string]any{"file_path": "a.txt", "old_string": "two", "new_string": "three"})}
	for _, tt := range []struct {
		width int
		split bool
	}{{139, false}, {140, true}, {200, true}} {
		d := ready(t, req, Options{WorkDir: dir})
		view := screen(t, d.View(tt.width, 24), tt.width, 24)
		// In the split view the old and new line 2 share a row.
		split := false
		for _, l := range strings.Split(view, "\n") {
			if strings.Contains(l, "- two") && strings.Contains(l, "+ three") {
				split = true
			}
		}
		if split != tt.split {
			t.Errorf("width %d: split = %v, want %v\n%s", tt.width, split, tt.split, view)
		}
	}
}

func TestMarksAreColouredToo(t *testing.T) {
	t.Parallel()
	dir := project(t, map[string]string{"a.txt": "one\ntwo\n"})
	covered := func(p string) bool { return p == "git status" }
	d := ready(t, bash("git status && rm -rf build"), Options{WorkDir: dir, Covered: covered})
	raw := d.View(80, 24)
	if !strings.Contains(raw, theme.Warn.Render("▶ "+pad("needs approval", partLabelWidth))) {
		t.Error("the part needing approval is not in the warning colour")
	}
	if !strings.Contains(raw, theme.Dim.Render("✓ "+pad("allowed", partLabelWidth))) {
		t.Error("the covered part is not dimmed")
	}

	e := ready(t, agent.ApprovalRequest{Tool: "Edit", Input: input(t, map[string]any{"file_path": "a.txt", "old_string": "two", "new_string": "three"})},
		Options{WorkDir: dir})
	raw = e.View(80, 24)
	for _, l := range strings.Split(raw, "\n") {
		switch {
		case strings.Contains(l, "three") && !strings.Contains(l, "38;2;34;197;94"):
			t.Errorf("added line not in the added colour: %q", l)
		case strings.Contains(l, "- two") && !strings.Contains(l, "38;2;239;68;68"):
			t.Errorf("removed line not in the removed colour: %q", l)
		}
	}
}

func questions() []askuser.Question {
	return []askuser.Question{
		{Header: "Database", Question: "Which database should the service use?", Options: []askuser.Option{
			{Label: "Postgres", Description: "Relational; the team runs it already."},
			{Label: "SQLite", Description: "One file, no server."},
		}},
		{Header: "Features", Question: "Which features go in the first release?", MultiSelect: true, Options: []askuser.Option{
			{Label: "Login"}, {Label: "Search"}, {Label: "Export"},
		}},
	}
}
