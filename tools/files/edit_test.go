package files_test

import (
	"os"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/tools/files"
)

const goSource = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n"

func TestEditReplacesTextAndShowsTheChangedLines(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	writeFile(t, dir+"/main.go", goSource)
	res := call(t, files.Edit(), tc, `{"file_path":"main.go","old_string":"\tfmt.Println(\"hi\")","new_string":"\tfmt.Println(\"hello\")\n\tfmt.Println(\"bye\")"}`)
	want := "Edited main.go (1 replacement):\n" +
		"     4\t\n" +
		"     5\tfunc main() {\n" +
		"     6\t\tfmt.Println(\"hello\")\n" +
		"     7\t\tfmt.Println(\"bye\")\n" +
		"     8\t}"
	if res.IsError || res.Text != want {
		t.Fatalf("got (error=%v)\n%s\nwant\n%s", res.IsError, res.Text, want)
	}
	if got := readFile(t, dir+"/main.go"); got != strings.Replace(goSource, "\"hi\")", "\"hello\")\n\tfmt.Println(\"bye\")", 1) {
		t.Fatalf("file now holds %q", got)
	}
	if m := meta(t, res); m["path"] != dir+"/main.go" || !strings.Contains(m["diff"], "-\tfmt.Println(\"hi\")") || !strings.Contains(m["diff"], "+\tfmt.Println(\"bye\")") {
		t.Fatalf("Meta = %v", m)
	}
}

func TestEditReplaceAllChangesEveryOccurrence(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	writeFile(t, dir+"/f.txt", "x = 1\ny = x\nz = x\n")
	res := call(t, files.Edit(), tc, `{"file_path":"f.txt","old_string":"x","new_string":"count","replace_all":true}`)
	if res.IsError || !strings.HasPrefix(res.Text, "Edited f.txt (3 replacements); the first is shown:\n     1\tcount = 1") {
		t.Fatalf("got (error=%v) %q", res.IsError, res.Text)
	}
	if got := readFile(t, dir+"/f.txt"); got != "count = 1\ny = count\nz = count\n" {
		t.Fatalf("file now holds %q", got)
	}
}

func TestEditErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		input string
		want  string
	}{
		{"identical strings", `{"file_path":"f.go","old_string":"a","new_string":"a"}`,
			"Cannot edit f.go: old_string and new_string are the same, so there is nothing to change."},
		{"a missing file", `{"file_path":"nope.go","old_string":"a","new_string":"b"}`,
			"File does not exist: nope.go. To create it, use Write, or Edit with an empty old_string."},
		{"text that is not there", `{"file_path":"f.go","old_string":"return nil","new_string":"b"}`,
			"Cannot edit f.go: old_string was not found in the file; Read the file again and copy the text exactly."},
		{"text that differs only in whitespace", `{"file_path":"f.go","old_string":"if x {\n    y()\n}","new_string":"b"}`,
			"Cannot edit f.go: old_string was not found in the file. Text matching it apart from whitespace starts at line 3: check indentation, tabs and line breaks, and copy old_string exactly from a fresh Read."},
		{"text that occurs more than once", `{"file_path":"f.go","old_string":"y()","new_string":"z()"}`,
			"Cannot edit f.go: old_string occurs 2 times in the file; include more surrounding lines to pick one, or set replace_all to true to change all 2."},
		{"an empty old_string on a file with content", `{"file_path":"f.go","old_string":"","new_string":"b"}`,
			"Cannot edit f.go: old_string is empty but the file is not; an empty old_string only creates a file or fills an empty one."},
		{"a directory", `{"file_path":"sub","old_string":"a","new_string":"b"}`,
			"Cannot edit sub: sub is a directory, not a file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tc, dir := newContext(t)
			const content = "package f\n\nif x {\n\ty()\n}\ny()\n"
			writeFile(t, dir+"/f.go", content)
			writeFile(t, dir+"/sub/keep", "")
			res := call(t, files.Edit(), tc, c.input)
			if !res.IsError || res.Text != c.want {
				t.Fatalf("got (error=%v)\n%q\nwant\n%q", res.IsError, res.Text, c.want)
			}
			if got := readFile(t, dir+"/f.go"); got != content {
				t.Fatalf("a failed edit changed the file to %q", got)
			}
		})
	}
}

func TestEditWithAnEmptyOldStringCreatesAMissingFile(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	res := call(t, files.Edit(), tc, `{"file_path":"pkg/new.go","old_string":"","new_string":"package pkg\n"}`)
	if res.IsError || res.Text != "Created pkg/new.go (1 replacement):\n     1\tpackage pkg" {
		t.Fatalf("got (error=%v) %q", res.IsError, res.Text)
	}
	if got := readFile(t, dir+"/pkg/new.go"); got != "package pkg\n" {
		t.Fatalf("file holds %q", got)
	}
	if fi, _ := os.Stat(dir + "/pkg/new.go"); fi.Mode() != 0o644 {
		t.Fatalf("mode %v, want 0644", fi.Mode())
	}
}

func TestEditKeepsTheFileMode(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	writeFile(t, dir+"/run.sh", "#!/bin/sh\necho a\n")
	if err := os.Chmod(dir+"/run.sh", 0o755); err != nil {
		t.Fatal(err)
	}
	call(t, files.Edit(), tc, `{"file_path":"run.sh","old_string":"echo a","new_string":"echo b"}`)
	if fi, _ := os.Stat(dir + "/run.sh"); fi.Mode() != 0o755 {
		t.Fatalf("mode %v, want 0755", fi.Mode())
	}
	if got := readFile(t, dir+"/run.sh"); got != "#!/bin/sh\necho b\n" {
		t.Fatalf("file holds %q", got)
	}
}

func TestEditMatchesAcrossLineEndings(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		content string
		old     string
		new     string
		want    string
	}{
		{"LF text in a CRLF file, written back as CRLF", "one\r\ntwo\r\nthree\r\n", "one\ntwo", "1\n2\n2.5", "1\r\n2\r\n2.5\r\nthree\r\n"},
		{"CRLF text in an LF file, written back as LF", "one\ntwo\nthree\n", "two\r\nthree", "2\r\n3", "one\n2\n3\n"},
		{"a mixed file keeps its other lines as they were", "a\r\nb\r\nc\nd\r\n", "b\nc", "B\nC", "a\r\nB\r\nC\nd\r\n"},
		{"text with LF found as written in a mostly CRLF file", "a\r\nb\nc\r\nd\r\n", "b\nc", "x", "a\r\nx\r\nd\r\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tc, dir := newContext(t)
			writeFile(t, dir+"/f.txt", c.content)
			res := call(t, files.Edit(), tc, jsonInput(t, map[string]string{"file_path": "f.txt", "old_string": c.old, "new_string": c.new}))
			if res.IsError {
				t.Fatal(res.Text)
			}
			if got := readFile(t, dir+"/f.txt"); got != c.want {
				t.Fatalf("file holds %q, want %q", got, c.want)
			}
			if strings.Contains(res.Text, "\r") {
				t.Fatalf("the snippet shows carriage returns: %q", res.Text)
			}
		})
	}
}

func TestEditSchema(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		input string
		want  string
	}{
		{"the three strings are valid", `{"file_path":"a","old_string":"x","new_string":"y"}`, ""},
		{"new_string is required", `{"file_path":"a","old_string":"x"}`, "new_string: required property is missing"},
		{"replace_all is a boolean", `{"file_path":"a","old_string":"x","new_string":"y","replace_all":"yes"}`, "replace_all: got string, want boolean"},
		{"unknown properties are refused", `{"file_path":"a","old_string":"x","new_string":"y","all":true}`, "all: unknown property"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := prepare(files.Edit(), c.input)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("rejected: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
	out, err := files.Edit().Schema().Prepare([]byte(`{"file_path":"a","old_string":"x","new_string":"y"}`))
	if err != nil || !strings.Contains(string(out), `"replace_all":false`) {
		t.Fatalf("replace_all does not default to false: %s %v", out, err)
	}
}

func TestEditRefusesAFileTooLargeToHoldInMemory(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	writeFile(t, dir+"/huge.txt", "")
	if err := os.Truncate(dir+"/huge.txt", 65<<20); err != nil {
		t.Fatal(err)
	}
	res := call(t, files.Edit(), tc, `{"file_path":"huge.txt","old_string":"a","new_string":"b"}`)
	want := "Cannot edit huge.txt: huge.txt has 68157440 bytes, more than the 67108864 this tool edits in memory; use Write to replace it"
	if !res.IsError || res.Text != want {
		t.Fatalf("got (error=%v) %q", res.IsError, res.Text)
	}
}
