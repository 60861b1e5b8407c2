package search

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

// hiddenTree is a project with secrets the Read rules hide.
var hiddenTree = map[string]string{
	"main.go":             "package main // needle\n",
	"docs/a.md":           "needle in the docs\n",
	"secrets/key.txt":     "needle=hunter2\n",
	"secrets/deep/db.txt": "needle password\n",
	".env":                "TOKEN=needle\n",
	"config/prod.env":     "needle=prod\n",
}

// policyContext is a tool context with a real session policy over root.
func policyContext(t *testing.T, root string, deny, ask []string) *tools.Context {
	t.Helper()
	p := permission.NewPolicy([]string{root})
	if err := p.AddRules(permission.Deny, "test", deny...); err != nil {
		t.Fatal(err)
	}
	if err := p.AddRules(permission.Ask, "test", ask...); err != nil {
		t.Fatal(err)
	}
	return &tools.Context{WorkDir: root, Paths: p}
}

// engines returns the Grep tool with each engine that can run here.
func engines(t *testing.T) map[string]tools.Tool {
	t.Helper()
	out := map[string]tools.Tool{"go": newGrep(goEngine)}
	if rg := findRipgrep(); rg != "" {
		out["ripgrep"] = newGrep(func() string { return rg })
	} else {
		t.Log("rg is not installed; only the Go walker is tested")
	}
	return out
}

func TestH15_GrepHonoursReadDeny(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(writeTree(t, hiddenTree))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("secrets", filepath.Join(root, "innocent")); err != nil {
		t.Fatal(err)
	}
	tc := policyContext(t, root, []string{"Read(./secrets/**)", "Read(./.env)"}, []string{"Read(*.env)"})
	cases := []struct {
		input  string
		hidden int
	}{
		{`{"pattern":"needle"}`, 3},
		{`{"pattern":"needle","output_mode":"content"}`, 3},
		{`{"pattern":"needle","output_mode":"count"}`, 3},
		// With a glob or type filter no number is given (-1): it would
		// tell which hidden names the filter matches.
		{`{"pattern":"needle","glob":"*.env"}`, -1},
		{`{"pattern":"needle","glob":".*","output_mode":"content"}`, -1},
		{`{"pattern":"needle","glob":"*.nothing"}`, -1},
		{`{"pattern":"needle","type":"go"}`, -1},
		// The count does not depend on what hidden files contain.
		{`{"pattern":"hunter2"}`, 3},
		{`{"pattern":"no such text anywhere"}`, 3},
		{`{"pattern":"needle","path":"secrets/key.txt"}`, 1},
		{`{"pattern":"needle","path":"innocent","output_mode":"content"}`, 2},
	}
	for name, tool := range engines(t) {
		for _, c := range cases {
			res := call(t, tool, tc, c.input)
			for _, leak := range []string{"hunter2", "password", "TOKEN", "prod", "secrets/", "innocent/", ".env"} {
				if strings.Contains(strings.SplitN(res.Text, "\n\n[", 2)[0], leak) {
					t.Errorf("%s %s shows %q:\n%s", name, c.input, leak, res.Text)
				}
			}
			if c.hidden < 0 {
				if !strings.HasSuffix(res.Text, filteredNotice) || strings.Contains(res.Text, "left out") {
					t.Errorf("%s %s: want the notice without a count:\n%s", name, c.input, res.Text)
				}
				if res.Meta != nil {
					var pg page
					if err := json.Unmarshal(res.Meta, &pg); err != nil || pg.Hidden != 0 {
						t.Errorf("%s %s: Meta %s, want no hidden count", name, c.input, res.Meta)
					}
				}
				continue
			}
			want := fmt.Sprintf("%d files were left out", c.hidden)
			if c.hidden == 1 {
				want = "1 file was left out"
			}
			if !strings.Contains(res.Text, want) || !strings.Contains(res.Text, "Read(") {
				t.Errorf("%s %s does not say %q and which rule:\n%s", name, c.input, want, res.Text)
			}
			if res.Meta != nil {
				var pg page
				if err := json.Unmarshal(res.Meta, &pg); err != nil || pg.Hidden != c.hidden {
					t.Errorf("%s %s: Meta %s, want hidden %d", name, c.input, res.Meta, c.hidden)
				}
			}
		}
	}
	// What is not hidden is still found.
	for name, tool := range engines(t) {
		res := call(t, tool, tc, `{"pattern":"needle"}`)
		if !strings.Contains(res.Text, "main.go") || !strings.Contains(res.Text, "docs/a.md") {
			t.Errorf("%s lost visible files:\n%s", name, res.Text)
		}
	}
}

func TestH15_GrepEnginesAgreeOnWhatTheyLeaveOut(t *testing.T) {
	t.Parallel()
	rg := findRipgrep()
	if rg == "" {
		t.Skip("rg is not installed; the parity test needs it")
	}
	root, err := filepath.EvalSymlinks(fixtureTree(t))
	if err != nil {
		t.Fatal(err)
	}
	tc := policyContext(t, root, []string{"Read(./sub/**)", "Read(*.md)"}, []string{"Read(./ctx/lines.txt)"})
	goTool, rgTool := newGrep(goEngine), newGrep(func() string { return rg })
	for _, c := range parityCases {
		if strings.Contains(c.input, `"../`) || strings.Contains(c.input, `"path":"sub`) {
			continue
		}
		want := call(t, rgTool, tc, c.input)
		got := call(t, goTool, tc, c.input)
		if got.Text != want.Text || got.IsError != want.IsError {
			t.Errorf("engines differ for %s\n--- ripgrep ---\n%s\n--- go ---\n%s", c.input, want.Text, got.Text)
		}
	}
}

func TestH15_GrepAfterAnApprovedAskShowsWhatWasApproved(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(writeTree(t, hiddenTree))
	if err != nil {
		t.Fatal(err)
	}
	// A person approved Grep on secrets/ under the ask rule; files that a
	// deny rule hides stay hidden.
	tc := policyContext(t, root, []string{"Read(./secrets/deep/**)"}, []string{"Read(./secrets/**)"})
	for name, tool := range engines(t) {
		res := call(t, tool, tc, `{"pattern":"needle","path":"secrets","output_mode":"content"}`)
		if !strings.Contains(res.Text, "hunter2") || strings.Contains(res.Text, "password") || !strings.Contains(res.Text, "1 file was left out") {
			t.Errorf("%s:\n%s", name, res.Text)
		}
	}
}

// A glob or type filter cannot be used to learn hidden names: filters that
// match a hidden name, a prefix of one, or nothing get the same answer.
func TestH15_GrepFilterCannotSpellHiddenNames(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(writeTree(t, hiddenTree))
	if err != nil {
		t.Fatal(err)
	}
	tc := policyContext(t, root, []string{"Read(./secrets/**)", "Read(./.env)"}, nil)
	for name, tool := range engines(t) {
		var first string
		for _, glob := range []string{".env", ".e*", ".x*", "**/secrets/**", "secrets/k*", "z*"} {
			res := call(t, tool, tc, `{"pattern":"needle","glob":"`+glob+`"}`)
			if first == "" {
				first = res.Text
			}
			if res.Text != first {
				t.Errorf("%s glob %s: %q, want %q as for every such glob", name, glob, res.Text, first)
			}
		}
	}
}
