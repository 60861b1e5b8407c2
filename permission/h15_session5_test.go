package permission

import (
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

// eval takes `--` as the end of its options, as the other builtins do.
func TestH15_EvalDashDashIsSplit(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := denyRmEverywhere(t, root)
	for _, cmd := range []string{`eval -- rm x`, `eval -- 'rm x'`, `eval -- "echo; rm x"`} {
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
