package files_test

import (
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/tools/files"
)

func TestMultiEditAppliesEditsInOrder(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	writeFile(t, dir+"/f.txt", "alpha\nbeta\nbeta\n")
	res := call(t, files.MultiEdit(), tc, `{"file_path":"f.txt","edits":[
		{"old_string":"alpha","new_string":"gamma"},
		{"old_string":"gamma\nbeta","new_string":"gamma\ndelta"},
		{"old_string":"beta","new_string":"b","replace_all":true}]}`)
	want := "Edited f.txt (3 edits, 3 replacements):\n- edit 1: 1 replacement\n- edit 2: 1 replacement\n- edit 3: 1 replacement"
	if res.IsError || res.Text != want {
		t.Fatalf("got (error=%v)\n%s", res.IsError, res.Text)
	}
	if got := readFile(t, dir+"/f.txt"); got != "gamma\ndelta\nb\n" {
		t.Fatalf("file holds %q", got)
	}
	if d := meta(t, res)["diff"]; !strings.Contains(d, "-alpha") || !strings.Contains(d, "+delta") {
		t.Fatalf("diff %q", d)
	}
}

func TestMultiEditWritesNothingWhenAnEditFails(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		edits string
		want  string
	}{
		{"the third edit finds nothing", `[{"old_string":"one","new_string":"1"},{"old_string":"two","new_string":"2"},{"old_string":"one","new_string":"again"}]`,
			"Edit 3 of 3 failed, so f.txt was not changed: old_string was not found in the file; Read the file again and copy the text exactly."},
		{"the second edit is ambiguous", `[{"old_string":"one","new_string":"x"},{"old_string":"x","new_string":"y"}]`,
			"Edit 2 of 2 failed, so f.txt was not changed: old_string occurs 2 times in the file; include more surrounding lines to pick one, or set replace_all to true to change all 2."},
		{"the first edit changes nothing", `[{"old_string":"one","new_string":"one"}]`,
			"Cannot edit f.txt: old_string and new_string are the same, so there is nothing to change."},
		{"a later edit has an empty old_string", `[{"old_string":"one","new_string":"1"},{"old_string":"","new_string":"x"}]`,
			"Edit 2 of 2 failed, so f.txt was not changed: old_string is empty but the file is not; an empty old_string only creates a file or fills an empty one."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tc, dir := newContext(t)
			const content = "one\ntwo\nx\n"
			writeFile(t, dir+"/f.txt", content)
			res := call(t, files.MultiEdit(), tc, `{"file_path":"f.txt","edits":`+c.edits+`}`)
			if !res.IsError || res.Text != c.want {
				t.Fatalf("got (error=%v)\n%q\nwant\n%q", res.IsError, res.Text, c.want)
			}
			if got := readFile(t, dir+"/f.txt"); got != content {
				t.Fatalf("the file changed to %q", got)
			}
		})
	}
}

func TestMultiEditCreatesAFileFromAnEmptyFirstEdit(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	res := call(t, files.MultiEdit(), tc, `{"file_path":"n.txt","edits":[{"old_string":"","new_string":"a b\n"},{"old_string":"b","new_string":"c"}]}`)
	if res.IsError {
		t.Fatal(res.Text)
	}
	if got := readFile(t, dir+"/n.txt"); got != "a c\n" {
		t.Fatalf("file holds %q", got)
	}
}

func TestMultiEditOnAMissingFileFails(t *testing.T) {
	t.Parallel()
	tc, _ := newContext(t)
	res := call(t, files.MultiEdit(), tc, `{"file_path":"n.txt","edits":[{"old_string":"a","new_string":"b"}]}`)
	if !res.IsError || res.Text != "File does not exist: n.txt. To create it, use Write, or Edit with an empty old_string." {
		t.Fatalf("got (error=%v) %q", res.IsError, res.Text)
	}
}

func TestH01_MultiEditEditsNeedOldString(t *testing.T) {
	t.Parallel()
	err := prepare(files.MultiEdit(), `{"file_path":"a","edits":[{"old_string":"a","new_string":"b"},{"new_string":"c"}]}`)
	if err == nil || !strings.Contains(err.Error(), "edits[1]") || !strings.Contains(err.Error(), "old_string") {
		t.Fatalf("error %v, want one naming edits[1] and old_string", err)
	}
}

func TestMultiEditSchema(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		input string
		want  string
	}{
		{"one edit is valid", `{"file_path":"a","edits":[{"old_string":"x","new_string":"y","replace_all":true}]}`, ""},
		{"edits is required", `{"file_path":"a"}`, "edits: required property is missing"},
		{"edits cannot be empty", `{"file_path":"a","edits":[]}`, "edits: minItems"},
		{"an edit needs new_string", `{"file_path":"a","edits":[{"old_string":"x"}]}`, "new_string: required property is missing"},
		{"an edit's strings are strings", `{"file_path":"a","edits":[{"old_string":1,"new_string":"y"}]}`, "edits[0].old_string: got number, want string"},
		{"an edit has no other properties", `{"file_path":"a","edits":[{"old_string":"x","new_string":"y","line":3}]}`, "edits[0].line: unknown property"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := prepare(files.MultiEdit(), c.input)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("rejected: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}
