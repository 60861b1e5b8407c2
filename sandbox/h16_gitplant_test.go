package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A commondir a command makes in the workspace's git directory (or a
// submodule's) would send the person's next `git status` to a config of
// the command's making, with an fsmonitor or filters that run outside the
// sandbox: it is gone once the command ends, and the note says so. A
// worktree's own commondir, there before, stays and is read-only, and so
// is info/attributes.
func TestH16_APlantedCommondirIsRemovedWhenTheCommandEnds(t *testing.T) {
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
	os.MkdirAll(filepath.Join(f.ws, ".git", "modules", "lib"), 0o755)
	os.WriteFile(filepath.Join(f.ws, ".git", "modules", "lib", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(f.ws, ".git", "info", "attributes"), []byte("*.txt text\n"), 0o644)
	evil := filepath.Join(f.outside, "evil")
	marker := filepath.Join(f.outside, "ran")
	os.MkdirAll(evil, 0o755)
	os.WriteFile(filepath.Join(evil, "config"), []byte("[core]\n\tfsmonitor = \"touch "+marker+"; false\"\n"), 0o644)

	s := newSandbox(t, f.policy(), Options{})
	mustFail(t, s, f.ws, `echo '* filter=x' > .git/info/attributes`)
	for _, script := range []string{
		`echo ` + evil + ` > .git/commondir`,
		`python3 -c "open('.git/modules/lib/commondir', 'w').write('` + evil + `')"`,
	} {
		mustPass(t, s, f.ws, script)
		notes := strings.Join(s.PlantNotes(), "\n")
		if !strings.Contains(notes, "commondir") || !strings.Contains(notes, "removed") {
			t.Errorf("%q: no note of the removal: %q", script, notes)
		}
	}
	for _, p := range []string{".git/commondir", ".git/modules/lib/commondir"} {
		if exists(filepath.Join(f.ws, p)) {
			t.Errorf("%s is still there after the command", p)
		}
	}
	git(f.ws, "status")
	if exists(marker) {
		t.Fatal("the person's git status ran the planted config")
	}
	if n := s.PlantNotes(); len(n) != 0 {
		t.Errorf("notes handed out twice: %q", n)
	}

	// A linked worktree's commondir is the person's: it stays, read-only.
	git(f.ws, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "one")
	wt := filepath.Join(f.outside, "wt")
	git(f.ws, "worktree", "add", "-q", wt)
	ws := newSandbox(t, Policy{Roots: []string{wt}, Home: f.home, Caches: []string{}}, Options{})
	common := filepath.Join(f.ws, ".git", "worktrees", "wt", "commondir")
	before, _ := os.ReadFile(common)
	mustFail(t, ws, wt, `echo `+evil+` > `+common)
	mustPass(t, ws, wt, `true`)
	if after, _ := os.ReadFile(common); string(after) != string(before) || len(before) == 0 {
		t.Errorf("the worktree's commondir changed: %q -> %q", before, after)
	}
	if n := ws.PlantNotes(); len(n) != 0 {
		t.Errorf("the worktree's own commondir was reported: %q", n)
	}
}

// A repository a command makes and stages as a submodule (`git init sub`,
// a clean filter in its config, `git add sub`) would have the person's
// next `git status` run that filter outside the sandbox: when the command
// ends it is no longer staged, and the note says why. A submodule staged
// before the session, whose config did not change, stays; one made inside
// it and staged in its index is unstaged too.
func TestH16_ASubmoduleStagedWithANewConfigIsUnstaged(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	f := newFixture(t)
	git := func(dir string, args ...string) string {
		t.Helper()
		out, err := gitCmd(f, dir, append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
		return string(out)
	}
	git(f.ws, "init", "-q")
	kept := filepath.Join(f.ws, "kept")
	os.Mkdir(kept, 0o755)
	git(kept, "init", "-q")
	git(kept, "commit", "-q", "--allow-empty", "-m", "kept")
	git(f.ws, "add", "kept")
	marker := filepath.Join(f.outside, "ran")

	s := newSandbox(t, f.policy(), Options{})
	plant := `git init -q %[1]s && cd %[1]s && echo one > a.txt && echo '* filter=x' > .gitattributes &&
git add . && git -c user.name=t -c user.email=t@t commit -q -m x &&
git config filter.x.clean 'touch ` + marker + `; cat' && echo two > a.txt && cd - >/dev/null && git -C %[2]s add %[3]s`
	mustPass(t, s, f.ws, fmt.Sprintf(plant, "sub", ".", "sub"))
	mustPass(t, s, f.ws, fmt.Sprintf(plant, "kept/inner", "kept", "inner"))
	notes := strings.Join(s.PlantNotes(), "\n")
	for _, want := range []string{filepath.Join(f.ws, "sub"), filepath.Join(f.ws, "kept", "inner"), "unstaged"} {
		if !strings.Contains(notes, want) {
			t.Errorf("the notes do not name %s: %q", want, notes)
		}
	}
	staged := git(f.ws, "ls-files", "--stage")
	if strings.Contains(staged, "\tsub") || !strings.Contains(staged, "\tkept") {
		t.Errorf("the project's index after the commands:\n%s", staged)
	}
	if inner := git(kept, "ls-files", "--stage"); strings.Contains(inner, "inner") {
		t.Errorf("kept's index still stages inner:\n%s", inner)
	}
	git(f.ws, "status")
	if exists(marker) {
		t.Fatal("the person's git status ran the planted filter")
	}
	if !exists(filepath.Join(f.ws, "sub", "a.txt")) {
		t.Error("the command's files were removed")
	}
}

// gitCmd is git in dir that never looks above the fixture for a
// repository: these tests break their repositories on purpose, and git
// would otherwise go on to the checkout the tests run in, and commit there.
func gitCmd(f fixture, dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(f.ws))
	return cmd
}

// A script a hook of the person's settings runs (outside the sandbox) is
// read-only for the agent's commands, and cannot be swapped by renaming the
// directory it is in (H16).
func TestH16_AScriptAHookRunsIsReadOnly(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	script := filepath.Join(f.ws, "scripts", "hooks", "lint.sh")
	os.MkdirAll(filepath.Dir(script), 0o755)
	os.WriteFile(script, []byte("#!/bin/sh\necho lint\n"), 0o755)
	os.WriteFile(filepath.Join(f.ws, "scripts", "other.sh"), []byte("echo other\n"), 0o755)
	s := newSandbox(t, f.policy(), Options{})
	s.ProtectRunLater(script, filepath.Join(f.outside, "not-in-the-workspace"))
	for _, cmd := range []string{
		`echo 'touch /tmp/planted' >> scripts/hooks/lint.sh`,
		`python3 -c "open('scripts/hooks/lint.sh','w').write('planted')"`,
		`rm -f scripts/hooks/lint.sh`,
		`mv scripts/hooks scripts/h2 && mkdir scripts/hooks && echo planted > scripts/hooks/lint.sh`,
		`mv scripts s2 && mkdir -p scripts/hooks && echo planted > scripts/hooks/lint.sh`,
	} {
		mustFail(t, s, f.ws, cmd)
	}
	if data, _ := os.ReadFile(script); string(data) != "#!/bin/sh\necho lint\n" {
		t.Errorf("the hook's script was changed: %q", data)
	}
	mustPass(t, s, f.ws, `echo fine >> scripts/other.sh && echo new > scripts/hooks/new.sh`)
}
