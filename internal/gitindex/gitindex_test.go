package gitindex

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// The index reader agrees with git on every index version.
func TestGitlinksReadsEveryVersion(t *testing.T) {
	ws := t.TempDir()
	gitIn(t, ws, "init", "-q")
	for _, name := range []string{"a", "bb/c", "bb/dd/eeeeeeeeeeeeeee", "zz"} {
		os.MkdirAll(filepath.Dir(filepath.Join(ws, name)), 0o755)
		os.WriteFile(filepath.Join(ws, name), []byte(name), 0o644)
	}
	gitIn(t, ws, "add", ".")
	const sha = "0123456789abcdef0123456789abcdef01234567"
	gitIn(t, ws, "update-index", "--add", "--cacheinfo", "160000,"+sha+",bb/link")
	gitIn(t, ws, "update-index", "--add", "--cacheinfo", "160000,"+sha+",mm")
	for _, v := range []string{"2", "3", "4"} {
		gitIn(t, ws, "update-index", "--index-version", v)
		if v == "3" {
			gitIn(t, ws, "update-index", "--skip-worktree", "a") // an extended flag
		}
		links, err := Gitlinks(filepath.Join(ws, ".git", "index"))
		if err != nil {
			t.Fatalf("version %s: %v", v, err)
		}
		if strings.Join(links, ",") != "bb/link,mm" {
			t.Errorf("version %s: gitlinks %v, want bb/link and mm", v, links)
		}
	}
}

// A file that is not an index, or is cut short, is an error, not an empty
// list: the callers then ask git.
func TestGitlinksRefusesWhatItCannotRead(t *testing.T) {
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	os.WriteFile(filepath.Join(dir, "a"), []byte("a"), 0o644)
	gitIn(t, dir, "add", "a")
	data, _ := os.ReadFile(filepath.Join(dir, ".git", "index"))
	for name, b := range map[string][]byte{"not an index": []byte("hello world!"), "cut": data[:40], "version 9": append([]byte("DIRC\x00\x00\x00\x09"), data[8:]...)} {
		p := filepath.Join(dir, "x")
		os.WriteFile(p, b, 0o644)
		if _, err := Gitlinks(p); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if links, err := Gitlinks(filepath.Join(dir, "missing")); err != nil || links != nil {
		t.Errorf("a missing index: %v %v", links, err)
	}
}

// The fallback reads git's own listing the same way.
func TestParseLsFilesPicksTheGitlinks(t *testing.T) {
	out := []byte("100644 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 0\ta b\x00160000 0123456789abcdef0123456789abcdef01234567 0\tsub dir\x00")
	if got := ParseLsFiles(out); len(got) != 1 || got[0] != "sub dir" {
		t.Errorf("got %q", got)
	}
}
