package permission

import "testing"

// An environment prefix changes what a program does (git reads config and
// hooks from GIT_*, bash runs BASH_ENV, the loader LD_PRELOAD), so only the
// inert variables may precede a command an allow rule matches; any other
// makes the allow rule miss and the call ask.
func TestH15_EnvironmentPrefixMakesAllowRulesMiss(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash(git status:*)", "Bash(go test:*)", "Bash(ls:*)", "Bash(echo:*)", "Bash(make:*)"}})
	asks := []string{
		`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='touch x' git status`,
		`GIT_CONFIG_PARAMETERS="'core.fsmonitor'='touch x'" git status`,
		`GIT_CONFIG_GLOBAL=/tmp/evil git status`,
		`GIT_EXTERNAL_DIFF=./evil git status`,
		`GIT_DIR=/tmp/other git status`,
		`BASH_ENV=./evil.sh git status`,
		`ENV=./evil.sh git status`,
		`LD_PRELOAD=/tmp/x.so ls`,
		`LD_LIBRARY_PATH=/tmp ls`,
		`PATH=/tmp/evil:$PATH git status`,
		`PAGER='sh -c "touch x"' git status`,
		`EDITOR=vim git status`,
		`GOFLAGS=-toolexec=./evil go test ./...`,
		`PROMPT_COMMAND='touch x' ls`,
		`PS4='$(touch x)' ls`,
		`SHELLOPTS=xtrace ls`,
		`IFS=/ ls`,
		`LANG=$(touch x) ls`,
		`LANG="$L" ls`,
		`TZ=:/etc/evil ls`,
		`TZ=../../tmp/x ls`,
		`LC_ALL='C; touch x' ls`,
		`TERM=../../tmp/x ls`,
		`a[0]=1 ls`,
		`GIT_SSH_COMMAND='touch x' git status`,
		// Set for the rest of the line, by assignment or export.
		`PAGER=evil; git status`,
		`export GIT_DIR=/tmp/other; git status`,
		`export BASH_ENV=x && ls`,
		`declare -x LD_PRELOAD=x; ls`,
		`GIT_CONFIG_GLOBAL=/tmp/evil && git status`,
		`http_proxy=http://evil:8080; go test ./...`,
	}
	for _, s := range asks {
		req := bash(s)
		req.WorkDir = root
		if d := p.Evaluate(req); d.Behavior != Ask {
			t.Errorf("%s: got %s by %q, want ask", s, d.Behavior, d.Rule)
		}
	}
	allows := []string{
		`LANG=C git status`,
		`LC_ALL=C.UTF-8 LANG=en_US.UTF-8 git status`,
		`TZ=UTC git status`,
		`TZ=Europe/Berlin ls`,
		`NO_COLOR=1 go test ./...`,
		`FORCE_COLOR=0 make`,
		`TERM=dumb ls`,
		`COLUMNS=120 LINES=40 ls`,
		`CGO_ENABLED=0 GOOS=linux GOARCH=arm64 go test ./...`,
		`CI=true make`,
		`LANG="C" git status`,
		`f=notes.txt; echo "$f"`, // a shell variable no program reads
		`for f in a b; do echo "$f"; done`,
	}
	for _, s := range allows {
		req := bash(s)
		req.WorkDir = root
		if d := p.Evaluate(req); d.Behavior != Allow {
			t.Errorf("%s: got %s by %q (%s), want allow", s, d.Behavior, d.Rule, d.Message)
		}
	}
}

// A deny rule still matches the command behind a prefix.
func TestH15_EnvironmentPrefixDoesNotHideFromDenyRules(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{deny: []string{"Bash(git push:*)"}, allow: []string{"Bash"}})
	for _, s := range []string{`GIT_TRACE=1 git push`, `LANG=C git push`, `A=1 B=2 git push --force`, `env GIT_X=1 git push`} {
		req := bash(s)
		req.WorkDir = root
		if d := p.Evaluate(req); d.Behavior != Deny {
			t.Errorf("%s: got %s by %q, want deny", s, d.Behavior, d.Rule)
		}
	}
}

func TestInertPrefixList(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, value string
		inert       bool
	}{
		{"LANG", "C.UTF-8", true}, {"LC_MESSAGES", "C", true}, {"TZ", "America/New_York", true},
		{"TZ", "/etc/localtime", false}, {"TZ", ":UTC", false}, {"TZ", "a/../b", false},
		{"LANG", "C x", false}, {"LANG", "a/b", false}, {"LC_", "C", false}, {"lang", "C", false},
		{"GIT_DIR", "x", false}, {"BASH_ENV", "", false}, {"LD_PRELOAD", "", false}, {"PAGER", "cat", false},
		{"GIT_PAGER", "cat", false}, {"GOFLAGS", "-v", false}, {"NODE_OPTIONS", "", false},
		{"PYTHONPATH", ".", false}, {"PYTHONSTARTUP", "x", false}, {"LOCPATH", "x", false},
		{"GCONV_PATH", "x", false}, {"TERMINFO", "x", false}, {"HOME", "/", false}, {"TMPDIR", "/tmp", false},
	} {
		if got := inertPrefix(c.name, c.value); got != c.inert {
			t.Errorf("inertPrefix(%q, %q) = %v, want %v", c.name, c.value, got, c.inert)
		}
	}
}

// Variables set by loops and builtins reach later commands' environments
// as surely as assignments do.
func TestH15_VariablesSetByBuiltinsKeepAllowRulesFromMatching(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash(git log:*)", "Bash(read:*)", "Bash(printf:*)", "Bash(getopts:*)", "Bash(echo:*)"}})
	for _, s := range []string{
		`for PAGER in 'sh -c evil'; do git log; done`,
		`read -r PAGER <<< 'sh -c evil'; git log`,
		`read -p prompt GIT_DIR < /dev/null; git log`,
		`printf -v PAGER %s evil; git log`,
		`getopts o GIT_DIR; git log`,
		`for IFS in /; do echo $x; done`,
		`read IFS < f; echo $x`,
	} {
		req := bash(s)
		req.WorkDir = root
		if d := p.Evaluate(req); d.Behavior != Ask {
			t.Errorf("%s: got %s by %q, want ask", s, d.Behavior, d.Rule)
		}
	}
	for _, s := range []string{`for f in a b; do git log "$f"; done`, `read -r line < f; echo "$line"`, `printf -v out %s x; echo "$out"`} {
		req := bash(s)
		req.WorkDir = root
		if d := p.Evaluate(req); d.Behavior != Allow {
			t.Errorf("%s: got %s by %q (%s), want allow", s, d.Behavior, d.Rule, d.Message)
		}
	}
}
