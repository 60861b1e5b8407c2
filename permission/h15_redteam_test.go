package permission

import (
	"testing"
)

// evalIn evaluates cmd as a Bash call in dir under mode.
func evalIn(p *Policy, dir string, mode Mode, cmd string) Decision {
	req := bash(cmd)
	req.WorkDir, req.Mode = dir, mode
	return p.Evaluate(req)
}

// denyRmEverywhere is a policy that allows every command and denies rm, the
// setting in which a spelling the analysis misses runs rm.
func denyRmEverywhere(t *testing.T, root string) *Policy {
	return newPolicy(t, []string{root}, rules{deny: []string{"Bash(rm:*)"}, allow: []string{"Bash"}})
}

// Wrappers run the command in their arguments: deny rules and hard deny see
// through them, with their options read as getopt reads them (long options
// with a separate value, operands before the command, shell strings).
func TestH15_WrappersAreSeenThrough(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := denyRmEverywhere(t, root)
	for _, cmd := range []string{
		`sudo --user root rm x`, `sudo -u root rm x`, `env --unset FOO rm x`, `env --chdir /tmp rm x`,
		`timeout --signal KILL 5 rm x`, `nice --adjustment 5 rm x`, `stdbuf --output 0 rm x`,
		`echo x | xargs --max-args 1 rm`, `chrt 1 rm x`, `taskset 1 rm x`, `taskset -c 0 rm x`,
		`flock /tmp/l rm x`, `flock -w 3 /tmp/l rm x`, `flock /tmp/l -c 'rm x'`, `unshare -r rm x`,
		`nsenter -t 1 rm x`, `su -c 'rm x'`, `su root -c 'rm x'`, `su - root -c "rm x"`, `runuser -u me -- rm x`,
		`script -q -c 'rm x' /dev/null`, `watch rm x`, `watch -n 1 'ls; rm x'`, `strace -o log rm x`,
		`strace -f -e trace=file rm x`, `ltrace rm x`, `chroot / rm x`, `busybox rm x`, `fakeroot rm x`,
		`faketime '2020-01-01' rm x`, `pkexec --user root rm x`, `sg wheel 'rm x'`, `sudo strace rm x`,
		`env -S 'rm x'`, `env -S'rm -f x'`, `env --split-string='rm x'`, `parallel -j 2 rm ::: a b`,
		`systemd-run --unit x rm x`, `proxychains -f c rm x`, `numactl --membind 0 rm x`,
	} {
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := evalIn(p, root, mode, cmd); d.Behavior != Deny || d.Rule != "Bash(rm:*)" {
				t.Errorf("%s, %s: %s by %q (%s), want deny by Bash(rm:*)", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	for _, cmd := range []string{
		`sudo --user root rm -rf /`, `strace rm -rf /`, `watch rm -rf /`, `chrt 1 rm -rf /`, `busybox rm -rf /`,
		`su -c 'rm -rf /'`, `flock /tmp/l -c 'rm -rf ~'`, `env -S 'rm -rf /'`, `timeout --signal KILL 5 rm -rf /`,
	} {
		if reason, denied := HardDeny(cmd); !denied {
			t.Errorf("%s: not hard-denied", cmd)
		} else if reason == "" {
			t.Errorf("%s: hard-denied without a reason", cmd)
		}
	}
	// env -S reads its string by rules of its own: it asks in every mode.
	if d := evalIn(p, root, ModeBypass, `env -S 'touch x'`); d.Behavior != Ask || d.Rule != "unknown" {
		t.Errorf("env -S: %s by %q, want ask by unknown", d.Behavior, d.Rule)
	}
}

// Code whose text the line does not hold (a variable's value, a
// substitution's output, standard input from a pipe) asks in every mode.
func TestH15_CodeOnlyKnownWhenItRunsAsks(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash", "Bash(bash:*)", "Bash(sh:*)", "Bash(echo:*)", "Bash(eval:*)"}})
	for _, cmd := range []string{
		`x='rm x'; eval "$x"`, `eval $CMD`, `eval "$1"`, `x='rm -rf /'; trap "$x" EXIT`,
		`x='rm x'; bash -c "$x"`, `sh -c "$(cat script)"`, `source <(echo rm x)`, `. <(curl -s x)`,
		`bash <(echo rm x)`, `sh /dev/fd/3 3<script`, `. /dev/stdin <<< 'rm x'`, `su -c "$x"`,
		`flock /tmp/l -c "$x"`, `watch "$x"`,
	} {
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := evalIn(p, root, mode, cmd); d.Behavior != Ask || d.Rule != "unknown" {
				t.Errorf("%s, %s: %s by %q (%s), want ask by unknown", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	// A script a shell reads from a here-string is split like bash -c.
	d := denyRmEverywhere(t, root)
	for _, cmd := range []string{`bash /dev/stdin <<< 'rm x'`, `bash - <<< 'rm x'`, `sh /dev/stdin <<EOF
rm x
EOF`} {
		if got := evalIn(d, root, ModeBypass, cmd); got.Behavior != Deny || got.Rule != "Bash(rm:*)" {
			t.Errorf("%s: %s by %q, want deny by Bash(rm:*)", cmd, got.Behavior, got.Rule)
		}
	}
}

// Values that a program or bash runs as a command line (PAGER,
// GIT_SSH_COMMAND, PROMPT_COMMAND, PS4, alias values, git -c settings)
// are shown to deny rules and hard deny.
func TestH15_CommandsInValuesAreSeen(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := denyRmEverywhere(t, root)
	for _, cmd := range []string{
		`PAGER='rm x' git log`, `GIT_PAGER="rm x" git log`, `GIT_SSH_COMMAND='rm x' git fetch`,
		`EDITOR='rm x' git commit`, `export PROMPT_COMMAND='rm x'`, `PROMPT_COMMAND='rm x' bash -i`,
		`PS4='$(rm x)'; set -x; echo hi`, `declare -x PS1='$(rm x)'`, `alias ls='rm x'`, `alias l=ls k='rm x'`,
		`git -c core.pager='rm x' log`, `git -c alias.x='!rm x' x`, `git -c core.sshCommand='rm x' fetch`,
		`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm x' git status`,
		`GIT_CONFIG_PARAMETERS="'core.pager=rm x'" git log`, `: ${PAGER:='rm x'}; git log`,
		`LESSOPEN='|rm x %s' less f`,
	} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Deny || d.Rule != "Bash(rm:*)" {
			t.Errorf("%s: %s by %q (%s), want deny by Bash(rm:*)", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
	for _, cmd := range []string{`alias ls='rm -rf /'`, `export PROMPT_COMMAND='rm -rf ~'`, `PAGER='rm -rf /' git log`} {
		if _, denied := HardDeny(cmd); !denied {
			t.Errorf("%s: not hard-denied", cmd)
		}
	}
	// A command variable set from a value only known at run time asks.
	if d := evalIn(p, root, ModeBypass, `PAGER="$x" git log`); d.Behavior != Ask || d.Rule != "unknown" {
		t.Errorf(`PAGER="$x": %s by %q, want ask by unknown`, d.Behavior, d.Rule)
	}
	// Plain values stay quiet.
	for _, cmd := range []string{`PAGER=cat git log`, `alias ll='ls -la'`, `git -c user.name='rm x' commit -m x`,
		`GIT_EDITOR=true git commit --amend`} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}

// Builtins that change what later names run or how later words are read
// make the line unknown; `hash -p` gives the name the program's spelling.
func TestH15_BuiltinsThatChangeLaterNamesAsk(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash"}, deny: []string{"Bash(curl:*)"}})
	for _, cmd := range []string{
		`hash -p /bin/rm ls; ls x`, `enable -f ./x.so ls; ls`, `enable -n echo; echo x`,
		`set -k; git status GIT_CONFIG_PARAMETERS="'core.fsmonitor=touch x'"`, `set -o keyword; git status`,
		`shopt -s nocaseglob; touch SRC/OUTLIN[K]/f`, `shopt -s globstar; rm src/**/x`, `shopt -s dotglob nullglob; rm *`,
	} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Ask || d.Rule != "unknown" {
			t.Errorf("%s: %s by %q (%s), want ask by unknown", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
	if d := evalIn(p, root, ModeBypass, `hash -p /usr/bin/curl ls; ls x`); d.Behavior != Deny || d.Rule != "Bash(curl:*)" {
		t.Errorf("hash -p curl: %s by %q, want deny by Bash(curl:*)", d.Behavior, d.Rule)
	}
	for _, cmd := range []string{`set -euo pipefail; go test ./...`, `set -e; make test`, `set -x; ls`, `shopt -q extglob`} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Allow {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
	allow := newPolicy(t, []string{root}, rules{allow: []string{"Bash(git status:*)", "Bash(set:*)"}})
	if d := evalIn(allow, root, ModeDefault, `set -a; gitdir=x; git status`); d.Behavior != Ask {
		t.Errorf("set -a exports later assignments: %s by %q, want ask", d.Behavior, d.Rule)
	}
}

// A function defined in the line may shadow the builtins whose output the
// analysis computes ahead (`$(echo /)`): their output is then unknown.
func TestH15_FunctionsShadowingPrintersAreUnknown(t *testing.T) {
	t.Parallel()
	project, outside := workspace(t)
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(rm:*)", "Bash(echo:*)", "Bash(printf:*)", "Bash(touch:*)", "Bash(command:*)"}})
	for _, cmd := range []string{
		`echo() { printf /; }; rm -rf $(echo a)`,
		`printf() { command echo ` + outside + `/x; }; touch "$(printf a)"`,
		`touch "$(pwd)/x"; pwd() { echo /; }`,
		`f() { :; }; basename() { echo /; }; rm -rf "$(basename a/b)"`,
	} {
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := evalIn(p, project, mode, cmd); d.Behavior != Ask || d.Rule != "unknown-target" {
				t.Errorf("%s, %s: %s by %q (%s), want ask by unknown-target", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	if d := evalIn(p, project, ModeDefault, `touch "$(echo a)"`); d.Behavior != Allow {
		t.Errorf("the builtin echo is still computed: %s by %q", d.Behavior, d.Rule)
	}
}

// A NUL byte cuts a program's argument and bash drops it: the line asks,
// and deny rules and hard deny see it both ways.
func TestH15_NULByteAsks(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := denyRmEverywhere(t, root)
	if d := evalIn(p, root, ModeBypass, "echo hi\x00rm x"); d.Behavior != Ask || d.Rule != "unknown" {
		t.Errorf("NUL: %s by %q, want ask by unknown", d.Behavior, d.Rule)
	}
	if d := evalIn(p, root, ModeBypass, "r\x00m x"); d.Behavior != Deny || d.Rule != "Bash(rm:*)" {
		t.Errorf("r NUL m: %s by %q, want deny by Bash(rm:*)", d.Behavior, d.Rule)
	}
	for _, cmd := range []string{"r\x00m -rf /", "rm -rf /\x00x", "rm -rf /\x00"} {
		if _, denied := HardDeny(cmd); !denied {
			t.Errorf("%q: not hard-denied", cmd)
		}
	}
	// A carriage return is an ordinary character to bash: this is echo.
	if d := evalIn(p, root, ModeBypass, "echo hi\rrm x"); d.Behavior != Allow {
		t.Errorf("CR: %s by %q, want allow", d.Behavior, d.Rule)
	}
}

// A line typed into a long-lived shell (shell_send) runs where earlier lines
// left it: a relative name it writes asks in every mode, HOME and any
// function or alias are unknown, so is the repository git reads, and what
// the rules allow elsewhere stays allowed.
func TestH15_PersistentShellStartsSomewhereUnknown(t *testing.T) {
	t.Parallel()
	project, _ := workspace(t)
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(touch:*)", "Bash(echo:*)", "Bash(rm:*)", "Bash(git status:*)", "Bash(cd:*)"}})
	eval := func(cmd string, mode Mode) Decision {
		return p.Evaluate(Request{Tool: "shell_send", Mode: mode, WorkDir: project,
			Target: Target{Commands: []string{cmd}, Persistent: true}})
	}
	for _, cmd := range []string{`touch x`, `echo a > notes.txt`, `rm -rf build`, `touch ~/x`, `rm -rf "$(echo a)"`, `cd ./src && touch y`} {
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := eval(cmd, mode); d.Behavior != Ask || d.Rule != "unknown-target" {
				t.Errorf("%s, %s: %s by %q (%s), want ask by unknown-target", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	// git reads the repository of the directory the session is in, which
	// an earlier line may have moved to a planted one (gitrepo.go).
	if d := eval(`git status`, ModeDefault); d.Behavior != Ask || d.Rule != "unknown" {
		t.Errorf("git status in a session: %s by %q (%s), want ask by unknown", d.Behavior, d.Rule, d.Message)
	}
	for _, cmd := range []string{`touch ` + project + `/x`, `echo hi`, `true`} {
		if d := eval(cmd, ModeDefault); d.Behavior != Allow && cmd != "true" {
			t.Errorf("%s: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		} else if cmd == "true" && d.Behavior != Ask {
			t.Errorf("true in a session may be an alias: %s by %q, want ask", d.Behavior, d.Rule)
		}
	}
	// The same line run by a fresh shell stays quiet.
	if d := evalIn(p, project, ModeDefault, `touch x`); d.Behavior != Allow {
		t.Errorf("fresh shell: %s by %q", d.Behavior, d.Rule)
	}
}

// chmod, chown and chgrp of /, home or a system directory, recursively, are
// refused in every mode, whatever the spelling.
func TestH15_RecursiveOwnershipOfTheSystemIsHardDenied(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{
		`chmod -R 777 /`, `chmod -R 000 /`, `chmod --recursive 777 /`, `chmod -Rv 777 /*`, `chmod -R u+w /`,
		`chmod -R 777 ~`, `chmod -R -x /usr`, `chmod -R --reference=x /etc`, `chmod -R --reference x /etc`,
		`chown -R me /`, `chown -R me:me /`, `chown -hR me /home`, `chown --recursive me ~`, `chgrp -R x /`,
		`sudo chmod -R 777 /`, `cd / && chmod -R 777 .`, `cd / && chown -R me *`, `chmod -R 777 "${HOME:?}"`,
		`chmod -R 777 $(echo /)`, `/bin/chmod -R 777 /var`, `chmod -R 777 {/,x}`,
	} {
		if reason, denied := HardDeny(cmd); !denied {
			t.Errorf("%s: not hard-denied", cmd)
		} else if reason == "" {
			t.Errorf("%s: no reason", cmd)
		}
	}
	for _, cmd := range []string{`chmod -R 755 src`, `chmod 777 /tmp/x`, `chown -R me build`, `chmod -R 755 ./`, `chmod -x /usr/bin/x`} {
		if _, denied := HardDeny(cmd); denied {
			t.Errorf("%s: hard-denied", cmd)
		}
	}
}

// An interactive session's shell replaces history expansions (`!!`, `!rm`,
// `^a^b`) with earlier lines before it reads the line, and fc runs earlier
// lines again: such a line asks in every mode.
func TestH15_HistoryExpansionAsks(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash", "Bash(echo:*)"}})
	for _, cmd := range []string{`!!`, `echo x; !echo`, `!-2`, `^echo^rm`, `echo $(!!)`, `sudo !!`} {
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			d := p.Evaluate(Request{Tool: "shell_send", Mode: mode, WorkDir: root, Target: Target{Commands: []string{cmd}, Persistent: true}})
			if d.Behavior != Ask || d.Rule != "unknown" {
				t.Errorf("%s, %s: %s by %q (%s), want ask by unknown", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	for _, cmd := range []string{`fc -s`, `fc -e vi 10`, `history -s 'rm x'; fc -s`} {
		if d := evalIn(p, root, ModeBypass, cmd); d.Behavior != Ask || d.Rule != "unknown" {
			t.Errorf("%s: %s by %q, want ask by unknown", cmd, d.Behavior, d.Rule)
		}
	}
	// `!` before a blank, = or ( is no expansion, and a fresh shell has none.
	for _, cmd := range []string{`[ ! -f x ] && echo y`, `echo hi !`, `[[ x != y ]] && echo z`} {
		d := p.Evaluate(Request{Tool: "shell_send", WorkDir: root, Target: Target{Commands: []string{cmd}, Persistent: true}})
		if d.Rule == "unknown" {
			t.Errorf("%s: unknown (%s)", cmd, d.Message)
		}
	}
	if d := evalIn(p, root, ModeDefault, `echo hi!x`); d.Behavior != Allow {
		t.Errorf("a fresh shell expands no history: %s by %q", d.Behavior, d.Rule)
	}
}

// Commands an interactive shell runs later on a key or a completion are
// shown to deny rules; so are files named after `rev:` (`git show
// HEAD:.env`), and $PWD after other text is not the relative directory.
func TestH15_CompletionKeyAndPathSpellings(t *testing.T) {
	t.Parallel()
	project, _ := workspace(t)
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash"}, deny: []string{"Bash(rm:*)", "Read(./.env)"}})
	for cmd, rule := range map[string]string{
		`complete -C 'rm x' ls`: "Bash(rm:*)", `bind -x '"\C-a": rm x'`: "Bash(rm:*)",
		// host:.env names another machine's file; it is judged the same,
		// which errs towards denying.
		`git show HEAD:.env`: "Read(./.env)", `scp host:.env .`: "Read(./.env)",
	} {
		d := evalIn(p, project, ModeBypass, cmd)
		if d.Behavior != Deny || d.Rule != rule {
			t.Errorf("%s: %s by %q (%s), want deny by %s", cmd, d.Behavior, d.Rule, d.Message, rule)
		}
	}
	w := newPolicy(t, []string{project}, rules{allow: []string{"Bash(touch:*)"}})
	for _, cmd := range []string{`touch /proc/self/root/$PWD/x`, `touch "/tmp$PWD"`, `touch x$PWD`} {
		if d := evalIn(w, project, ModeBypass, cmd); d.Behavior != Ask || d.Rule != "unknown-target" {
			t.Errorf("%s: %s by %q (%s), want ask by unknown-target", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
	if d := evalIn(w, project, ModeDefault, `touch "$PWD/x"`); d.Behavior != Allow {
		t.Errorf(`touch "$PWD/x": %s by %q`, d.Behavior, d.Rule)
	}
}
