package permission

import (
	"strings"
	"testing"
)

// The red team of session 5 found these spellings; each test holds one
// class closed with the spellings that got through.

// A variable set in front of a shell reaches the shell, not only the
// commands of its script: BASH_ENV names a file bash runs first, so
// `BASH_ENV=f bash -c true` ran f although `true` needs no rule.
func TestH15_PrefixBeforeAShellOfBuiltinsAsks(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash(echo:*)"}})
	for _, cmd := range []string{
		`BASH_ENV=src/a.txt bash -c true`, `BASH_ENV=src/a.txt bash -c '[ -f x ]'`,
		`SHELLOPTS=xtrace bash -c :`, `ENV=x sh -c true`, `BASH_ENV=x sh -c 'true && :'`,
		`bash --init-file src/a.txt -i -c true`, `bash --rcfile src/a.txt -ic :`,
		`sh --rcfile x -ic 'test -f x'`,
	} {
		if d := evalIn(p, root, ModeDefault, cmd); d.Behavior == Allow {
			t.Errorf("%s: allowed by %q (%s), want ask", cmd, d.Rule, d.Message)
		}
	}
	// The builtins alone, or after an inert prefix, still need no rule.
	for _, cmd := range []string{`bash -c true`, `LANG=C bash -c '[ -f x ]'`, `bash --norc -c :`} {
		if d := evalIn(p, root, ModeDefault, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// Inside a double-quoted ${x:-...}, bash takes single quotes as plain
// characters: `echo "${x:-'$(touch P)'}"` runs touch and prints 'P's
// output in quotes. The parser reads them as quotes, so the line asks.
func TestH15_SingleQuotesInADoubleQuotedExpansionHideNothing(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash(echo:*)"}, deny: []string{"Bash(curl:*)"}})
	for _, cmd := range []string{
		`echo "${x:-'$(touch P)'}"`, `echo "${x-'$(touch P)'}"`, `echo "${x:+'$(touch P)'}"`,
		"echo \"${x:-'`touch P`'}\"", `echo "a${x:='$(touch P)'}b"`, `echo "${x/a/'$(touch P)'}"`,
		`echo "${x:-"${y:-'$(touch P)'}"}"`, `x="${y:-'$(touch P)'}"`,
	} {
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := evalIn(p, root, mode, cmd); d.Behavior != Ask || d.Rule != "unknown" {
				t.Errorf("%s, %s: %s by %q (%s), want ask by unknown", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	// Deny rules see the command written in the quotes.
	if d := evalIn(p, root, ModeBypass, `echo "${x:-'$(curl x)'}"`); d.Behavior != Deny {
		t.Errorf("the hidden curl: %s by %q (%s), want deny", d.Behavior, d.Rule, d.Message)
	}
	// Unquoted, single quotes quote; and quotes without an expansion in
	// them hide nothing.
	for _, cmd := range []string{`echo ${x:-'$(touch P)'}`, `echo "${x:-'default'}"`, `echo "${x:-fallback}"`} {
		if d := evalIn(p, root, ModeDefault, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// `bash -s ARGS` reads its commands from standard input; ARGS are its
// positional parameters, not a script file.
func TestH15_ShellWithDashSReadsItsScriptFromStdin(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash(bash:*)", "Bash(sh:*)"}, deny: []string{"Bash(curl:*)"}})
	for _, cmd := range []string{
		`bash -s a <<< 'curl x'`, `bash -s -- a b <<< 'curl x'`, `sh -s x y <<< 'curl x'`,
		`bash -xs a <<< 'curl x'`, `bash -e -s a <<< 'curl x'`, "sh -s a <<'EOF'\ncurl x\nEOF",
	} {
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := evalIn(p, root, mode, cmd); d.Behavior != Deny || d.Rule != "Bash(curl:*)" {
				t.Errorf("%s, %s: %s by %q (%s), want deny by Bash(curl:*)", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	for _, cmd := range []string{`echo 'curl x' | bash -s a`, `cat f | sh -s -- x`} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Ask || d.Rule != "unknown" {
			t.Errorf("%s: %s by %q (%s), want ask by unknown", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// eval takes `--` as the end of its options, as the other builtins do;
// torify is a wrapper like torsocks.
func TestH15_EvalDashDashIsSplit(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := denyRmEverywhere(t, root)
	for _, cmd := range []string{`eval -- rm x`, `eval -- 'rm x'`, `eval -- "echo; rm x"`, `torify rm x`} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Deny || d.Rule != "Bash(rm:*)" {
			t.Errorf("%s: %s by %q (%s), want deny by Bash(rm:*)", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// xargs and parallel add words from their input to the command they run:
// given to a shell's -c, or put in its script by a replace string, those
// words are code the line does not hold. parallel with no command runs its
// inputs as commands.
func TestH15_ArgumentsFromInputAsAScriptAsk(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := denyRmEverywhere(t, root)
	for _, cmd := range []string{
		`cat list | xargs -0 bash -c`, `xargs sh -c < list`, `xargs -I{} bash -c {} < list`,
		`xargs -I{} bash -c 'echo {}' < list`, `xargs -I % sh -c 'x %' < list`, `xargs -i bash -c {} < list`,
		`xargs --replace bash -c '{}' < list`, `parallel ::: 'rm x'`, `parallel < list`,
		`parallel -j1 ::: 'rm x'`, `parallel bash -c ::: 'rm x'`, `parallel sh -c '{}' ::: 'rm x'`,
		`xargs -a list -I{} sh -c {}`, `xargs -I{} {} x < list`, `xargs -IX X < list`, `parallel {} x ::: rm`,
	} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Ask || d.Rule != "unknown" {
			t.Errorf("%s: %s by %q (%s), want ask by unknown", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
	// A fixed script that gets the input as its arguments is seen.
	for _, cmd := range []string{`xargs bash -c 'echo "$@"' _ < list`, `xargs -n1 echo < list`} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// Programs that write a file named by an option: the file is a write
// target like a redirection's, whatever rule allows the program.
func TestH15_FilesWrittenThroughOptionsAreTargets(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(git diff:*)", "Bash(git log:*)",
		"Bash(git show:*)", "Bash(git format-patch:*)", "Bash(sort:*)", "Bash(go build:*)", "Bash(go test:*)",
		"Bash(go vet:*)", "Bash(gofmt:*)", "Bash(uniq:*)", "Bash(tar:*)", "Bash(unzip:*)", "Bash(zip:*)",
		"Bash(curl:*)", "Bash(wget:*)", "Bash(make:*)", "Bash(git -C:*)", "Bash(rsync:*)"}})
	for _, cmd := range []string{
		`git diff --output=OUT/x`, `git diff --output OUT/x`, `git diff --outp=OUT/x`, `git log -p --output=OUT/x`,
		`git show --output=OUT/x HEAD`, `git format-patch -o OUT HEAD~1`, `git format-patch -oOUT HEAD~1`,
		`git format-patch --output-directory OUT HEAD~1`, `git diff --output=.workbench/settings.local.json`,
		`git log --output=.git/hooks/pre-commit`, `git -C OUT diff`, `git -C src diff --output=x`,
		`sort -o OUT/x src/a.txt`, `sort -oOUT/x src/a.txt`, `sort -ro OUT/x src/a.txt`, `sort --output=OUT/x src/a.txt`,
		`sort --outp OUT/x src/a.txt`, `sort -T OUT src/a.txt`, `go build -o OUT/x ./...`, `go build -o=OUT/x .`,
		`go test -c -o OUT/x.test ./...`, `go test -coverprofile=OUT/c.out ./...`, `go test -cpuprofile OUT/c ./...`,
		`go test -outputdir OUT -cpuprofile c ./...`, `go test ./... -args -test.coverprofile=OUT/c`,
		`go -C OUT build`, `gofmt -w OUT/x.go`, `gofmt -l -w OUT`, `gofmt -s -w=true OUT/x.go`,
		`uniq src/a.txt OUT/x`, `uniq -f 1 src/a.txt OUT/x`, `tar -xf src/a.tar -C OUT`, `tar xf src/a.tar -C OUT`,
		`tar -C OUT -xzf src/a.tgz`, `tar --extract --file=src/a.tar --directory=OUT`, `tar -cf OUT/a.tar src`,
		`tar czf OUT/a.tgz src`, `tar -xPf src/a.tar`, `unzip src/a.zip -d OUT`, `unzip -dOUT src/a.zip`,
		`zip OUT/a.zip src/a.txt`, `curl -o OUT/x http://h/`, `curl --output OUT/x http://h/`, `curl -sSLo OUT/x h`,
		`curl -K src/a.txt`, `curl --output-dir OUT -O h/x`, `wget -O OUT/x h`, `wget -P OUT h`, `wget -e robots=off h`,
		`make -C OUT`, `make --directory=OUT install`, `rsync --log-file=OUT/l src/ src2/`,
	} {
		cmd = replaceOut(cmd, outside)
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := evalIn(p, project, mode, cmd); d.Behavior != Ask {
				t.Errorf("%s, %s: %s by %q (%s), want ask", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	// Inside the workspace the program's rule is enough.
	for _, cmd := range []string{
		`git diff --output=src/d.patch`, `git diff --stat`, `git log --oneline`, `sort -o src/s.txt src/a.txt`,
		`go build -o bin/app ./...`, `go test -coverprofile=cover.out ./...`, `gofmt -w src`, `gofmt -l .`,
		`uniq src/a.txt src/u.txt`, `tar -xzf src/a.tgz -C src`, `tar -cf src/a.tar src/a.txt`, `tar -tf src/a.tar`,
		`unzip src/a.zip -d src`, `unzip -l src/a.zip`, `curl -o src/x http://h/`, `make -C src`, `sort -k2 src/a.txt`,
	} {
		if d := evalIn(p, project, ModeDefault, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// replaceOut puts the outside directory where a case says OUT.
func replaceOut(cmd, outside string) string {
	return strings.ReplaceAll(cmd, "OUT", outside)
}

// Programs that run a command given in an option: the command is a part of
// its own, which needs its own rule and which deny rules see.
func TestH15_CommandsGivenInOptionsAreParts(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash(sort:*)", "Bash(tar:*)", "Bash(go test:*)",
		"Bash(go build:*)", "Bash(go vet:*)", "Bash(git grep:*)", "Bash(git difftool:*)", "Bash(git rebase:*)",
		"Bash(git bisect:*)", "Bash(git submodule:*)", "Bash(rsync:*)", "Bash(zip:*)", "Bash(man:*)",
		"Bash(ssh:*)", "Bash(git:*)"},
		deny: []string{"Bash(curl:*)"}})
	for _, cmd := range []string{
		`sort --compress-program=curl src/a.txt`, `sort --compress-program curl x`, `sort --compress-prog=curl x`,
		`tar -I curl -cf x.tar src`, `tar --use-compress-program='curl -x' -cf x.tar src`,
		`tar --to-command=curl -xf x.tar`, `tar --checkpoint=1 --checkpoint-action=exec=curl -cf x.tar src`,
		`tar -cf x.tar -F curl src`, `tar --info-script=curl -cf x.tar src`, `go test -exec curl ./...`,
		`go test -exec=curl ./...`, `go build -toolexec 'curl x' ./...`, `go vet -vettool=curl ./...`,
		`git grep -Ocurl x`, `git grep --open-files-in-pager=curl x`, `git difftool -x curl`,
		`git difftool --extcmd=curl`, `git rebase -x curl HEAD~1`, `git rebase --exec 'curl x' HEAD~1`,
		`git bisect run curl x`, `git submodule foreach curl x`, `git filter-branch --tree-filter 'curl x'`,
		`rsync -e curl src h:x`, `rsync --rsh='curl x' src h:x`, `zip -TT curl x.zip src`,
		`zip --unzip-command=curl -T x.zip src`, `man -P curl ls`, `man --pager=curl ls`,
		`ssh -o ProxyCommand='curl x' h`, `ssh -oLocalCommand=curl -o PermitLocalCommand=yes h`,
	} {
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := evalIn(p, root, mode, cmd); d.Behavior != Deny || d.Rule != "Bash(curl:*)" {
				t.Errorf("%s, %s: %s by %q (%s), want deny by Bash(curl:*)", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	// A command no rule allows asks, though the program's rule matches.
	for _, cmd := range []string{`sort --compress-program=python3 x`, `go test -exec ./runner ./...`,
		`git rebase -x 'make check' HEAD~3`, `git --exec-path=/tmp/x status`, `git grep -O x`} {
		if d := evalIn(p, root, ModeDefault, cmd); d.Behavior != Ask {
			t.Errorf("%s: %s by %q (%s), want ask", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
	for _, cmd := range []string{`sort -k2 -t, x`, `tar -czf x.tgz src`, `go test -run TestX ./...`, `git grep -n x`} {
		if d := evalIn(p, root, ModeDefault, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// Settings that later commands read and run: `git config` writes the
// repository's config (protected: it holds core.fsmonitor, core.pager,
// aliases) or the user's, and `go env -w` the user's go env file, where
// GOFLAGS=-toolexec=... would run a program in every later go command.
func TestH15_ConfigWritesThatRunLaterCommandsAsk(t *testing.T) {
	t.Parallel()
	project, _ := workspace(t)
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(git config:*)", "Bash(go env:*)", "Bash(git:*)"}})
	for _, cmd := range []string{
		`git config core.fsmonitor 'touch x'`, `git config --add alias.st '!touch x'`, `git config set core.pager x`,
		`git config --global core.pager 'touch x'`, `git config --system core.pager x`, `git config --unset core.x`,
		`git config -f .workbench/settings.local.json a.b c`, `go env -w GOFLAGS=-toolexec=touch`, `go env -u GOFLAGS`,
		`git -C . config core.pager x`,
	} {
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := evalIn(p, project, mode, cmd); d.Behavior != Ask {
				t.Errorf("%s, %s: %s by %q (%s), want ask", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	for _, cmd := range []string{`git config user.name`, `git config --get core.pager`, `git config -l`,
		`git config get user.email`, `go env GOPATH`, `git config -f src/x.cfg a.b c`} {
		if d := evalIn(p, project, ModeDefault, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// The parser and bash read two byte sequences differently: a backslash
// before CR LF (bash: an escaped CR, then the end of the line) and a
// backslash that ends a comment (bash: the comment ends at the newline).
// Both hid the next line's command; such a line asks, and deny rules see
// what bash runs.
func TestH15_ParserAndBashDisagreeingAsks(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash(echo:*)"}, deny: []string{"Bash(curl:*)"}})
	for _, cmd := range []string{
		"echo hi\\\r\ntouch x", "echo x #\\\ntouch x", "echo x # a comment \\\ntouch x",
		"echo a\necho b # c\\\ntouch x", "echo 'q' #\\\r\ntouch x",
		// The same inside scripts that a shell, eval or a program runs.
		`bash -c $'echo hi\\\r\ntouch x'`, `bash -s a <<< $'echo x #\\\ntouch x'`, `eval $'echo hi\\\r\ntouch x'`,
		`su -c $'echo hi\\\r\ntouch x'`,
	} {
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := evalIn(p, root, mode, cmd); d.Behavior != Ask || d.Rule != "unknown" {
				t.Errorf("%s, %q: %s by %q (%s), want ask by unknown", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	for _, cmd := range []string{"echo hi\\\r\ncurl x", "echo x #\\\ncurl x", "true #\\\nrm -rf /"} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Deny {
			t.Errorf("%q: %s by %q (%s), want deny", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
	// A continuation outside a comment, and a comment without one, are
	// read alike by both.
	for _, cmd := range []string{"echo a \\\n  b", "echo x # note\necho y", "echo '#' \\\n b"} {
		if d := evalIn(p, root, ModeDefault, cmd); d.Behavior != Allow {
			t.Errorf("%q: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// A here-document's body is read like a double-quoted word: single quotes
// in a ${x:-...} there are plain characters too.
func TestH15_SingleQuotesInAHereDocumentExpansionHideNothing(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash(cat:*)"}, deny: []string{"Bash(curl:*)"}})
	for _, cmd := range []string{"cat <<EOF\n${x:-'$(touch P)'}\nEOF", "cat <<EOF\n\"${x:-'`touch P`'}\"\nEOF"} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Ask || d.Rule != "unknown" {
			t.Errorf("%q: %s by %q (%s), want ask by unknown", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
	if d := evalIn(p, root, ModeBypass, "cat <<EOF\n${x:-'$(curl x)'}\nEOF"); d.Behavior != Deny {
		t.Errorf("the hidden curl: %s by %q (%s), want deny", d.Behavior, d.Rule, d.Message)
	}
	if d := evalIn(p, root, ModeDefault, "cat <<'EOF'\n${x:-'$(touch P)'}\nEOF"); d.Behavior != Allow {
		t.Errorf("a quoted delimiter: %s by %q (%s), want allow", d.Behavior, d.Rule, d.Message)
	}
}

// A quoted assignment given to declare, local or typeset has its subscript
// evaluated like an unquoted one: `declare 'a[$(touch P)]=1'` runs touch.
// `jobs -x CMD` runs CMD.
func TestH15_QuotedDeclareSubscriptsAndJobsX(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := denyRmEverywhere(t, root)
	for _, cmd := range []string{
		`declare 'a[$(rm x)]=1'`, `local 'a[$(rm x)]=1'`, `typeset "a[\$(rm x)]=1"`, `declare -a 'a[$(rm x)]=1'`,
		`f() { local 'c[$(rm x)]=1'; }; f`, `jobs -x rm x`, `jobs -x 'rm' x`,
	} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Deny || d.Rule != "Bash(rm:*)" {
			t.Errorf("%s: %s by %q (%s), want deny by Bash(rm:*)", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
	// A subscript that is a name evaluates that variable's value.
	if d := evalIn(p, root, ModeBypass, `declare 'b[x]=1'`); d.Behavior != Ask || d.Rule != "unknown" {
		t.Errorf("declare 'b[x]=1': %s by %q (%s), want ask by unknown", d.Behavior, d.Rule, d.Message)
	}
	for _, cmd := range []string{`declare 'a[0]=1'`, `local x='a[$(y)]'`, `declare -r 'n=1'`} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// $PWD stands for the directory as "." only plainly: an operator computes
// from its real, absolute value, so `rm -rf ${PWD%/*}` removes the
// workspace's parent. It was computed from "." and allowed.
func TestH15_OperatorsOnPWDAreUnknown(t *testing.T) {
	t.Parallel()
	project, _ := workspace(t)
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(rm:*)", "Bash(touch:*)"}})
	for _, cmd := range []string{`rm -rf ${PWD%/*}`, `rm -rf "${PWD%/*}"`, `rm -rf ${PWD/src/}`, `rm -rf ${PWD:0:5}`,
		`touch ${PWD%%/*}x`, `rm -rf "${PWD#/}"`} {
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := evalIn(p, project, mode, cmd); d.Behavior == Allow {
				t.Errorf("%s, %s: allowed by %q (%s), want ask", mode, cmd, d.Rule, d.Message)
			}
		}
	}
	for _, cmd := range []string{`rm -rf $PWD/src`, `rm -rf "${PWD}/src"`, `touch "$PWD/src/new.txt"`} {
		if d := evalIn(p, project, ModeDefault, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// A fork bomb written as a loop: an endless loop that starts a background
// job on each pass, with nothing that stops or waits, is hard-denied.
func TestH15_LoopForkBombIsHardDenied(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{
		`while true; do bash & done`, `while :; do sleep 1 & done`, `until false; do sh -c x & done`,
		`for ((;;)); do ./a.out & done`, "while true\ndo\n  (yes > /dev/null) &\ndone",
		`while true; do { bash; } & done`,
	} {
		if _, denied := HardDeny(cmd); !denied {
			t.Errorf("%s: not hard-denied", cmd)
		}
	}
	for _, cmd := range []string{
		`while true; do sleep 1; done`, `while true; do x & if y; then break; fi; done`,
		`while true; do job & wait; done`, `for ((i=0;i<3;i++)); do w & done; wait`, `while read l; do f "$l" & done`,
	} {
		if reason, denied := HardDeny(cmd); denied {
			t.Errorf("%s: hard-denied (%s)", cmd, reason)
		}
	}
}

// A link is a way to write its target: `ln OUTSIDE/f src/h` (a hard link
// is the same file) and `ln -s OUTSIDE/f src/l` make a file outside
// writable under a name inside, so ln's sources count as written (a
// relative symbolic target from the link's directory). A write below a
// path an earlier command of the line placed (ln, mv, cp, rsync) goes
// where that thing leads when the line runs: it asks.
func TestH15_LinksPlacedByTheLineAreFollowed(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	p := writersPolicy(t, project)
	for _, cmd := range []string{
		`ln OUT/f src/h`, `ln -s OUT/f src/l`, `ln -sf OUT src/d`, `ln -s ../../OUT/f src/l`, `ln --symbolic OUT/f l`,
		`ln -st src OUT/f`, `ln -s OUT/f src/l2 && echo a > src/l2`, `ln -s /etc src/e; echo a >> src/e/x`,
		`mv src/outlink src/y && echo a > src/y/f`, `cp -a src/outlink src/z; echo a > src/z/f`,
		`cp -P src/b.txt src/c.txt && echo a >> src/c.txt`,
	} {
		cmd = replaceOut(cmd, outside)
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := evalIn(p, project, mode, cmd); d.Behavior != Ask {
				t.Errorf("%s, %s: %s by %q (%s), want ask", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	for _, cmd := range []string{`ln -s a.txt src/link`, `ln src/a.txt src/h2`, `ln -s src/a.txt link.txt`,
		`mkdir -p build && echo x > build/log`, `touch src/n && echo a > src/n`, `cp src/a.txt src/c && cat src/c`} {
		if d := evalIn(p, project, ModeDefault, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}
