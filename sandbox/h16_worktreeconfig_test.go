package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A repository with extensions.worktreeConfig on (every sparse checkout
// has it) reads .git/config.worktree as config. Where that file is
// missing, a command could make it with a core.fsmonitor, and the
// person's next `git status` would run it outside the sandbox: it is
// removed when the command ends, with a note. Where it exists it is
// read-only, like .git/config.
func TestH16_APlantedWorktreeConfigIsRemovedWhenTheCommandEnds(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	f := newFixture(t)
	git := func(dir string, args ...string) string {
		t.Helper()
		out, err := gitCmd(f, dir, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
		return string(out)
	}
	git(f.ws, "init", "-q")
	git(f.ws, "config", "extensions.worktreeConfig", "true")
	marker := filepath.Join(f.outside, "ran")
	plant := `[core]
	fsmonitor = "touch ` + marker + `; false"
`
	s := newSandbox(t, f.policy(), Options{})
	mustPass(t, s, f.ws, `python3 -c "import sys; open('.git/config.worktree', 'w').write(sys.argv[1])" '`+plant+`'`)
	notes := strings.Join(s.PlantNotes(), "\n")
	if !strings.Contains(notes, "config.worktree") || !strings.Contains(notes, "removed") {
		t.Errorf("no note of the removal: %q", notes)
	}
	if exists(filepath.Join(f.ws, ".git", "config.worktree")) {
		t.Error(".git/config.worktree is still there after the command")
	}
	git(f.ws, "status")
	if exists(marker) {
		t.Fatal("the person's git status ran the planted worktree config")
	}

	// The person's own worktree config stays, and is read-only.
	own := filepath.Join(f.ws, ".git", "config.worktree")
	if err := os.WriteFile(own, []byte("[core]\n\tsparseCheckout = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s2 := newSandbox(t, f.policy(), Options{})
	mustFail(t, s2, f.ws, `printf '%s' '`+plant+`' >> .git/config.worktree`)
	mustPass(t, s2, f.ws, `true`)
	if data, _ := os.ReadFile(own); strings.Contains(string(data), "fsmonitor") {
		t.Errorf("the worktree config was changed: %q", data)
	}
	if n := s2.PlantNotes(); len(n) != 0 {
		t.Errorf("the person's own worktree config was reported: %q", n)
	}
}

// A command that plants a commondir and goes on running (a background
// task) does not keep it until it ends: planted files are looked for while
// confined commands run, so the person's git status in another terminal
// meanwhile reads no config of the command's making.
func TestH16_APlantIsRemovedWhileItsCommandStillRuns(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	f := newFixture(t)
	if out, err := gitCmd(f, f.ws, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	s := newSandbox(t, f.policy(), Options{})
	planted := filepath.Join(f.ws, ".git", "commondir")
	cmd := exec.Command("bash", "-c", `echo /elsewhere > .git/commondir && touch started && sleep 30`)
	cmd.Dir = f.ws
	p, release, err := s.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Kill(p.Pid(), syscall.SIGKILL)
		p.Wait()
		release()
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !exists(filepath.Join(f.ws, "started")) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	for exists(planted) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if exists(planted) {
		t.Fatal("the planted commondir stayed while its command ran")
	}
	if notes := strings.Join(s.PlantNotes(), "\n"); !strings.Contains(notes, "commondir") {
		t.Errorf("no note of the removal: %q", notes)
	}
}
