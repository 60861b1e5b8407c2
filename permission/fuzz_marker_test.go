package permission

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// markerSpellings are ways to write the marker program: bash runs the same
// program for each.
var markerSpellings = []string{
	"wbmarker", `\wbmarker`, `'wbmarker'`, `"wbmarker"`, `wb''marker`, `$'wbmarker'`, `$'\x77bmarker'`,
	`wb\marker`, `/usr/bin/wbmarker`, `./wbmarker`, `command wbmarker`, `env wbmarker`,
	`nohup wbmarker`, `timeout 5 wbmarker`, `"$(echo wbmarker)"`, "`printf wbmarker`", `${X:-wbmarker}`,
	`$M`, `wb${E}marker`, `{wbmarker,}`, `exec wbmarker`, `builtin wbmarker`, `sudo wbmarker`,
	`torify wbmarker`, `eval -- wbmarker`, `xargs wbmarker`, `wb\` + "\n" + `marker`,
	// Session 6.
	`env -a x wbmarker`, `env -C / wbmarker`, `sem wbmarker`, `su -s /bin/wbmarker root`, `/usr/bin/wbmarke?`,
	`env 'BASH_FUNC_wbmarker%%=() { :; }' wbmarker`,
}

// shellQuote quotes s as one shell word.
func shellQuote(s string) string {
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return q
}

// prefixed puts an environment prefix in front of c: directly when c is one
// simple command, otherwise in front of a bash -c that runs it (a prefix in
// front of a keyword is a command named like the keyword, which runs
// nothing).
func prefixed(prefix, c string) string {
	f, err := syntax.NewParser().Parse(strings.NewReader(c), "")
	if err == nil && len(f.Stmts) == 1 && !f.Stmts[0].Background && !f.Stmts[0].Negated {
		if call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(call.Args) > 0 {
			return prefix + c
		}
	}
	return prefix + "bash -c " + shellQuote(c)
}

// markerWrappers each wrap a command in a construct that still runs it.
var markerWrappers = []func(c string) string{
	func(c string) string { return c + "; true" },
	func(c string) string { return "true && " + c },
	func(c string) string { return "false || " + c },
	func(c string) string { return "(" + c + ")" },
	func(c string) string { return "{ " + c + "; }" },
	func(c string) string { return "echo $(" + c + ")" },
	func(c string) string { return `echo "$(` + c + `)"` },
	func(c string) string { return "cat <(" + c + ")" },
	func(c string) string { return "echo x > >(" + c + ")" },
	func(c string) string { return "bash -c " + shellQuote(c) },
	func(c string) string { return "sh -lc " + shellQuote(c) },
	func(c string) string { return "eval " + shellQuote(c) },
	func(c string) string { return "x=" + shellQuote("a[$("+c+")]") + "; echo $((x))" },
	func(c string) string { return "echo $(( $(" + c + ") ))" },
	func(c string) string { return "(( $(" + c + ") ))" },
	func(c string) string { return "a[$(" + c + ")]=1" },
	func(c string) string { return "echo ${a[$(" + c + ")]}" },
	func(c string) string { return "cat <<EOF\n$(" + c + ")\nEOF" },
	func(c string) string { return "sh <<'EOF'\n" + c + "\nEOF" },
	func(c string) string { return "bash <<< " + shellQuote(c) },
	func(c string) string { return c + " > out.txt" },
	func(c string) string { return c + " 2>&1 | cat" },
	func(c string) string { return c + " 2>/dev/null" },
	func(c string) string { return "cat /dev/null | " + c },
	func(c string) string { return prefixed("LANG=C ", c) },
	func(c string) string { return prefixed("GIT_DIR=x ", c) },
	func(c string) string { return "if true; then " + c + "; fi" },
	func(c string) string { return "for i in 1; do " + c + "; done" },
	func(c string) string { return "for ((i = 0; i < 1; i++)); do " + c + "; done" },
	func(c string) string { return "while true; do " + c + "; break; done" },
	func(c string) string { return "f() { " + c + "; }; f" },
	func(c string) string { return "case x in x) " + c + ";; esac" },
	func(c string) string { return "[[ $(" + c + ") == x ]]" },
	func(c string) string { return "echo ${x:-$(" + c + ")}" },
	func(c string) string { return c + " &" },
	func(c string) string { return "time " + c },
	func(c string) string { return "! " + c },
	func(c string) string { return "trap " + shellQuote(c) + " EXIT" },
	func(c string) string { return "x=$(" + c + ")" },
	func(c string) string { return "export x=$(" + c + ")" },
	func(c string) string { return `[ -n "$(` + c + `)" ]` },
	func(c string) string { return "cd /tmp && " + c },
	func(c string) string { return "echo \"${x@P}\" " + shellQuote("$("+c+")") },
	func(c string) string { return "[[ x == @(a|$(" + c + ")) ]]" },
	func(c string) string { return "coproc " + c },
	func(c string) string { return c + " | cat" },
	// Session 5: constructs the red team found the analysis read wrongly.
	func(c string) string { return `echo "${x:-'$(` + c + `)'}"` },
	func(c string) string { return "cat <<EOF\n${x:-'$(" + c + ")'}\nEOF" },
	func(c string) string { return "bash -s a <<< " + shellQuote(c) },
	func(c string) string { return "sh -s -- x <<'EOF'\n" + c + "\nEOF" },
	func(c string) string { return "eval -- " + shellQuote(c) },
	func(c string) string { return prefixed("BASH_ENV=x ", c) },
	func(c string) string { return "echo x #\\\n" + c },
	func(c string) string { return "echo hi\\\r\n" + c },
	func(c string) string { return "sort --compress-program=" + shellQuote(c) + " x" },
	func(c string) string { return "tar --to-command=" + shellQuote(c) + " -xf x.tar" },
	func(c string) string { return "go test -exec " + shellQuote(c) + " ./..." },
	func(c string) string { return "git rebase -x " + shellQuote(c) + " HEAD~1" },
	func(c string) string { return "find . -exec sh -c " + shellQuote(c) + " \\;" },
	func(c string) string { return "echo " + shellQuote(c) + " | xargs -I{} sh -c {}" },
	func(c string) string { return "parallel ::: " + shellQuote(c) },
	func(c string) string { return "ssh -o ProxyCommand=" + shellQuote(c) + " h" },
	// Session 6.
	func(c string) string { return "env PAGER=" + shellQuote(c) + " git log" },
	func(c string) string { return "env " + shellQuote("BASH_FUNC_f%%=() { "+c+"\n}") + " bash -c f" },
	func(c string) string { return "fish -c " + shellQuote(c) },
	func(c string) string { return "awk " + shellQuote(`BEGIN{system("`+c+`")}`) },
	func(c string) string { return "env -C src bash -c " + shellQuote(c) },
	func(c string) string { return "su -c " + shellQuote(c) + " -" },
}

// FuzzH15_MarkerIsSeen wraps a marker command in random constructs that
// still run it (quotes, expansions, arithmetic, subshells, prefixes,
// redirections, here-documents) and requires, under a policy that denies
// the marker and allows everything else in bypassPermissions mode, that the
// line never runs unasked: the marker is seen as a part (and denied) or the
// line asks. A deny rule that might match denies too.
func FuzzH15_MarkerIsSeen(f *testing.F) {
	for _, seed := range [][]byte{{0}, {1, 2}, {3, 12}, {7, 17, 4}, {22, 5, 9, 30}, {15, 12, 40, 1}, {200, 19, 33},
		{0, 46}, {1, 47, 9}, {2, 48}, {3, 49, 10}, {4, 50}, {23, 51}, {5, 52}, {6, 53}, {7, 54}, {8, 55},
		{9, 56}, {10, 57}, {11, 58}, {12, 59}, {13, 60}, {14, 61}, {24, 62}, {25}, {26}} {
		f.Add(seed)
	}
	root := f.TempDir()
	p := NewPolicy([]string{root})
	if err := p.AddRules(Deny, "fuzz", "Bash(wbmarker:*)"); err != nil {
		f.Fatal(err)
	}
	if err := p.AddRules(Allow, "fuzz", "Bash", "*"); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, choices []byte) {
		if len(choices) == 0 || len(choices) > 8 {
			return
		}
		cmd := markerSpellings[int(choices[0])%len(markerSpellings)] + " arg"
		for _, c := range choices[1:] {
			cmd = markerWrappers[int(c)%len(markerWrappers)](cmd)
		}
		req := bash(cmd)
		req.WorkDir, req.Mode = root, ModeBypass
		if d := p.Evaluate(req); d.Behavior == Allow {
			t.Fatalf("%q was allowed (%s by %s): the marker was neither seen nor asked about", cmd, d.Message, d.Rule)
		}
	})
}
