package permission

import "testing"

// `[`, `test`, `true`, `false` and `:` change nothing: a line needs rules
// only for its other commands, and a redirection that writes still does.
func TestReadOnlyBuiltinsNeedNoRule(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash(go test:*)"}})
	checkCommands(t, p, root, []commandCase{
		{`[ -f go.mod ] && go test ./...`, Allow, "Bash(go test:*)", ""},
		{`test -d x || go test ./...`, Allow, "Bash(go test:*)", ""},
		{`go test ./... || true`, Allow, "Bash(go test:*)", ""},
		{`true`, Allow, builtinsRule, "need no rule"},
		{`false`, Allow, builtinsRule, ""},
		{`:`, Allow, builtinsRule, ""},
		{`[[ -n x ]] && :`, Allow, builtinsRule, ""},
		{`if [ -f x ]; then :; else false; fi`, Allow, builtinsRule, ""},
		// Writing a file is not nothing.
		{`: > x`, Ask, "mode:default", ""},
		{`true >> x`, Ask, "mode:default", ""},
		{`{ true; } > x`, Ask, "mode:default", ""},
		// Neither are other programs, other spellings or prefixes.
		{`/usr/bin/test -f x`, Ask, "mode:default", ""},
		{`[ -f x ] && make`, Ask, "mode:default", ""},
		{`LD_PRELOAD=x.so true`, Ask, "mode:default", ""},
		{`test() { make; }; test`, Ask, "mode:default", ""},
		// test -v evaluates a subscript: unknown, as before.
		{`[ -v 'a[$(make)]' ]`, Ask, "unknown", ""},
	})
	// No suggestion names a builtin.
	d := p.Evaluate(bash(`[ -f x ] && make`))
	if d.Suggestion != "Bash(make:*)" {
		t.Errorf("suggestion %q, want Bash(make:*)", d.Suggestion)
	}
}
