package rewind

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var ctx = context.Background()

func write(t testing.TB, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func exists(dir, rel string) bool {
	_, err := os.Lstat(filepath.Join(dir, rel))
	return err == nil
}

func open(t *testing.T, project string, ignore ...string) *Store {
	t.Helper()
	s, err := Open(Options{Dir: filepath.Join(t.TempDir(), "rewind"), WorkTree: project, Ignore: ignore})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// must stops the test on an error; a panic fails the test with its stack.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func changeList(cs []Change) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// agentWork is what a prompt does in these tests: one file rewritten, one
// deleted, one created in a new directory, an ignored file changed.
func agentWork(t *testing.T, p string) {
	write(t, p, "a.txt", "a changed\n")
	os.Remove(filepath.Join(p, "b.txt"))
	write(t, p, "new/c.txt", "c\n")
	write(t, p, "build.log", "log after\n")
}

func project(t *testing.T) string {
	p := t.TempDir()
	write(t, p, "a.txt", "a\n")
	write(t, p, "b.txt", "b\n")
	write(t, p, ".gitignore", "*.log\n")
	write(t, p, "build.log", "log before\n")
	return p
}

func TestRestoreTakesTheTreeBackToBeforeAPrompt(t *testing.T) {
	p := project(t)
	s := open(t, p)
	must(s.BeginPrompt(ctx, "first"))
	must(s.EndPrompt(ctx))
	must(s.BeginPrompt(ctx, "second\nwith more lines"))
	agentWork(t, p)
	must(s.EndPrompt(ctx))

	prompts := must(s.Prompts(ctx))
	if len(prompts) != 2 || prompts[1].N != 2 || prompts[1].Label != "second …" {
		t.Fatalf("prompts = %+v", prompts)
	}
	if got := changeList(prompts[1].Files); got != "A new/c.txt, D b.txt, M a.txt" {
		t.Fatalf("files of prompt 2 = %s", got)
	}
	if len(prompts[0].Files) != 0 {
		t.Fatalf("prompt 1 changed nothing, listed %v", prompts[0].Files)
	}

	rep := must(s.RestorePrompt(ctx, 2, RestoreOptions{}))
	if got := changeList(rep.Changed); got != "A b.txt, D new/c.txt, M a.txt" {
		t.Fatalf("report = %s", got)
	}
	if read(t, p, "a.txt") != "a\n" || read(t, p, "b.txt") != "b\n" || exists(p, "new/c.txt") || exists(p, "new") {
		t.Fatalf("not restored: a=%q b=%q c=%v new=%v", read(t, p, "a.txt"), read(t, p, "b.txt"), exists(p, "new/c.txt"), exists(p, "new"))
	}
	if read(t, p, "build.log") != "log after\n" {
		t.Fatalf("an ignored file was touched: %q", read(t, p, "build.log"))
	}

	// The restore can itself be undone.
	rep = must(s.Undo(ctx, RestoreOptions{}))
	if read(t, p, "a.txt") != "a changed\n" || exists(p, "b.txt") || read(t, p, "new/c.txt") != "c\n" {
		t.Fatalf("undo did not bring the work back: %s", changeList(rep.Changed))
	}
}

func TestModesAndLinksComeBack(t *testing.T) {
	p := project(t)
	write(t, p, "run.sh", "#!/bin/sh\n")
	os.Chmod(filepath.Join(p, "run.sh"), 0o755)
	os.Symlink("a.txt", filepath.Join(p, "link"))
	s := open(t, p)
	must(s.BeginPrompt(ctx, "p"))
	os.Chmod(filepath.Join(p, "run.sh"), 0o644)
	os.Remove(filepath.Join(p, "link"))
	write(t, p, "link", "now a file\n")
	must(s.EndPrompt(ctx))
	must(s.RestorePrompt(ctx, 1, RestoreOptions{}))
	st, _ := os.Stat(filepath.Join(p, "run.sh"))
	if st.Mode().Perm()&0o100 == 0 {
		t.Fatalf("run.sh lost its executable bit: %v", st.Mode())
	}
	if target, err := os.Readlink(filepath.Join(p, "link")); err != nil || target != "a.txt" {
		t.Fatalf("link = %q, %v", target, err)
	}
}

func TestFilesChangedAfterTheLastCheckpointStopARestore(t *testing.T) {
	p := project(t)
	s := open(t, p)
	must(s.BeginPrompt(ctx, "p"))
	agentWork(t, p)
	must(s.EndPrompt(ctx))
	write(t, p, "a.txt", "the person's own edit\n")

	dirty := must(s.Dirty(ctx))
	if changeList(dirty) != "M a.txt" {
		t.Fatalf("dirty = %v", dirty)
	}
	before := len(s.List())
	_, err := s.RestorePrompt(ctx, 1, RestoreOptions{})
	var de *DirtyError
	if !errors.As(err, &de) || changeList(de.Files) != "M a.txt" || !strings.Contains(err.Error(), "a.txt") {
		t.Fatalf("err = %v", err)
	}
	if read(t, p, "a.txt") != "the person's own edit\n" || len(s.List()) != before {
		t.Fatal("a refused restore changed something")
	}
	// Asking again still asks: the refusal recorded nothing.
	if _, err := s.RestorePrompt(ctx, 1, RestoreOptions{}); !errors.As(err, &de) {
		t.Fatalf("second try: %v", err)
	}
	rep := must(s.RestorePrompt(ctx, 1, RestoreOptions{Force: true}))
	if read(t, p, "a.txt") != "a\n" {
		t.Fatal("forced restore did not restore")
	}
	// The person's edit is in the undo checkpoint.
	must(s.RestoreCheckpoint(ctx, rep.Undo.ID, RestoreOptions{}))
	if read(t, p, "a.txt") != "the person's own edit\n" {
		t.Fatal("the person's edit was lost")
	}
}

func TestBadRewindsSayWhyAndChangeNothing(t *testing.T) {
	p := project(t)
	s := open(t, p)
	if _, err := s.RestorePrompt(ctx, 1, RestoreOptions{}); !errors.Is(err, ErrNoCheckpoints) {
		t.Fatalf("no checkpoints: %v", err)
	}
	if _, err := s.Undo(ctx, RestoreOptions{}); err == nil {
		t.Fatal("undo without a rewind succeeded")
	}
	must(s.BeginPrompt(ctx, "p"))
	agentWork(t, p)
	must(s.EndPrompt(ctx))
	for _, n := range []int{0, 2, -1, 99} {
		_, err := s.RestorePrompt(ctx, n, RestoreOptions{})
		if err == nil || !strings.Contains(err.Error(), "numbered 1 to 1") {
			t.Fatalf("prompt %d: %v", n, err)
		}
	}
	if _, err := s.RestoreCheckpoint(ctx, 42, RestoreOptions{}); err == nil {
		t.Fatal("checkpoint 42 restored")
	}
	if read(t, p, "a.txt") != "a changed\n" || !exists(p, "new/c.txt") {
		t.Fatal("a refused rewind changed files")
	}
}

func TestALogCutOffByACrashKeepsItsWholeLines(t *testing.T) {
	p := project(t)
	dir := filepath.Join(t.TempDir(), "rewind")
	s := must(Open(Options{Dir: dir, WorkTree: p}))
	must(s.BeginPrompt(ctx, "p"))
	s.Close()
	f, _ := os.OpenFile(filepath.Join(dir, "checkpoints.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"id":2,"kind":"end","tr`)
	f.Close()
	s = must(Open(Options{Dir: dir, WorkTree: p}))
	defer s.Close()
	if n := len(s.List()); n != 1 {
		t.Fatalf("%d checkpoints after a cut-off line", n)
	}
	c := must(s.EndPrompt(ctx))
	if c.ID != 2 {
		t.Fatalf("next checkpoint is %d", c.ID)
	}
	s.Close()
	// A line broken in the middle of the log is an error, not a guess.
	os.WriteFile(filepath.Join(dir, "checkpoints.jsonl"), []byte("{bad\n{\"id\":1}\n"), 0o600)
	if _, err := Open(Options{Dir: dir, WorkTree: p}); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("corrupt log: %v", err)
	}
}

func TestProtectedPlacesAreNeverRecordedNorRestored(t *testing.T) {
	p := project(t)
	write(t, p, ".mcp.json", "{}")
	write(t, p, ".claude/settings.json", "{}")
	write(t, p, ".workbench/settings.json", "{}")
	write(t, p, "sub/.MCP.json", "{}")
	s := open(t, p)
	c := must(s.BeginPrompt(ctx, "p"))
	out := must(s.git.run(ctx, nil, "ls-tree", "-r", "--name-only", c.Tree))
	for _, name := range strings.Fields(string(out)) {
		if protectedPath(name) != "" {
			t.Fatalf("%s recorded", name)
		}
	}
	for _, f := range []string{".mcp.json", ".claude/settings.json", ".workbench/settings.json"} {
		write(t, p, f, `{"changed":true}`)
	}
	must(s.EndPrompt(ctx))
	must(s.RestorePrompt(ctx, 1, RestoreOptions{}))
	for _, f := range []string{".mcp.json", ".claude/settings.json", ".workbench/settings.json"} {
		if read(t, p, f) != `{"changed":true}` {
			t.Fatalf("%s was restored", f)
		}
	}
	for _, c := range []string{".git/config", "x/.Git/hooks/pre-commit", ".claude/agents/a.md", "a/.workbench/s.json", "deep/.mcp.json"} {
		if protectedPath(c) == "" {
			t.Errorf("%s is not protected", c)
		}
	}
	if protectedPath("src/git/x.go") != "" || protectedPath("claude.md") != "" {
		t.Error("an ordinary path is protected")
	}
}

func TestARestoreFollowsNoLink(t *testing.T) {
	p := project(t)
	write(t, p, "src/x.go", "package x\n")
	outside := t.TempDir()
	s := open(t, p)
	must(s.BeginPrompt(ctx, "p"))
	// The directory becomes a link to somewhere else.
	os.RemoveAll(filepath.Join(p, "src"))
	os.Symlink(outside, filepath.Join(p, "src"))
	must(s.EndPrompt(ctx))
	must(s.RestorePrompt(ctx, 1, RestoreOptions{}))
	if st, err := os.Lstat(filepath.Join(p, "src")); err != nil || !st.IsDir() {
		t.Fatalf("src is not a directory again: %v", err)
	}
	if read(t, p, "src/x.go") != "package x\n" {
		t.Fatal("src/x.go not restored")
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Fatalf("the restore wrote through the link: %v", ents)
	}

	// A link planted under a path that the diff does not name is refused.
	fs := must(openWorkFS(p))
	defer fs.close()
	os.Symlink(outside, filepath.Join(p, "planted"))
	if err := fs.writeFile("planted/f", []byte("x"), 0o644); err == nil {
		t.Fatal("wrote through a planted link")
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Fatalf("the write went through the link: %v", ents)
	}
}

func TestTheRewindIgnoreSettingLeavesFilesAlone(t *testing.T) {
	p := project(t)
	write(t, p, "data/big.bin", "v1")
	s := open(t, p, "data/")
	must(s.BeginPrompt(ctx, "p"))
	write(t, p, "data/big.bin", "v2")
	write(t, p, "a.txt", "changed")
	must(s.EndPrompt(ctx))
	prompts := must(s.Prompts(ctx))
	if got := changeList(prompts[0].Files); got != "M a.txt" {
		t.Fatalf("files = %s", got)
	}
	must(s.RestorePrompt(ctx, 1, RestoreOptions{}))
	if read(t, p, "data/big.bin") != "v2" || read(t, p, "a.txt") != "a\n" {
		t.Fatal("rewind.ignore not honoured")
	}
	if _, err := Open(Options{Dir: t.TempDir(), WorkTree: p, Ignore: []string{"a\nb"}}); err == nil {
		t.Fatal("a pattern with a newline was accepted")
	}
}

func gitState(t *testing.T, p string) string {
	t.Helper()
	cmd := exec.Command("git", "status", "--porcelain", "--ignored")
	cmd.Dir = p
	// GIT_OPTIONAL_LOCKS=0: status itself must not refresh the index.
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_OPTIONAL_LOCKS=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git status: %v\n%s", err, out)
	}
	var b strings.Builder
	b.Write(out)
	filepath.Walk(filepath.Join(p, ".git"), func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			data, _ := os.ReadFile(path)
			b.WriteString(fmt.Sprintf("%s %v %x\n", path, info.ModTime(), sha256.Sum256(data)))
		}
		return nil
	})
	return b.String()
}

func TestInsideAGitRepositoryItsGitIsUntouched(t *testing.T) {
	p := project(t)
	for _, args := range [][]string{{"init", "-q"}, {"add", "a.txt", ".gitignore"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = p
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write(t, p, ".git/info/exclude", "private.txt\n")
	write(t, p, "private.txt", "mine")
	before := gitState(t, p)
	s := open(t, p)
	c := must(s.BeginPrompt(ctx, "p"))
	agentWork(t, p)
	write(t, p, "private.txt", "changed")
	must(s.EndPrompt(ctx))
	must(s.RestorePrompt(ctx, 1, RestoreOptions{}))
	if after := gitState(t, p); after != before {
		t.Fatalf("the project's git changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	out := must(s.git.run(ctx, nil, "ls-tree", "-r", "--name-only", c.Tree))
	if got := strings.Fields(string(out)); strings.Join(got, " ") != ".gitignore a.txt b.txt" {
		t.Fatalf("recorded %v (b.txt is untracked in the project, private.txt excluded)", got)
	}
	if read(t, p, "private.txt") != "changed" {
		t.Fatal("a file the project's info/exclude ignores was restored")
	}
}

func TestOneProcessAtATimeHasASessionsCheckpoints(t *testing.T) {
	p := project(t)
	dir := filepath.Join(t.TempDir(), "rewind")
	s := must(Open(Options{Dir: dir, WorkTree: p}))
	if _, err := Open(Options{Dir: dir, WorkTree: p}); !errors.Is(err, ErrInUse) {
		t.Fatalf("second open: %v", err)
	}
	s.Close()
	s = must(Open(Options{Dir: dir, WorkTree: p}))
	s.Close()
}
