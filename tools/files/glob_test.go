package files_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/tools/files"
)

// tree makes files with modification times one minute apart, in the order
// given: the last one is the newest.
func tree(t *testing.T, dir string, paths ...string) {
	t.Helper()
	base := time.Now().Add(-time.Hour)
	for i, p := range paths {
		writeFile(t, dir+"/"+p, p)
		at := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(dir+"/"+p, at, at); err != nil {
			t.Fatal(err)
		}
	}
}

func TestGlobMatches(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		input string
		want  string
	}{
		{"a double star at any depth, newest first", `{"pattern":"**/*.go"}`, "a/b/c.go\na/x_test.go\nmain.go"},
		{"a name pattern at any depth", `{"pattern":"*_test.go"}`, "a/x_test.go"},
		{"a slash anchors the pattern to the path", `{"pattern":"a/*.go"}`, "a/x_test.go"},
		{"alternatives", `{"pattern":"**/*.{md,txt}"}`, "README.md\ndocs/notes.txt"},
		{"a search directory", `{"pattern":"*.go","path":"a"}`, "a/b/c.go\na/x_test.go"},
		{"skipped directories stay out", `{"pattern":"**/*.js"}`, "web/app.js"},
		{"a search rooted inside a skipped directory", `{"pattern":"vendor/**/*.go"}`, "vendor/lib/v.go"},
		{"no matches", `{"pattern":"**/*.rs"}`, "No files found"},
		{"a literal directory that is not there", `{"pattern":"nope/**/*.go"}`, "No files found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tc, dir := newContext(t)
			tree(t, dir, "README.md", "main.go", "docs/notes.txt", "a/x_test.go", "a/b/c.go",
				"web/app.js", "node_modules/m/index.js", ".git/hooks/pre.js", "vendor/lib/v.go")
			// Files tree() wrote later are newer; make README.md and
			// notes.txt tie so the tie-break by path shows.
			at := time.Now().Add(-2 * time.Hour)
			os.Chtimes(dir+"/README.md", at, at)
			os.Chtimes(dir+"/docs/notes.txt", at, at)
			res := call(t, files.Glob(), tc, c.input)
			if res.IsError || res.Text != c.want {
				t.Fatalf("got (error=%v)\n%s\nwant\n%s", res.IsError, res.Text, c.want)
			}
		})
	}
}

func TestGlobOrdersByModificationTimeNewestFirst(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	tree(t, dir, "old.go", "z/mid.go", "new.go")
	res := call(t, files.Glob(), tc, `{"pattern":"**/*.go"}`)
	if res.Text != "new.go\nz/mid.go\nold.go" {
		t.Fatalf("got %q", res.Text)
	}
}

func TestGlobShowsPathsOutsideTheWorkingDirectoryInFull(t *testing.T) {
	t.Parallel()
	tc, _ := newContext(t)
	_, other := newContext(t)
	writeFile(t, other+"/x.go", "")
	res := call(t, files.Glob(), tc, jsonInput(t, map[string]string{"pattern": "*.go", "path": other}))
	if res.Text != other+"/x.go" {
		t.Fatalf("got %q", res.Text)
	}
	res = call(t, files.Glob(), tc, jsonInput(t, map[string]string{"pattern": other + "/*.go"}))
	if res.Text != other+"/x.go" {
		t.Fatalf("with an absolute pattern, got %q", res.Text)
	}
}

func TestGlobStopsAt1000Results(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	for i := range 1002 {
		writeFile(t, fmt.Sprintf("%s/d%d/f%04d.txt", dir, i%7, i), "")
	}
	res := call(t, files.Glob(), tc, `{"pattern":"*.txt"}`)
	got := strings.Split(res.Text, "\n")
	if len(got) != 1001 || got[1000] != "(Showing the 1000 most recently modified of 1002 matches. Use a narrower pattern or path to see others.)" {
		t.Fatalf("%d lines, last %q", len(got), got[len(got)-1])
	}
}

func TestGlobErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		input string
		want  string
	}{
		{"a broken pattern", `{"pattern":"[a-"}`, `"[a-" is not a valid glob pattern (check brackets and braces).`},
		{"a missing search directory", `{"pattern":"*.go","path":"nope"}`, "nope is not a directory to search in."},
		{"a file as search directory", `{"pattern":"*.go","path":"f.go"}`, "f.go is not a directory to search in."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tc, dir := newContext(t)
			writeFile(t, dir+"/f.go", "")
			res := call(t, files.Glob(), tc, c.input)
			if !res.IsError || res.Text != c.want {
				t.Fatalf("got (error=%v) %q, want error %q", res.IsError, res.Text, c.want)
			}
		})
	}
}

func TestGlobSchema(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		input string
		want  string
	}{
		{"a pattern is valid", `{"pattern":"*.go"}`, ""},
		{"the pattern is required", `{"path":"."}`, "pattern: required property is missing"},
		{"the pattern cannot be empty", `{"pattern":""}`, "pattern: minLength"},
		{"unknown properties are refused", `{"pattern":"*","limit":3}`, "limit: unknown property"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := prepare(files.Glob(), c.input)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("rejected: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestGlobSearchesADirectoryReachedThroughASymlink(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	writeFile(t, dir+"/real/pkg/a.go", "")
	if err := os.Symlink("real", dir+"/link"); err != nil {
		t.Skip(err)
	}
	res := call(t, files.Glob(), tc, `{"pattern":"**/*.go","path":"link"}`)
	if res.Text != "link/pkg/a.go" {
		t.Fatalf("got %q", res.Text)
	}
	tc.WorkDir = dir + "/link"
	if res := call(t, files.Glob(), tc, `{"pattern":"*.go"}`); res.Text != "pkg/a.go" {
		t.Fatalf("from a symlinked working directory, got %q", res.Text)
	}
}
