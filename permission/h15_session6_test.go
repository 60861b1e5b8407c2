package permission

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The red team of session 6 found these spellings; each test holds one
// class closed with the spellings that got through.

// unzip reads -d in a cluster of options before the archive (`-qod DIR`)
// and also after the names -x leaves out; -: lets member names climb out
// of the directory with ../. `unzip a.zip -x b -d OUT` extracted OUT
// while only the working directory was checked.
func TestH15_UnzipDirectoryWhereverUnzipReadsIt(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(unzip:*)", "Bash(rsync:*)"}})
	for _, cmd := range []string{
		`unzip src/a.zip -x b -d OUT`, `unzip src/a.zip -x -l -d OUT`, `unzip -qod OUT src/a.zip`,
		`unzip -qodOUT src/a.zip`, `unzip -: src/a.zip`, `unzip -o: src/a.zip -d src`, `unzip -T OUT/a.zip`,
		// rsync writes its last operand; an option the table does not
		// know may or may not take the word after it.
		`rsync src/a.txt OUT/ --info progress2`, `rsync src/a.txt OUT/x -M --fake-super`,
		`rsync src/a.txt OUT/x --new-option=y`, `rsync -a --link-dest=OUT src/ build/`,
	} {
		cmd = replaceOut(cmd, outside)
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := evalIn(p, project, mode, cmd); d.Behavior != Ask {
				t.Errorf("%s, %s: %s by %q (%s), want ask", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	for _, cmd := range []string{
		`unzip src/a.zip -d build`, `unzip -o src/a.zip -d src`, `unzip -qod src src/a.zip`, `unzip src/a.zip -x b -d src`,
		`unzip -l OUT/a.zip`, `unzip -t OUT/a.zip`, `rsync -av src/ build/`,
	} {
		cmd = replaceOut(cmd, outside)
		if d := evalIn(p, project, ModeDefault, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// Builtins that assign variables are read as bash reads their options:
// `read -s PATH` (-s takes no value; PATH was taken for one) and
// `printf -vPATH` (the name attached) set PATH, so ls ran from wherever
// the line said. Assignments through `builtin`/`command` and exports of
// lower-case names that programs read (npm_config_*) count too.
func TestH15_BuiltinsThatAssignReadAsBashReadsThem(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash(read:*)", "Bash(printf:*)", "Bash(wait:*)",
		"Bash(mapfile:*)", "Bash(readarray:*)", "Bash(getopts:*)", "Bash(builtin:*)", "Bash(command:*)",
		"Bash(ls:*)", "Bash(npm test)", "Bash(echo:*)"}})
	for _, cmd := range []string{
		`read -s PATH <<< /tmp/evil; ls`, `read -rs PATH <<< /tmp/evil; ls`, `read -ers -- PATH <<< /tmp/evil; ls`,
		`read -sd : PATH <<< /tmp/evil; ls`, `read -N 9 PATH <<< /tmp/evil; ls`, `read -ra PATH <<< /tmp/evil; ls`,
		`read -r line PATH <<< 'a /tmp/evil'; ls`, `printf -vPATH /tmp/evil; ls`, `printf -v PATH /tmp/evil; ls`,
		`wait -np PATH; ls`, `wait -pPATH; ls`, `mapfile -t PATH <<< /tmp/evil; ls`, `readarray -t PATH <<< x; ls`,
		`mapfile -tu 0 PATH <<< x; ls`, `getopts o PATH; ls`, `builtin export PATH=/tmp/evil; ls`,
		`command export PATH=/tmp/evil; ls`, `builtin declare -x PATH=/tmp/evil; ls`,
		`builtin read -s PATH <<< /tmp/evil; ls`, `command printf -vPATH /tmp/evil; ls`,
		`builtin export npm_config_script_shell=/tmp/evil; npm test`, `read -q PATH; ls`,
	} {
		if d := evalIn(p, root, ModeDefault, cmd); d.Behavior == Allow {
			t.Errorf("%s: allowed by %q (%s), want ask", cmd, d.Rule, d.Message)
		}
	}
	for _, cmd := range []string{
		`read -s -r line < /dev/null; echo "$line"`, `read -t 1 -p prompt -r line < /dev/null`, `read -r`,
		`printf -vx %s y; echo "$x"`, `mapfile -t lines < /dev/null`, `mapfile -t`, `wait -n`, `getopts ab opt`,
		`builtin export LANG=C; ls`,
	} {
		if d := evalIn(p, root, ModeDefault, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// Wrappers that move the command they run: `env -C DIR touch x` writes
// DIR/x, which was checked as ./x and allowed even in bypassPermissions;
// a login shell (`su -`, `sudo -i`), another root (chroot) or a service
// (systemd-run) runs it somewhere the line does not show.
func TestH15_WrappersThatMoveTheCommand(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(env:*)", "Bash(unshare:*)", "Bash(su:*)",
		"Bash(chroot:*)"}, deny: []string{"Read(./.env)"}})
	for _, cmd := range []string{
		`env -C OUT touch x`, `env --chdir=OUT touch x`, `env --chdir OUT touch x`, `env -COUT touch x`,
		`env -iC OUT touch x`, `env -C .. touch x`, `env -C OUT bash -c 'echo > y'`, `env -C src -C OUT rm x`,
		`unshare -r --wd OUT touch x`, `unshare -rw OUT touch x`, `nsenter --wd=OUT touch x`,
		`su - -c 'touch x'`, `su -l root -c 'touch x'`, `su --login -c 'rm -rf build'`, `sudo -i touch x`,
		`sudo --login touch x`, `sudo -D OUT touch x`, `chroot OUT touch /x`, `unshare -r --root=OUT touch /x`,
		`systemd-run --user touch x`, `pkexec touch x`, `parallel --wd OUT touch ::: x`,
		`env -C "$d" touch x`,
	} {
		cmd = replaceOut(cmd, outside)
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := evalIn(p, project, mode, cmd); d.Behavior == Allow {
				t.Errorf("%s, %s: allowed by %q (%s), want ask", mode, cmd, d.Rule, d.Message)
			}
		}
	}
	// Reads are judged from where the command runs, and hard deny sees
	// the directory.
	for _, cmd := range []string{`env -C src cat ../.env`, `env -C ./src head ../.env`} {
		if d := evalIn(p, project, ModeBypass, cmd); d.Behavior != Deny || d.Rule != "Read(./.env)" {
			t.Errorf("%s: %s by %q (%s), want deny by Read(./.env)", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
	if d := evalIn(p, project, ModeBypass, `env -C / rm -rf *`); d.Behavior != Deny || d.Rule != "hard-deny" {
		t.Errorf("env -C / rm -rf *: %s by %q (%s), want hard deny", d.Behavior, d.Rule, d.Message)
	}
	for _, cmd := range []string{`env -C src touch x`, `env -C src touch ../y`, `env -u X touch x`, `su -c 'touch x'`} {
		if d := evalIn(p, project, ModeDefault, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// git reads the config of the repository it finds from its directory, and
// takes a directory holding HEAD, objects/ and refs/ for a bare one: files
// Write makes without asking (none is a .git path) made `cd ./evil && git
// status` run evil/config's core.fsmonitor. A git command now reads only
// the workspace's own repository (or one around it) without asking.
func TestH15_GitReadsTheRepositoryItFinds(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	for _, f := range []string{"evil/HEAD", "evil/config", "evil/objects/.keep", "evil/refs/.keep",
		"evil/sub/.keep", "vendor/lib/.git/HEAD", "OUT/other/.git/HEAD"} {
		at := filepath.Join(project, f)
		if rel, ok := strings.CutPrefix(f, "OUT/"); ok {
			at = filepath.Join(outside, rel)
		}
		if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
			t.Fatal(err)
		}
		content := "ref: refs/heads/main\n"
		if strings.HasSuffix(f, "config") {
			content = "[core]\n\trepositoryformatversion = 0\n\tfsmonitor = touch P\n"
		}
		if err := os.WriteFile(at, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if git, err := exec.LookPath("git"); err == nil {
		// The premise, with the real git: it takes evil for a repository.
		cmd := exec.Command(git, "rev-parse", "--absolute-git-dir")
		cmd.Dir = filepath.Join(project, "evil", "sub")
		cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(project))
		if out, err := cmd.Output(); err != nil || strings.TrimSpace(string(out)) != filepath.Join(project, "evil") {
			t.Fatalf("git in evil/sub finds %q (%v), want %s", out, err, filepath.Join(project, "evil"))
		}
	}
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(git status:*)", "Bash(git log:*)",
		"Bash(git diff:*)", "Bash(cd:*)", "Bash(echo:*)", "Bash(tar:*)", "Bash(bash:*)", "Bash(xargs:*)", "Bash(find:*)"}})
	for _, cmd := range []string{
		`cd ./evil && git status`, `cd ./evil/sub && git diff`, `cd ./vendor/lib && git log`,
		`cd OUT/other && git status`, `cd ./not-yet && git status`, `bash -c 'cd ./evil && git status'`,
		`echo 'ref: refs/heads/main' > src/HEAD && cd ./src && git status`, `tar -xf src/a.tar -C src && cd ./src && git status`,
		`echo x > src/config; cd ./src; git log`, `cd "$d" && git status`, `cd ./evil && xargs git log < /dev/null`,
		`find . -execdir git status \;`, `cd ./evil && find . -exec git log {} +`,
	} {
		cmd = replaceOut(cmd, outside)
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := evalIn(p, project, mode, cmd); d.Behavior != Ask || d.Rule != "unknown" {
				t.Errorf("%s, %s: %s by %q (%s), want ask by unknown", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	for _, cmd := range []string{`git status`, `cd ./src && git status`, `git log -1 && echo x > src/config`,
		`cd OUT && git status`, `echo x > build.log && git diff`, `find src -exec git log -- {} +`} {
		cmd = replaceOut(cmd, outside)
		if d := evalIn(p, project, ModeDefault, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// Spellings that ran a denied program in bypassPermissions: a value env
// sets (`env PAGER='rm x' git log`, an exported function
// `env 'BASH_FUNC_x%%=() { rm x; }' bash -c x`), env's -a value taken for
// the program, su's -s shell, sem (parallel), a shell of another grammar,
// and a pattern naming the program (`/bin/r? x` runs /bin/rm).
func TestH15_DeniedProgramsBehindEnvShellsAndPatterns(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := denyRmEverywhere(t, root)
	for _, cmd := range []string{
		`env PAGER='rm x' git log`, `env -i GIT_PAGER='rm x' git log`, `env -u A PAGER='rm x' git log`,
		`env 'BASH_FUNC_x%%=() { rm x; }' bash -c x`, `env -a x rm y`, `env --argv0=x rm y`,
		`su -s /bin/rm root x`, `su --shell=/bin/rm root x`, `sem rm x`, `fish -c 'rm x'`, `tcsh -c 'rm x'`,
		`rbash -c 'rm x'`,
	} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Deny {
			t.Errorf("%s: %s by %q (%s), want deny", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
	for _, cmd := range []string{`/bin/r? x`, `/bin/[r]m x`, `r?? x`, `sudo /bin/r? x`, `env /bin/r* x`,
		`find . -exec /bin/r? {} +`, `fish -c 'echo (date)'`} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Ask || d.Rule != "unknown" {
			t.Errorf("%s: %s by %q (%s), want ask by unknown", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
	// A command held in a value is judged as a shell would read it: one
	// that does not parse (an unclosed here-document runs to the end),
	// nests deeper than the analysis follows, or names its program by an
	// expansion is not passed over.
	deep := "rm x"
	for range maxShellDepth + 1 {
		deep = "bash -c " + shellQuote(deep)
	}
	for _, cmd := range []string{
		"env PAGER=$'sh -s <<\\'EOF\\'\\nrm x\\nEOF > out' git log", "PAGER=" + shellQuote(deep) + " git log",
		`env 'BASH_FUNC_f%%=() { ${X:-rm} x; }' bash -c f`, `PAGER='${X:-rm} x' git log`,
	} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior == Allow {
			t.Errorf("%s: allowed by %q (%s), want deny or ask", cmd, d.Rule, d.Message)
		}
	}
	for _, cmd := range []string{`ls src/*.txt`, `env LANG=C ls`, `env PAGER=cat git log`, `su -c ls`} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// awk runs commands and writes files from its program (system, pipes,
// print > FILE), as sed's e and w do: with `Bash(awk:*)`,
// `awk 'BEGIN{system("touch P")}'` ran touch. Such a program, or one in a
// file, asks in every mode; plain text processing stays quiet.
func TestH15_AwkProgramsThatRunOrWriteAsk(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash(awk:*)", "Bash(gawk:*)"}})
	for _, cmd := range []string{
		`awk 'BEGIN{system("touch P")}'`, `awk '{print | "sh"}' f`, `awk 'BEGIN{"date" | getline d}'`,
		`awk 'BEGIN{print > "/tmp/x"}'`, `awk '{ printf "%s\n", $1 >> "log" }' f`, `awk '{print $1 > $2}' f`,
		`awk -f prog.awk f`, `awk -fprog.awk f`, `gawk -e 'BEGIN{system("x")}'`, `gawk --source='BEGIN{system("x")}'`,
		`gawk -i inc.awk 1 f`, `gawk -l ext 1 f`, `gawk '@load "x"; 1' f`, `awk -- '{print > "f"}' g`,
		`awk "$prog" f`,
	} {
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := evalIn(p, root, mode, cmd); d.Behavior != Ask || d.Rule != "unknown" {
				t.Errorf("%s, %s: %s by %q (%s), want ask by unknown", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	for _, cmd := range []string{`awk '{print $1}' f`, `awk '$3 > 100' f`, `awk -F: '$1 == "a" || $2 > 3 {print $1}' f`,
		`awk -v n=2 '{print $n}' f`, `awk '{n++} END {print n}' f`, `awk 'BEGIN { printf "%d\n", 1 + 2 }'`} {
		if d := evalIn(p, root, ModeDefault, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// git settings that make git run commands the line does not show: another
// config file (include.path), a hooks directory, the ext transport (whose
// URL is a command), a value taken from the environment (--config-env).
// They ran in bypassPermissions where a deny rule should have decided.
func TestH15_GitSettingsThatRunUnseenCommandsAsk(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := denyRmEverywhere(t, root)
	for _, cmd := range []string{
		`git -c include.path=/tmp/c log`, `git -c includeIf.gitdir:/x/.path=/tmp/c log`,
		`git -c core.hooksPath=/tmp/h commit -m x`, `git -c protocol.ext.allow=always fetch origin`,
		`git --config-env=core.pager=X log`, `git --config-env core.pager=X log`,
		`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=include.path GIT_CONFIG_VALUE_0=/tmp/c git log`,
		`GIT_CONFIG_PARAMETERS="'core.hooksPath'='/tmp/h'" git commit -m x`, `git clone 'ext::sh -c date' d`,
	} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Ask || d.Rule != "unknown" {
			t.Errorf("%s: %s by %q (%s), want ask by unknown", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
	if d := evalIn(p, root, ModeBypass, `git -c protocol.ext.allow=always fetch 'ext::rm x'`); d.Behavior != Deny {
		t.Errorf("the ext:: command: %s by %q (%s), want deny", d.Behavior, d.Rule, d.Message)
	}
	for _, cmd := range []string{`git -c user.name=x log`, `git -c color.ui=never log`, `git fetch origin`} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}
