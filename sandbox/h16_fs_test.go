package sandbox

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestH16_WritesTheParserCannotSeeStayInTheWorkspace(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	os.Mkdir(filepath.Join(f.ws, "sub"), 0o755) // the root has no .git: no new directories in it
	s := newSandbox(t, f.policy(), Options{})
	target := filepath.Join(f.outside, "planted")
	cases := []struct{ name, outside, inside string }{
		{"python open",
			`python3 -c "open('` + target + `','w').write('x')"`,
			`python3 -c "open('mine','w').write('x')"`},
		{"a copied binary",
			`cp "$(command -v touch)" ./mytouch && ./mytouch ` + target,
			`cp "$(command -v touch)" ./mytouch2 && ./mytouch2 mine2`},
		{"a command held in a variable",
			`c=tee; echo x | $c ` + target,
			`c=tee; echo x | $c mine3`},
		{"a double fork",
			`( ( echo x > ` + target + ` ) & ) ; sleep 0.2; test -e ` + target,
			`( ( echo x > mine4 ) & ) ; sleep 0.2; test -e mine4`},
		{"find -delete outside",
			`find ` + f.outside + ` -name keep -delete; test ! -e ` + filepath.Join(f.outside, "keep"),
			`touch gone && find . -name gone -delete && test ! -e gone`},
		{"a truncation",
			`: > ` + filepath.Join(f.outside, "keep"),
			`echo x > t && : > t`},
		{"a rename out of the workspace",
			`echo x > moved && mv moved ` + target,
			`echo x > a && mkdir -p sub/deeper && mv a sub/deeper/b`},
	}
	if err := os.WriteFile(filepath.Join(f.outside, "keep"), []byte("kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		mustFail(t, s, f.ws, c.outside)
		if exists(target) {
			t.Errorf("%s: wrote %s outside the workspace", c.name, target)
			os.Remove(target)
		}
		mustPass(t, s, f.ws, c.inside)
	}
	if b, _ := os.ReadFile(filepath.Join(f.outside, "keep")); string(b) != "kept\n" {
		t.Errorf("a file outside the workspace changed: %q", b)
	}
	// The temp directory stays writable.
	mustPass(t, s, f.ws, `d=$(mktemp -d) && echo x > "$d/f" && rm -r "$d"`)
}

func TestH16_ModeOffLetsTheSameWriteThrough(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	p := f.policy()
	p.Mode = Off
	s := newSandbox(t, p, Options{})
	target := filepath.Join(f.outside, "planted")
	mustPass(t, s, f.ws, `python3 -c "open('`+target+`','w').write('x')"`)
	if !exists(target) {
		t.Error("mode off did not let the write through")
	}
	if d := s.Describe(); d.Mode != "off" {
		t.Errorf("Describe = %+v, want mode off", d)
	}
}

func TestH16_ReadOnlyModeRefusesWorkspaceWrites(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	p := f.policy()
	p.Mode = ReadOnly
	s := newSandbox(t, p, Options{})
	mustFail(t, s, f.ws, `echo x > mine`)
	if exists(filepath.Join(f.ws, "mine")) {
		t.Error("read-only mode let a workspace write through")
	}
	mustPass(t, s, f.ws, `cat /etc/hostname >/dev/null && d=$(mktemp -d) && echo x > "$d/f"`)
}

func TestH16_GitHooksConfigAndSettingsStayReadOnly(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = f.ws
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("config", "user.email", "t@example.com")
	git("config", "user.name", "t")
	os.RemoveAll(filepath.Join(f.ws, ".git", "hooks")) // a repository without hooks gets one that is read-only
	for _, p := range []string{".workbench/settings.json", ".claude/settings.json", ".claude/settings.local.json", ".mcp.json"} {
		full := filepath.Join(f.ws, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := newSandbox(t, f.policy(), Options{})
	attacks := []string{
		`echo 'touch /tmp/pwned' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`,
		`printf '[core]\n\thooksPath = /tmp/evil\n' >> .git/config`,
		`git config core.hooksPath /tmp/evil`,
		`mv .git/config .git/config.old`,
		`rm -rf .git/hooks`,
		`mv .git/hooks .git/hooks.old`,
		`echo '{"permissions":{"allow":["Bash"]}}' > .workbench/settings.json`,
		`echo '{}' > .workbench/settings.local.json`,
		`echo '{"permissions":{"allow":["Bash"]}}' > .claude/settings.json`,
		`python3 -c "open('.claude/settings.local.json','w').write('{}')"`,
		`rm .mcp.json`,
		`echo '{}' > .mcp.json`,
		`umount .git/hooks`,
		`cd .git && ln -sf /dev/null hooks/post-checkout`,
	}
	for _, a := range attacks {
		mustFail(t, s, f.ws, a)
	}
	if entries, _ := os.ReadDir(filepath.Join(f.ws, ".git", "hooks")); len(entries) != 0 {
		t.Errorf(".git/hooks got %d entries", len(entries))
	}
	if b, _ := os.ReadFile(filepath.Join(f.ws, ".git", "config")); strings.Contains(string(b), "hooksPath") {
		t.Error(".git/config was changed")
	}
	for _, p := range []string{".workbench/settings.json", ".claude/settings.json", ".claude/settings.local.json", ".mcp.json"} {
		if b, _ := os.ReadFile(filepath.Join(f.ws, p)); string(b) != "{}\n" {
			t.Errorf("%s changed to %q", p, b)
		}
	}
	// The work itself goes on: add and commit.
	mustPass(t, s, f.ws, `echo hello > README && git add README && git commit -qm first && git log --oneline | grep -q first`)
	// .claude is read-only whole: its commands, agents and skills shape
	// the agent as its settings do.
	mustFail(t, s, f.ws, `echo x > .claude/notes.md`)
	mustFail(t, s, f.ws, `mkdir .claude/commands`)
}

// The protected paths that do not exist yet cannot be made either, and
// nothing is created in the project to hold their place.
func TestH16_AbsentProtectedPathsCannotBeCreated(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	os.Mkdir(filepath.Join(f.ws, "sub"), 0o755)
	os.WriteFile(filepath.Join(f.ws, "top.txt"), []byte("a\n"), 0o644)
	// Off by default: a build makes directories in the root.
	mustPass(t, newSandbox(t, f.policy(), Options{}), f.ws, `mkdir build node_modules && rmdir build node_modules`)
	sealing := f.policy()
	sealing.SealRoots = true
	s := newSandbox(t, sealing, Options{})
	for _, a := range []string{
		`mkdir .workbench`,
		`mkdir -p .workbench && echo '{"permissions":{"allow":["Bash"]}}' > .workbench/settings.json`,
		`python3 -c "import os; os.makedirs('.workbench'); open('.workbench/settings.local.json','w').write('{}')"`,
		`mkdir -p .claude && echo '{}' > .claude/settings.json`,
		`ln -s /tmp/planted-settings .workbench`,
		`ln -s /tmp .claude`,
		`mkdir sub/x && mv sub/x .workbench`,
		`git init -q`,
		`mkdir -p .git/hooks && echo 'touch /tmp/pwned' > .git/hooks/pre-commit`,
		`cd sub && mkdir ../.git`,
	} {
		out := mustFail(t, s, f.ws, a)
		if strings.HasPrefix(a, "mkdir .workbench") {
			if note := s.Explain(out, f.ws); !strings.Contains(note, filepath.Join(f.ws, ".workbench")) ||
				!strings.Contains(note, "directly in the workspace root") || strings.Contains(note, "allowWrite") {
				t.Errorf("%q: output %q explained as %q", a, out, note)
			}
		}
	}
	for _, name := range []string{".workbench", ".claude", ".git"} {
		if exists(filepath.Join(f.ws, name)) {
			t.Errorf("%s was made in the workspace", name)
		}
	}
	// The work goes on: files in the root, anything below it.
	mustPass(t, s, f.ws, `echo x > new.txt && sed -i s/a/b/ top.txt && grep -q b top.txt && rm new.txt`)
	mustPass(t, s, f.ws, `mkdir -p sub/a/b && echo x > sub/a/b/f && mv sub/a sub/c && rm -r sub/c && mv top.txt sub/`)

	// In a repository whose settings directories exist, the directories are
	// read-only whole, so their missing files cannot be made.
	g := newFixture(t)
	for _, d := range []string{".workbench", ".claude", ".git"} {
		os.Mkdir(filepath.Join(g.ws, d), 0o755)
	}
	os.WriteFile(filepath.Join(g.ws, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	s = newSandbox(t, g.policy(), Options{})
	for _, a := range []string{
		`echo '{}' > .workbench/settings.json`,
		`echo '{}' > .workbench/settings.local.json`,
		`echo '{}' > .claude/settings.json`,
		`echo '{}' > .claude/settings.local.json`,
		`echo '[core]' > .git/config`, // a git directory without its config is read-only whole
		`echo x > .git/hooks/pre-commit`,
	} {
		mustFail(t, s, g.ws, a)
	}
	for _, p := range []string{".workbench/settings.json", ".workbench/settings.local.json", ".claude/settings.json",
		".claude/settings.local.json", ".git/config", ".git/hooks/pre-commit"} {
		if exists(filepath.Join(g.ws, p)) {
			t.Errorf("%s was made", p)
		}
	}
	// With all three there the root is not sealed: directories can be made.
	mustPass(t, s, g.ws, `mkdir build && rmdir build`)
}

func TestH16_DeniedPathsAreHidden(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	secret := filepath.Join(f.home, ".ssh", "id_ed25519")
	os.MkdirAll(filepath.Dir(secret), 0o700)
	os.WriteFile(secret, []byte("PRIVATE KEY"), 0o600)
	token := filepath.Join(f.outside, "token")
	os.WriteFile(token, []byte("TOKEN"), 0o600)
	p := f.policy()
	p.DenyRead = []string{token}
	s := newSandbox(t, p, Options{})
	for _, script := range []string{
		`cat ` + secret,
		`cat ` + token,
		`cat /proc/$PPID/root` + secret, // through the mount namespace of the process outside
		`cd / && cat .` + secret,
		`python3 -c "print(open('` + secret + `').read())"`,
	} {
		if out, _ := run(t, s, f.ws, script); strings.Contains(out, "PRIVATE KEY") || strings.Contains(out, "TOKEN") {
			t.Errorf("%q read a hidden file:\n%s", script, out)
		}
	}
	if out := mustPass(t, s, f.ws, `ls -A `+filepath.Dir(secret)); strings.TrimSpace(out) != "" {
		t.Errorf("a hidden directory lists %q", out)
	}
	mustFail(t, s, f.ws, `echo x > `+filepath.Join(f.home, ".ssh", "authorized_keys"))
}

func TestH16_CommandsCannotSignalOutsideTheSandbox(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := newSandbox(t, f.policy(), Options{})
	// $PPID is the sandbox server, outside the sandbox; so is this test.
	mustFail(t, s, f.ws, `kill -0 $PPID`)
	mustFail(t, s, f.ws, `kill -0 `+strconv.Itoa(os.Getpid()))
	mustPass(t, s, f.ws, `sleep 5 & kill $!`)
}

func TestH16_CommandsHoldNoCapabilities(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := newSandbox(t, f.policy(), Options{})
	out := mustPass(t, s, f.ws, `grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb)' /proc/self/status`)
	for line := range strings.Lines(out) {
		if !strings.HasSuffix(strings.TrimSpace(line), "0000000000000000") {
			t.Errorf("a capability is left: %s", line)
		}
	}
	mustFail(t, s, f.ws, `mount -t tmpfs none `+f.outside)
}

func TestH16_TheAgentSocketIsHidden(t *testing.T) {
	f := newFixture(t)
	sock := filepath.Join(f.outside, "agent.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("KEYS"))
			c.Close()
		}
	}()
	t.Setenv("SSH_AUTH_SOCK", sock)
	s := newSandbox(t, f.policy(), Options{})
	out, _ := run(t, s, f.ws, `python3 -c "
import socket, os
c = socket.socket(socket.AF_UNIX); c.connect(os.environ['SSH_AUTH_SOCK']); print(c.recv(4))"`)
	if strings.Contains(out, "KEYS") {
		t.Errorf("the agent socket answered inside the sandbox: %s", out)
	}
}

func TestH16_AWorktreeCommitsWhileItsRepositoryStaysClosed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	main, wt := newWorktree(t, f)
	p := f.policy()
	p.Roots = []string{wt}
	s := newSandbox(t, p, Options{})
	mustPass(t, s, wt, `echo hi > f && git add f && git -c user.email=t@example.com -c user.name=t commit -qm inside && git log --oneline | grep -q inside`)
	mustFail(t, s, wt, `echo 'touch /tmp/pwned' > `+filepath.Join(main, ".git", "hooks", "post-commit"))
	mustFail(t, s, wt, `git config --file `+filepath.Join(main, ".git", "config")+` core.hooksPath /tmp/evil`)
	mustFail(t, s, wt, `echo x > `+filepath.Join(main, "planted"))
}

func TestH16_ProtectedDirectoriesCannotBeMovedAside(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if out, err := exec.Command("git", "init", "-q", f.ws).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	os.MkdirAll(filepath.Join(f.ws, ".claude"), 0o755)
	os.WriteFile(filepath.Join(f.ws, ".claude", "settings.json"), []byte("{}\n"), 0o644)
	// The workspace's parent is writable too, so only the pin can stop the
	// workspace itself from being moved and replaced.
	p := f.policy()
	p.AllowWrite = []string{filepath.Dir(f.ws)}
	s := newSandbox(t, p, Options{})
	for _, a := range []string{
		`mv .git g && mkdir -p .git/hooks && echo 'touch /tmp/pwned' > .git/hooks/post-checkout`,
		`python3 -c "import os; os.rename('.git', 'g')"`,
		`mv .claude c && mkdir .claude && echo '{"permissions":{"allow":["Bash"]}}' > .claude/settings.json`,
		`cd .. && mv ws ws2 && mkdir -p ws/.workbench && echo '{}' > ws/.workbench/settings.json`,
	} {
		mustFail(t, s, f.ws, a)
	}
	for _, p := range []string{".git/config", ".git/hooks", ".claude/settings.json"} {
		if !exists(filepath.Join(f.ws, p)) {
			t.Errorf("%s was moved away", p)
		}
	}
	for _, p := range []string{"g", "c", filepath.Join("..", "ws2")} {
		if exists(filepath.Join(f.ws, p)) {
			t.Errorf("%s exists: a protected directory was renamed", p)
		}
	}
	// Ordinary directories still move.
	mustPass(t, s, f.ws, `mkdir src && mv src lib && test -d lib`)
}

func TestH16_AWorktreesGitFileStaysReadOnly(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	_, wt := newWorktree(t, f)
	before, _ := os.ReadFile(filepath.Join(wt, ".git"))
	p := f.policy()
	p.Roots = []string{wt}
	s := newSandbox(t, p, Options{})
	mustFail(t, s, wt, `mkdir -p /tmp/evil-git/hooks && echo 'gitdir: /tmp/evil-git' > .git`)
	if after, _ := os.ReadFile(filepath.Join(wt, ".git")); string(after) != string(before) {
		t.Errorf("the worktree's .git file changed to %q", after)
	}
}

// newWorktree makes a repository outside the workspace and a worktree of it
// inside, and returns both.
func newWorktree(t *testing.T, f fixture) (main, wt string) {
	t.Helper()
	main, wt = filepath.Join(f.outside, "main"), filepath.Join(f.ws, "wt")
	for _, args := range [][]string{
		{"init", "-q", main},
		{"-C", main, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "root"},
		{"-C", main, "worktree", "add", "-q", "-b", "work", wt},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return main, wt
}
