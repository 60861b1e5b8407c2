package rewind

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/internal/gitindex"
)

// gitIn runs git in dir with the person's identity given on the command
// line, failing the test on error.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// plantRepo makes dir a repository with one committed file whose config
// runs touch MARKER from a clean filter and from an fsmonitor, and changes
// the file afterwards, so that `git status` in it runs both.
func plantRepo(t *testing.T, dir, marker string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "init", "-q")
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("* filter=planted\n"), 0o644)
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "planted")
	gitIn(t, dir, "config", "core.fsmonitor", "touch "+marker+"; false")
	gitIn(t, dir, "config", "filter.planted.clean", "touch "+marker+"; cat")
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("two\n"), 0o644)
}

// A repository below the work tree (made by a sandboxed `git init`, with a
// config the command wrote) is never asked anything by a checkpoint:
// `git add` of the shadow repository would run `git status` inside it, with
// its filters, outside the sandbox, before the next tool call (H16).
func TestH16_ANestedRepositorysConfigNeverRunsAtACheckpoint(t *testing.T) {
	ws := t.TempDir()
	marker := filepath.Join(t.TempDir(), "ran")
	plantRepo(t, filepath.Join(ws, "sub"), marker)
	plantRepo(t, filepath.Join(ws, "deep", "er", "sub2"), marker)
	// A .git file pointing at a git directory elsewhere, as a submodule's.
	elsewhere := filepath.Join(t.TempDir(), "elsewhere")
	plantRepo(t, elsewhere, marker)
	os.MkdirAll(filepath.Join(ws, "pointer"), 0o755)
	os.WriteFile(filepath.Join(ws, "pointer", ".git"), []byte("gitdir: "+filepath.Join(elsewhere, ".git")+"\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "pointer", "a.txt"), []byte("changed\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "top.txt"), []byte("top\n"), 0o644)

	s, err := Open(Options{Dir: t.TempDir(), WorkTree: ws})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for i := range 3 {
		os.WriteFile(filepath.Join(ws, "sub", "a.txt"), []byte(strings.Repeat("x", i+3)+"\n"), 0o644)
		os.WriteFile(filepath.Join(ws, "top.txt"), []byte(strings.Repeat("t", i+3)+"\n"), 0o644)
		if _, err := s.Checkpoint(ctx, Meta{Kind: KindCall}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("checkpoint %d ran a nested repository's filter or fsmonitor", i+1)
		}
	}
	if _, err := s.Dirty(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("listing the changes ran a nested repository's config")
	}
	// The work tree's own files are still recorded; the nested
	// repositories are not, not even as gitlinks.
	tracked := gitIn(t, ws, "--git-dir", s.git.gitDir, "--work-tree", ws, "ls-files", "--stage")
	if !strings.Contains(tracked, "\ttop.txt") {
		t.Errorf("top.txt is not recorded:\n%s", tracked)
	}
	for _, l := range strings.Split(tracked, "\n") {
		if strings.HasPrefix(l, "160000 ") || strings.Contains(l, "sub/") || strings.Contains(l, "pointer/") {
			t.Errorf("a nested repository is in the shadow index: %s", l)
		}
	}
}

// An index that already holds a gitlink (a store from before this rule, or
// a seed) loses it before the first `git add` can look into it.
func TestH16_AGitlinkAlreadyInTheShadowIndexIsDroppedFirst(t *testing.T) {
	ws := t.TempDir()
	marker := filepath.Join(t.TempDir(), "ran")
	sub := filepath.Join(ws, "sub")
	plantRepo(t, sub, marker)
	head := gitIn(t, sub, "rev-parse", "HEAD")
	dir := t.TempDir()
	s, err := Open(Options{Dir: dir, WorkTree: ws})
	if err != nil {
		t.Fatal(err)
	}
	gitDir := s.git.gitDir
	s.Close()
	gitIn(t, ws, "--git-dir", gitDir, "--work-tree", ws, "update-index", "--add", "--cacheinfo", "160000,"+head+",sub")
	if links, err := gitindex.Gitlinks(filepath.Join(gitDir, "index")); err != nil || len(links) != 1 {
		t.Fatalf("the planted gitlink: %v %v", links, err)
	}
	s, err = Open(Options{Dir: dir, WorkTree: ws})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Checkpoint(context.Background(), Meta{Kind: KindCall}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the first checkpoint ran the nested repository's config")
	}
}
