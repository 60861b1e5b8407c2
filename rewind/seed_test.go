package rewind

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func openShared(t *testing.T, project, shared string, ignore ...string) *Store {
	t.Helper()
	s, err := Open(Options{Dir: filepath.Join(t.TempDir(), "rewind"), WorkTree: project, Shared: shared, Ignore: ignore})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// indexed lists the store's index once the work queued before it (the
// seed's clean-up after Open) is done.
func indexed(t *testing.T, s *Store) string {
	t.Helper()
	defer s.line.enter()()
	out, err := s.git.run(ctx, nil, "ls-files")
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// A project's next session starts from the index the last one left, so
// its first checkpoint hashes only what changed; its objects are shared, so
// each session restores its own checkpoints and a file the seed recorded
// that is ignored now is not recorded again.
func TestANewSessionStartsFromTheLastSessionsIndex(t *testing.T) {
	p := project(t)
	shared := filepath.Join(t.TempDir(), "project")
	first := openShared(t, p, shared)
	must(first.BeginPrompt(ctx, "one"))
	write(t, p, "notes.txt", "notes\n")
	must(first.EndPrompt(ctx))
	first.Close()

	write(t, p, ".gitignore", "*.log\nnotes.txt\n")
	write(t, p, "a.txt", "a in the second session\n")
	second := openShared(t, p, shared)
	if got := indexed(t, second); got != ".gitignore a.txt b.txt" {
		t.Fatalf("the second session's index before its first checkpoint holds %q, want the first session's files less the newly ignored notes.txt", got)
	}
	c := must(second.BeginPrompt(ctx, "two"))
	out := must(second.git.run(ctx, nil, "ls-tree", "-r", "--name-only", c.Tree))
	if got := strings.Join(strings.Fields(string(out)), " "); got != ".gitignore a.txt b.txt" {
		t.Fatalf("the second session's first checkpoint recorded %q", got)
	}
	agentWork(t, p)
	must(second.EndPrompt(ctx))
	must(second.RestorePrompt(ctx, 1, RestoreOptions{}))
	if read(t, p, "a.txt") != "a in the second session\n" || read(t, p, "b.txt") != "b\n" || exists(p, "new/c.txt") {
		t.Fatalf("the second session did not restore its own checkpoint: a=%q", read(t, p, "a.txt"))
	}
	entries, _ := os.ReadDir(filepath.Join(second.git.gitDir, "objects"))
	for _, e := range entries {
		if len(e.Name()) == 2 {
			t.Errorf("the session wrote objects of its own (%s) instead of the shared directory", e.Name())
		}
	}
	// The commits Workbench writes itself are ones git reads and checks.
	if out, err := second.git.run(ctx, nil, "fsck", "--strict", "--no-dangling", "refs/workbench/checkpoints"); err != nil {
		t.Errorf("git fsck: %v %s", err, out)
	}
	if n := strings.TrimSpace(string(must(second.git.run(ctx, nil, "rev-list", "--count", "refs/workbench/checkpoints")))); n != "3" {
		t.Errorf("the checkpoints' history has %s commits, want 3 (prompt, its end, the restored state)", n)
	}
}

// Sessions with other rewind.ignore patterns keep seeds of their own: a
// file one session ignores is still recorded by another.
func TestSeedsAreKeptPerIgnorePatterns(t *testing.T) {
	p := project(t)
	shared := filepath.Join(t.TempDir(), "project")
	a := openShared(t, p, shared, "b.txt")
	must(a.BeginPrompt(ctx, "one"))
	a.Close()
	b := openShared(t, p, shared)
	if got := indexed(t, b); got != "" {
		t.Fatalf("a session with other patterns started from the seed of another: %q", got)
	}
	c := must(b.BeginPrompt(ctx, "two"))
	out := must(b.git.run(ctx, nil, "ls-tree", "-r", "--name-only", c.Tree))
	if got := strings.Join(strings.Fields(string(out)), " "); got != ".gitignore a.txt b.txt" {
		t.Fatalf("recorded %q", got)
	}
}

// A store made before objects were shared keeps restoring its checkpoints
// when it is opened with a shared directory: its own objects are still read.
func TestAStoreMadeBeforeSharingStillRestores(t *testing.T) {
	p := project(t)
	dir := filepath.Join(t.TempDir(), "rewind")
	old := must(Open(Options{Dir: dir, WorkTree: p}))
	must(old.BeginPrompt(ctx, "one"))
	agentWork(t, p)
	must(old.EndPrompt(ctx))
	old.Close()
	s := must(Open(Options{Dir: dir, WorkTree: p, Shared: filepath.Join(t.TempDir(), "project")}))
	defer s.Close()
	rep := must(s.RestorePrompt(ctx, 1, RestoreOptions{}))
	if read(t, p, "a.txt") != "a\n" || read(t, p, "b.txt") != "b\n" || len(rep.Failed) > 0 {
		t.Fatalf("restore of an old store: a=%q failed=%v", read(t, p, "a.txt"), rep.Failed)
	}
}
