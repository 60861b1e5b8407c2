package files_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/files"
)

// hiddenProject makes a project with files the Read rules hide and a tool
// context carrying a real session policy with those rules.
func hiddenProject(t *testing.T) (*tools.Context, string) {
	t.Helper()
	tc, dir := newContext(t)
	for _, p := range []string{"main.go", ".env", "secrets/key.pem", "secrets/deep/db.txt", "docs/a.md", "config/prod.env"} {
		writeFile(t, filepath.Join(dir, p), "content of "+p)
	}
	if err := os.Symlink("secrets/key.pem", filepath.Join(dir, "cert")); err != nil {
		t.Fatal(err)
	}
	p := permission.NewPolicy([]string{dir})
	if err := p.AddRules(permission.Deny, "test", "Read(./secrets/**)", "Read(./.env)"); err != nil {
		t.Fatal(err)
	}
	if err := p.AddRules(permission.Ask, "test", "Read(*.env)"); err != nil {
		t.Fatal(err)
	}
	tc.Paths = p
	return tc, dir
}

func TestH15_GlobHonoursReadDeny(t *testing.T) {
	t.Parallel()
	tc, _ := hiddenProject(t)
	cases := []struct {
		input, want, notice string
	}{
		// Every hidden file under the directory searched is counted,
		// whatever the pattern (see TestH15_GlobCountSaysNothingOfNames).
		{`{"pattern":".env"}`, "No files found", "5 files were left out"},
		{`{"pattern":"*.env"}`, "No files found", "5 files were left out"},
		{`{"pattern":"**/*"}`, "main.go", "5 files were left out"},
		{`{"pattern":"secrets/**"}`, "No files found", "2 files were left out"},
		{`{"pattern":"*.pem"}`, "No files found", "5 files were left out"},
		{`{"pattern":"docs/*.md"}`, "a.md", ""},
	}
	for _, c := range cases {
		res := call(t, files.Glob(), tc, c.input)
		listing, notice, _ := strings.Cut(res.Text, "\n[")
		if res.IsError || !strings.Contains(listing, c.want) {
			t.Errorf("Glob %s = %q, want %q", c.input, res.Text, c.want)
		}
		for _, leak := range []string{".env", "secrets", "key.pem", "db.txt", "prod"} {
			if strings.Contains(listing, leak) {
				t.Errorf("Glob %s lists %q:\n%s", c.input, leak, res.Text)
			}
		}
		if c.notice == "" && notice != "" || !strings.Contains(res.Text, c.notice) {
			t.Errorf("Glob %s: notice %q, want %q", c.input, notice, c.notice)
		}
	}
}

func TestH15_LSHonoursReadDeny(t *testing.T) {
	t.Parallel()
	tc, dir := hiddenProject(t)
	res := call(t, files.LS(), tc, `{}`)
	for _, leak := range []string{".env", "secrets", "key.pem", "cert"} {
		if strings.Contains(strings.SplitN(res.Text, "\n[", 2)[0], leak) {
			t.Errorf("LS lists %q:\n%s", leak, res.Text)
		}
	}
	// secrets/, .env, and cert (a link to a hidden file) are left out.
	if !strings.Contains(res.Text, "main.go") || !strings.Contains(res.Text, "3 entries were left out") {
		t.Errorf("LS:\n%s", res.Text)
	}
	res = call(t, files.LS(), tc, `{"path":"config"}`)
	if strings.Contains(res.Text, "prod.env\t") || !strings.Contains(res.Text, "1 entry was left out") {
		t.Errorf("LS config:\n%s", res.Text)
	}
	_ = dir
}

// The number Glob gives for hidden files cannot be used to learn their
// names: patterns that would match a hidden name, a prefix of one, or
// nothing at all get the same answer from the same directory.
func TestH15_GlobCountSaysNothingOfNames(t *testing.T) {
	t.Parallel()
	tc, _ := hiddenProject(t)
	var first string
	for _, pattern := range []string{".env", ".e*", ".x*", "**/key.pem", "**/k*", "**/z*", "**/*.nothing", "*.go"} {
		res := call(t, files.Glob(), tc, `{"pattern":`+quote(pattern)+`}`)
		_, notice, _ := strings.Cut(res.Text, "\n[")
		if first == "" {
			first = notice
		}
		if notice != first || notice == "" {
			t.Errorf("Glob %s: notice %q, want %q for every pattern", pattern, notice, first)
		}
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// A Write over a file the Read rules hide says nothing of what it held: not
// "Unchanged" when the guess was right, not "Overwrote" rather than
// "Created". It writes what it was given (writing is judged as a write).
func TestH16_WriteSaysNothingOfAHiddenFile(t *testing.T) {
	t.Parallel()
	tc, dir := hiddenProject(t)
	if err := os.Symlink(".env", filepath.Join(dir, "innocent")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{".env", "innocent", "secrets/key.pem"} {
		var body string
		if name == "secrets/key.pem" {
			body = "content of secrets/key.pem"
		} else {
			body = "content of .env"
		}
		res := call(t, files.Write(), tc, `{"file_path":"`+name+`","content":"`+body+`"}`)
		if res.IsError || strings.Contains(res.Text, "Unchanged") || strings.Contains(res.Text, "Overwrote") ||
			!strings.HasPrefix(res.Text, "Wrote ") {
			t.Errorf("Write %s with its own content: %q, want a plain Wrote", name, res.Text)
		}
		if res.Meta != nil {
			t.Errorf("Write %s carries a diff of what the hidden file held: %v", name, res.Meta)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, ".env"))
	if err != nil || string(data) != "content of .env" {
		t.Fatalf(".env = %q, %v", data, err)
	}
	// A file the rules do not hide still says Unchanged.
	if res := call(t, files.Write(), tc, `{"file_path":"main.go","content":"content of main.go"}`); !strings.HasPrefix(res.Text, "Unchanged") {
		t.Errorf("Write main.go with its own content: %q, want Unchanged", res.Text)
	}
}

// Write and Edit replace the file (a new file renamed into place), so a
// hard link in the workspace to a file elsewhere never carries the write
// there: the other name keeps its content.
func TestH17_AHardLinkCarriesNoWriteElsewhere(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	outside := filepath.Join(filepath.Dir(dir), filepath.Base(dir)+"-outside")
	if err := os.WriteFile(outside, []byte("orig line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(outside) })
	link := filepath.Join(dir, "hl")
	if err := os.Link(outside, link); err != nil {
		t.Skipf("no hard link between the temp directory and its parent: %v", err)
	}
	if res := call(t, files.Write(), tc, `{"file_path":"hl","content":"written\n"}`); res.IsError {
		t.Fatalf("Write: %s", res.Text)
	}
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outside, link); err != nil {
		t.Fatal(err)
	}
	if res := call(t, files.Edit(), tc, `{"file_path":"hl","old_string":"orig","new_string":"edited"}`); res.IsError {
		t.Fatalf("Edit: %s", res.Text)
	}
	if data, err := os.ReadFile(outside); err != nil || string(data) != "orig line\n" {
		t.Fatalf("the file outside holds %q (%v), want it unchanged", data, err)
	}
	if data, _ := os.ReadFile(link); string(data) != "edited line\n" {
		t.Fatalf("the link holds %q, want the edit", data)
	}
}
