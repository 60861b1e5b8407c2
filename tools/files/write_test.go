package files_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/tools/files"
)

func TestWriteCreatesAFileAndItsDirectories(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	res := call(t, files.Write(), tc, `{"file_path":"a/b/new.txt","content":"hello\n"}`)
	if res.IsError || res.Text != "Created a/b/new.txt (6 bytes)" {
		t.Fatalf("got (error=%v) %q", res.IsError, res.Text)
	}
	if got := readFile(t, dir+"/a/b/new.txt"); got != "hello\n" {
		t.Fatalf("content %q", got)
	}
	for path, want := range map[string]os.FileMode{dir + "/a/b/new.txt": 0o644, dir + "/a/b": 0o755 | os.ModeDir} {
		if fi, err := os.Stat(path); err != nil || fi.Mode() != want {
			t.Errorf("%s: mode %v (%v), want %v", path, fi.Mode(), err, want)
		}
	}
	m := meta(t, res)
	if m["path"] != dir+"/a/b/new.txt" || !strings.Contains(m["diff"], "+hello") {
		t.Fatalf("Meta = %v", m)
	}
}

func TestWriteOverwritesAndKeepsTheMode(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	path := filepath.Join(dir, "run.sh")
	writeFile(t, path, "echo old\n")
	if err := os.Chmod(path, 0o750); err != nil {
		t.Fatal(err)
	}
	res := call(t, files.Write(), tc, jsonInput(t, map[string]string{"file_path": path, "content": "echo new\n"}))
	if res.IsError || res.Text != "Overwrote run.sh (9 bytes)" {
		t.Fatalf("got (error=%v) %q", res.IsError, res.Text)
	}
	if fi, _ := os.Stat(path); fi.Mode() != 0o750 {
		t.Fatalf("mode %v, want 0750", fi.Mode())
	}
	if d := meta(t, res)["diff"]; !strings.Contains(d, "-echo old") || !strings.Contains(d, "+echo new") {
		t.Fatalf("diff %q", d)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("the directory holds %d entries, want only run.sh (a temporary file was left?)", len(entries))
	}
}

func TestWriteThroughASymlinkChangesItsTarget(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	writeFile(t, dir+"/real.txt", "old")
	if err := os.Symlink("real.txt", dir+"/link.txt"); err != nil {
		t.Skip(err)
	}
	call(t, files.Write(), tc, `{"file_path":"link.txt","content":"new"}`)
	if fi, err := os.Lstat(dir + "/link.txt"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link.txt is no longer a symlink: %v %v", fi, err)
	}
	if got := readFile(t, dir+"/real.txt"); got != "new" {
		t.Fatalf("real.txt holds %q", got)
	}
}

func TestWriteRefusesADirectory(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	if err := os.Mkdir(dir+"/d", 0o755); err != nil {
		t.Fatal(err)
	}
	res := call(t, files.Write(), tc, `{"file_path":"d","content":"x"}`)
	if !res.IsError || res.Text != "Cannot write d: d is a directory, not a file" {
		t.Fatalf("got (error=%v) %q", res.IsError, res.Text)
	}
}

func TestWriteSchema(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		input string
		want  string
	}{
		{"a path and content are valid", `{"file_path":"a","content":""}`, ""},
		{"content is required", `{"file_path":"a"}`, "content: required property is missing"},
		{"content is a string", `{"file_path":"a","content":3}`, "content: got number, want string"},
		{"unknown properties are refused", `{"file_path":"a","content":"","mode":"0777"}`, "mode: unknown property"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := prepare(files.Write(), c.input)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("rejected: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestWriteOverAHugeFileLeavesTheDiffOut(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	writeFile(t, dir+"/big.bin", "")
	if err := os.Truncate(dir+"/big.bin", 2<<20); err != nil {
		t.Fatal(err)
	}
	res := call(t, files.Write(), tc, `{"file_path":"big.bin","content":"small"}`)
	if m := meta(t, res); res.IsError || m["diff"] != "" || m["note"] != "diff left out: the file is too large" {
		t.Fatalf("got (error=%v) %q, Meta %v", res.IsError, res.Text, m)
	}
	if got := readFile(t, dir+"/big.bin"); got != "small" {
		t.Fatalf("file holds %d bytes", len(got))
	}
}
