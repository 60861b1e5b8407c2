package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A submodule's git directory and a core.hooksPath directory in the working
// tree hold hooks git runs at the person's next command: read-only inside,
// while the rest of the git directories stays writable (git submodule
// update and commits work).
func TestH16_SubmoduleAndHooksPathHooksStayReadOnly(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	f := newFixture(t)
	if out, err := exec.Command("git", "-C", f.ws, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	if out, err := exec.Command("git", "-C", f.ws, "config", "core.hooksPath", ".husky/_").CombinedOutput(); err != nil {
		t.Fatalf("git config: %v %s", err, out)
	}
	for _, d := range []string{".git/modules/lib", ".git/modules/group/inner", ".git/modules/lib/modules/nested"} {
		os.MkdirAll(filepath.Join(f.ws, d, "objects"), 0o755)
		os.WriteFile(filepath.Join(f.ws, d, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
		os.WriteFile(filepath.Join(f.ws, d, "config"), []byte("[core]\n"), 0o644)
	}
	s := newSandbox(t, f.policy(), Options{})
	for _, script := range []string{
		`echo x > .git/modules/lib/hooks/post-checkout`,
		`echo '[core] hooksPath = /tmp' >> .git/modules/lib/config`,
		`echo x > .git/modules/group/inner/hooks/pre-commit`,
		`echo x > .git/modules/lib/modules/nested/hooks/pre-commit`,
		`echo x > .husky/_/pre-commit`,
		`mv .husky h && mkdir -p .husky/_ && echo x > .husky/_/pre-commit`,
		`mv .git/modules/lib .git/modules/lib2 && mkdir -p .git/modules/lib/hooks && echo x > .git/modules/lib/hooks/post-checkout`,
		`mv .git/modules .git/m2 && mkdir -p .git/modules/lib/hooks && echo x > .git/modules/lib/hooks/post-checkout`,
		`python3 -c "import os; os.rename('.git/modules/group', '.git/g2')"`,
	} {
		mustFail(t, s, f.ws, script)
	}
	mustPass(t, s, f.ws, `echo x > .git/modules/lib/objects/pack-test && echo y > .husky-not-hooks`)
	for _, p := range []string{".git/modules/lib/hooks/post-checkout", ".git/modules/group/inner/hooks/pre-commit",
		".git/modules/lib/modules/nested/hooks/pre-commit", ".husky/_/pre-commit"} {
		if exists(filepath.Join(f.ws, p)) {
			t.Errorf("%s was planted", p)
		}
	}
}

// A core.hooksPath set, or a submodule made, after the session started is
// read-only from the next command on, and so are the directories on the
// way to it: none can be moved aside for a look-alike with a planted hook.
func TestH16_HooksMadeMidSessionAreProtectedFromTheNextCommand(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	f := newFixture(t)
	if out, err := exec.Command("git", "-C", f.ws, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	s := newSandbox(t, f.policy(), Options{})
	mustPass(t, s, f.ws, `true`) // the session's first command, before either exists
	if out, err := exec.Command("git", "-C", f.ws, "config", "core.hooksPath", ".husky/_").CombinedOutput(); err != nil {
		t.Fatalf("git config: %v %s", err, out)
	}
	lib := filepath.Join(f.ws, ".git/modules/lib")
	os.MkdirAll(filepath.Join(lib, "objects"), 0o755)
	os.WriteFile(filepath.Join(lib, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(lib, "config"), []byte("[core]\n"), 0o644)
	for _, script := range []string{
		`echo x > .husky/_/pre-commit`,
		`mv .husky h && mkdir -p .husky/_ && echo x > .husky/_/pre-commit`,
		`python3 -c "import os; os.rename('.husky', 'h2'); os.makedirs('.husky/_'); open('.husky/_/pre-push','w')"`,
		`echo x > .git/modules/lib/hooks/post-checkout`,
		`mv .git/modules/lib .git/modules/lib2 && mkdir -p .git/modules/lib/hooks && echo x > .git/modules/lib/hooks/post-checkout`,
		`mv .git/modules .git/m2 && mkdir -p .git/modules/lib/hooks && echo x > .git/modules/lib/hooks/post-checkout`,
	} {
		mustFail(t, s, f.ws, script)
	}
	for _, p := range []string{".husky/_/pre-commit", ".husky/_/pre-push", ".git/modules/lib/hooks/post-checkout"} {
		if exists(filepath.Join(f.ws, p)) {
			t.Errorf("%s was planted", p)
		}
	}
	mustPass(t, s, f.ws, `echo x > .git/modules/lib/objects/pack-test && echo y > .husky-not-hooks`)
}
