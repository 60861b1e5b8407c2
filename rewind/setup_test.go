package rewind

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Opening a store runs no git: the shadow repository is made in line, in
// the background. When git cannot make it, the store still opens, and the
// first checkpoint fails saying why, as every later one does; nothing is
// logged.
func TestAShadowRepositoryGitCannotMakeFailsEveryCheckpointWithWhy(t *testing.T) {
	p := project(t)
	dir := filepath.Join(t.TempDir(), "rewind")
	// A file where git init makes refs/: a real failure of git init.
	write(t, dir, "git/refs", "not a directory\n")
	s := must(Open(Options{Dir: dir, WorkTree: p}))
	defer s.Close()
	for _, label := range []string{"one", "two"} {
		_, err := s.BeginPrompt(ctx, label)
		if err == nil || !strings.Contains(err.Error(), "rewind: creating the shadow repository: git init:") {
			t.Fatalf("checkpoint %q: %v, want the failed git init named", label, err)
		}
	}
	if got := s.List(); len(got) != 0 {
		t.Fatalf("checkpoints logged: %v", got)
	}
}

// Without git there is no shadow repository to make: Open says so at once,
// in the words a failed git init used, and the session runs without
// rewind.
func TestWithoutGitOpenRefusesAtOnce(t *testing.T) {
	p := project(t)
	t.Setenv("PATH", t.TempDir())
	_, err := Open(Options{Dir: filepath.Join(t.TempDir(), "rewind"), WorkTree: p})
	if err == nil || !strings.Contains(err.Error(), `rewind: creating the shadow repository: git init: exec: "git": executable file not found`) {
		t.Fatalf("Open without git: %v", err)
	}
}

// The first checkpoint of a new store, taken right after Open, finds the
// repository git made in line, and git reads what Workbench wrote before it
// (the attributes that turn conversions off).
func TestTheFirstCheckpointFindsTheRepositoryMadeInLine(t *testing.T) {
	p := project(t)
	write(t, p, "crlf.txt", "one\r\ntwo\r\n")
	s := open(t, p)
	c := must(s.BeginPrompt(ctx, "one"))
	if _, err := os.Stat(filepath.Join(s.git.gitDir, "HEAD")); err != nil {
		t.Fatalf("no shadow repository after the first checkpoint: %v", err)
	}
	if got := string(must(s.git.run(ctx, nil, "cat-file", "blob", c.Tree+":crlf.txt"))); got != "one\r\ntwo\r\n" {
		t.Fatalf("recorded %q, want the bytes as they are", got)
	}
	if got := read(t, s.git.gitDir, "info/attributes"); got != attributes {
		t.Fatalf("info/attributes after git init: %q", got)
	}
}
