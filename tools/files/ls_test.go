package files_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/tools/files"
)

func TestLSListsDirectoriesFirstThenFiles(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	writeFile(t, dir+"/proj/b.go", "package b\n")
	writeFile(t, dir+"/proj/a.txt", "")
	writeFile(t, dir+"/proj/zdir/x", "x")
	writeFile(t, dir+"/proj/adir/y", "y")
	writeFile(t, dir+"/proj/debug.log", "log")
	for link, dest := range map[string]string{"to-b": "b.go", "to-dir": "zdir", "gone": "missing"} {
		if err := os.Symlink(dest, dir+"/proj/"+link); err != nil {
			t.Skip(err)
		}
	}
	want := "proj/ (8 entries)\n" +
		"adir/\n" +
		"to-dir/ -> zdir\n" +
		"zdir/\n" +
		"a.txt\t0 bytes\n" +
		"b.go\t10 bytes\n" +
		"debug.log\t3 bytes\n" +
		"gone -> missing (broken link)\n" +
		"to-b -> b.go\t10 bytes"
	res := call(t, files.LS(), tc, `{"path":"proj"}`)
	if res.IsError || res.Text != want {
		t.Fatalf("got (error=%v)\n%s\nwant\n%s", res.IsError, res.Text, want)
	}
	res = call(t, files.LS(), tc, `{"path":"proj","ignore":["*.log","a*"]}`)
	if want := "proj/ (5 entries, 3 ignored)\nto-dir/ -> zdir\nzdir/\nb.go\t10 bytes\ngone -> missing (broken link)\nto-b -> b.go\t10 bytes"; res.Text != want {
		t.Fatalf("with ignore, got\n%s\nwant\n%s", res.Text, want)
	}
}

func TestLSDefaultsToTheWorkingDirectory(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	writeFile(t, dir+"/go.mod", "module x\n")
	res := call(t, files.LS(), tc, `{}`)
	if res.IsError || res.Text != "./ (1 entry)\ngo.mod\t9 bytes" {
		t.Fatalf("got (error=%v) %q", res.IsError, res.Text)
	}
}

func TestLSReportsEmptyAndFullyIgnoredDirectories(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	if err := os.MkdirAll(dir+"/empty", 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir+"/logs/a.log", "")
	if res := call(t, files.LS(), tc, `{"path":"empty"}`); res.IsError || res.Text != "(empty is an empty directory)" {
		t.Fatalf("empty: got (error=%v) %q", res.IsError, res.Text)
	}
	if res := call(t, files.LS(), tc, `{"path":"logs","ignore":["*.log"]}`); res.IsError || res.Text != "logs has no entries left after ignoring 1 entry." {
		t.Fatalf("ignored: got (error=%v) %q", res.IsError, res.Text)
	}
}

func TestLSErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		input string
		want  string
	}{
		{"a missing directory", `{"path":"nope"}`, "Directory does not exist: nope."},
		{"a file", `{"path":"f.txt"}`, "f.txt is a file, not a directory; use Read to see its content."},
		{"a broken ignore pattern", `{"ignore":["ok","[oops"]}`, `ignore[1] is not a valid glob pattern: "[oops"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tc, dir := newContext(t)
			writeFile(t, dir+"/f.txt", "")
			res := call(t, files.LS(), tc, c.input)
			if !res.IsError || res.Text != c.want {
				t.Fatalf("got (error=%v) %q, want error %q", res.IsError, res.Text, c.want)
			}
		})
	}
}

func TestLSStopsAt1000Entries(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	for i := range 1003 {
		writeFile(t, fmt.Sprintf("%s/many/f%04d", dir, i), "")
	}
	res := call(t, files.LS(), tc, `{"path":"many"}`)
	got := strings.Split(res.Text, "\n")
	if len(got) != 1002 || got[1000] != "f0999\t0 bytes" || got[1001] != "(Listing stopped at 1000 of 1003 entries. Use ignore, or Glob with a pattern, to narrow it down.)" {
		t.Fatalf("%d lines, ending %q", len(got), got[len(got)-2:])
	}
}

func TestLSSchema(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		input string
		want  string
	}{
		{"no input is valid", `{}`, ""},
		{"ignore holds strings", `{"ignore":[1]}`, "ignore[0]: got number, want string"},
		{"unknown properties are refused", `{"recursive":true}`, "recursive: unknown property"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := prepare(files.LS(), c.input)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("rejected: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}
