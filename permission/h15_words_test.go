package permission

import "testing"

// Rules match the words bash runs, after quote removal, not the source
// text: every spelling of rm is rm to a deny rule, to an ask rule and to
// an allow rule.
func TestH15_RulesMatchWordValuesNotSourceText(t *testing.T) {
	t.Parallel()
	spellings := []string{
		`rm victim`, `\rm victim`, `"rm" victim`, `'rm' victim`, `r\m victim`, `$'rm' victim`,
		`$'\x72m' victim`, `$'\162m' victim`, `r""m victim`, `"r"'m' victim`, `/bin/rm victim`,
		`/usr/bin/rm victim`, `./rm victim`, `../bin/rm victim`, `command rm victim`, `builtin rm victim`,
		`exec rm victim`, `env rm victim`, `rm$(echo) victim`, `"$(echo rm)" victim`, `${x:-rm} victim`,
		`$RM victim`, `r${EMPTY}m victim`, `rm "victim"`, `{rm,} victim`,
	}
	root := t.TempDir()
	deny := newPolicy(t, []string{root}, rules{deny: []string{"Bash(rm:*)"}, allow: []string{"Bash"}})
	ask := newPolicy(t, []string{root}, rules{ask: []string{"Bash(rm:*)"}, allow: []string{"Bash"}})
	for _, s := range spellings {
		for _, mode := range []Mode{ModeDefault, ModeBypass, ModeAcceptEdits} {
			req := bash(s)
			req.Mode, req.WorkDir = mode, root
			if d := deny.Evaluate(req); d.Behavior != Deny || d.Rule != "Bash(rm:*)" {
				t.Errorf("deny, %s, %s: got %s by %q (%s)", mode, s, d.Behavior, d.Rule, d.Message)
			}
			if d := ask.Evaluate(req); d.Behavior != Ask {
				t.Errorf("ask, %s, %s: got %s by %q (%s)", mode, s, d.Behavior, d.Rule, d.Message)
			}
		}
	}
}

func TestH15_AllowRulesMatchWordValues(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash(rm:*)", "Bash(git status:*)", "Bash(npm test)", `Bash("echo" 'a b')`}})
	cases := []commandCase{
		{`\rm x`, Allow, "Bash(rm:*)", ""},
		{`"rm" x`, Allow, "Bash(rm:*)", ""},
		{`r\m x`, Allow, "Bash(rm:*)", ""},
		{`$'rm' x`, Allow, "Bash(rm:*)", ""},
		{`/bin/rm x`, Allow, "Bash(rm:*)", ""}, // a program in a system directory by its path
		{`/usr/bin/git status`, Allow, "Bash(git status:*)", ""},
		{`git "status" -s`, Allow, "Bash(git status:*)", ""},
		{`git 'status'`, Allow, "Bash(git status:*)", ""},
		{`npm "test"`, Allow, "Bash(npm test)", ""},
		{`echo "a b"`, Allow, `Bash("echo" 'a b')`, ""},
		// A program the agent may have written is not the one a rule names.
		{`./git status`, Ask, "mode:default", ""},
		{`/tmp/bin/git status`, Ask, "mode:default", ""},
		{`~/bin/rm x`, Ask, "mode:default", ""},
		// Words are not joined or split by quoting tricks.
		{`git statuses`, Ask, "mode:default", ""},
		{`git status$x`, Ask, "mode:default", ""},
		{`git "$SUB"`, Ask, "mode:default", ""},
	}
	checkCommands(t, p, root, cases)
}

// A rule written with a path to a program matches the program by its base
// name too, in deny and ask rules.
func TestH15_DenyRuleWithAPathMatchesTheBaseName(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{deny: []string{"Bash(/usr/bin/curl:*)"}, ask: []string{"Bash(/bin/git push:*)"}})
	checkCommands(t, p, root, []commandCase{
		{"curl example.com", Deny, "Bash(/usr/bin/curl:*)", ""},
		{"/usr/local/bin/curl example.com", Deny, "Bash(/usr/bin/curl:*)", ""},
		{"git push origin", Ask, "Bash(/bin/git push:*)", ""},
	})
}

// A part whose program is only known when it runs might be anything: a deny
// rule denies it and, without one, it asks in every mode.
func TestH15_UnknownProgramMightMatchADenyRule(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{deny: []string{"Bash(curl:*)"}, allow: []string{"Bash(ls:*)"}})
	for _, s := range []string{`$CMD example.com`, `"$(which curl)" example.com`, `${TOOL:-curl} x`, `sudo $X y`, "`printf cu`rl x"} {
		req := bash(s)
		req.WorkDir = root
		if d := p.Evaluate(req); d.Behavior != Deny || d.Rule != "Bash(curl:*)" {
			t.Errorf("%s: got %s by %q (%s), want deny by Bash(curl:*)", s, d.Behavior, d.Rule, d.Message)
		}
	}
	q := newPolicy(t, []string{root}, rules{allow: []string{"Bash"}})
	for _, s := range []string{`$CMD x`, `"$EDITOR" notes.txt`, `sudo "$X"`} {
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			req := bash(s)
			req.WorkDir, req.Mode = root, mode
			if d := q.Evaluate(req); d.Behavior != Ask || d.Rule != "unknown" {
				t.Errorf("%s in %s: got %s by %q (%s), want ask by unknown", s, mode, d.Behavior, d.Rule, d.Message)
			}
		}
	}
}
