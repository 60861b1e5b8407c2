package permission

import "testing"

// expansionAsks evaluates each line under a policy that allows the command
// it runs and under bypassPermissions, and requires an ask by "unknown"
// from both: the construct's meaning is computed at run time from a value
// the analysis cannot know.
func expansionAsks(t *testing.T, lines []string) {
	t.Helper()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash(echo:*)", "Bash(true:*)", "Bash(printf:*)", "Bash(cat:*)", "Bash(:*)", "Bash(read:*)", "Bash(unset:*)", "Bash(test:*)", "Bash([:*)", "Bash(mapfile:*)", "Bash(shopt:*)", "Bash(ls:*)"}})
	for _, s := range lines {
		for _, mode := range []Mode{ModeDefault, ModeBypass, ModeAcceptEdits} {
			req := bash(s)
			req.WorkDir, req.Mode = root, mode
			if d := p.Evaluate(req); d.Behavior != Ask || d.Rule != "unknown" {
				t.Errorf("%s in %s: got %s by %q (%s), want ask by unknown", s, mode, d.Behavior, d.Rule, d.Message)
			}
		}
	}
}

// bash evaluates the value of a variable named in arithmetic as arithmetic
// again, subscripts included, so `x='a[$(touch P)]'; echo $((x))` runs
// touch. Every arithmetic context is covered.
func TestH15_ArithmeticSubscriptHidesACommand(t *testing.T) {
	t.Parallel()
	expansionAsks(t, []string{
		`x='a[$(touch P)]'; echo $((x))`,
		`echo $((x))`,
		`echo $(( x + 1 ))`,
		`echo $(($x))`,
		`echo "$(( ${x} * 2 ))"`,
		`echo $[x]`,
		`(( x ))`,
		`((x++)) || true`,
		`let x`,
		`let "y = x + 1"`,
		`for ((i = x; i < 3; i++)); do echo $i; done`,
		`for ((i = 0; i < n; i++)); do echo $i; done`,
		`for ((;;)); do echo $((i++)); break; done`,
		`i=0; for ((i = 0; i < 3; i++)); do i='a[$(touch P)]'; done`,
		`[[ $x -eq 0 ]] && echo zero`,
		`[[ x -lt 1 ]]`,
		`[[ 1 -ne $(cat n) ]]`,
		`[[ -v a[$x] ]]`,
		`[[ -v $name ]]`,
		`a[$x]=1`,
		`a[x]=1; echo ok`,
		`arr=([$x]=1)`,
		`declare -a arr=([$i]=v)`,
		`echo ${a[$x]}`,
		`echo "${a[x]}"`,
		`echo ${a[$(cat i)]}`,
		`echo ${#a[$x]}`,
		`echo ${v:$x}`,
		`echo ${v:0:$n}`,
		`echo ${v: x}`,
		`echo ${@:$x}`,
		`echo $(( $(cat f) ))`,
		"echo $(( `cat f` ))",
		`cat <<EOF
$((x))
EOF`,
		`echo ${x:-$((y))}`,
		`declare -i n=$x`,
		`local -i n; n=$1`,
		`typeset -ia list`,
		`declare -n ref=x; echo $ref`,
		`unset "a[$x]"`,
		`unset 'a[i]'`,
		`read "a[$i]" < f`,
		`read -a "$name" < f`,
		`printf -v "$name" %s x`,
		`printf -v 'a[i]' %s x`,
		`test -v "a[$x]"`,
		`[ -v "$x" ]`,
		`mapfile -C 'touch P' -c 1 lines < f`,
		`declare "$x"`,
		`export "$assignment"`,
		`bash -c 'echo $((x))'`,
		`eval 'echo $((x))'`,
		`true | (( x ))`,
		`f() { echo $((x)); }; f`,
	})
}

func TestH15_IndirectAndPromptExpansionsAsk(t *testing.T) {
	t.Parallel()
	expansionAsks(t, []string{
		`echo ${!x}`,
		`echo "${!name}"`,
		`echo ${!x:-default}`,
		`echo ${!x[0]}`,
		`echo ${x@P}`,
		`echo "${PS1@P}"`,
		`echo "${arr[@]@P}"`,
		`cat "${!f}"`,
	})
}

func TestH15_ExtendedGlobHidesACommand(t *testing.T) {
	t.Parallel()
	expansionAsks(t, []string{
		`[[ x == @(x|$(touch P)) ]]`,
		`[[ $v == !(a|$(touch P)) ]] && echo y`,
		"[[ x == +(a|`touch P`) ]]",
		`case x in @(a|$(touch P))) echo y;; esac`,
		`ls *(x|${y})`,
		`shopt -s extglob; ls @(a|b)`,
		`shopt -s extglob
ls !(x)`,
		`shopt -s nullglob extglob; echo *`,
		`shopt -s expand_aliases; ls`,
		`shopt -s "$opt"; ls`,
		`bash -O extglob -c 'ls @(a|b)'`,
	})
}

// The same constructs with values the analysis knows stay quiet.
func TestH15_KnownExpansionsStayQuiet(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash(echo:*)", "Bash(seq:*)", "Bash(test:*)", "Bash([:*)", "Bash(gofmt:*)", "Bash(true:*)"}})
	checkCommands(t, p, root, []commandCase{
		{`echo $((1 + 2 * 3))`, Allow, "Bash(echo:*)", ""},
		{`echo $[16#ff]`, Allow, "Bash(echo:*)", ""},
		{`for ((i = 0; i < 3; i++)); do echo $((i * 2)) ${a[i]}; done`, Allow, "Bash(echo:*)", ""},
		{`for ((i = 0, j = 1; i < 10; i += j)); do echo $i; done`, Allow, "Bash(echo:*)", ""},
		{`seq 1 $((10 - 1))`, Allow, "Bash(seq:*)", ""},
		{`[[ 2 -gt 1 ]] && echo yes`, Allow, "Bash(echo:*)", ""},
		{`[[ $# -eq 0 ]] && echo none`, Allow, "Bash(echo:*)", ""},
		{`[ "$x" -eq 0 ] && echo zero`, Allow, "Bash(echo:*)", ""}, // test does not evaluate arithmetic
		{`test "$n" -gt 3`, Allow, builtinsRule, ""},
		{`[[ -n $x && $x == foo* ]] && echo y`, Allow, "Bash(echo:*)", ""},
		{`[[ -v HOME ]] && echo set`, Allow, "Bash(echo:*)", ""},
		{`echo ${#x} ${x:-none} ${x#prefix} ${x%.go} ${x//a/b} ${x^^} ${v:1:2} ${x@Q}`, Allow, "Bash(echo:*)", ""},
		{`echo "${arr[@]}" ${!arr[@]} ${#arr[@]} ${arr[0]} ${!prefix*}`, Allow, "Bash(echo:*)", ""},
		{`for f in *.go; do gofmt -l "$f"; done`, Allow, "Bash(gofmt:*)", ""},
		{`[[ $x == @(a|b) ]] && echo y`, Allow, "Bash(echo:*)", ""},
	})
}

// What bash and the parser read differently, and syntax the walker does not
// handle, is unknown.
func TestH15_UnhandledSyntaxAsks(t *testing.T) {
	t.Parallel()
	expansionAsks(t, []string{
		`coproc ls`,
		`coproc LANG=C ls`,
		`coproc worker { ls; }`,
		`cat script.sh | sh`,
		`echo ls | bash -s`,
		`ls | bash`,
		`bash -c "bash -c \"bash -c \\\"bash -c \\\\\\\"bash -c ls\\\\\\\"\\\"\""`,
	})
}
