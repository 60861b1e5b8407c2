package permission

import "testing"

// The parser takes a carriage return outside quotes for a blank; bash keeps
// it in the word. `git<CR>status` matched Bash(git status:*), while bash
// runs a program named "git\rstatus". A CR touching a program's name asks
// in every mode; one inside quotes or in an argument changes no program.
func TestH15_ACarriageReturnInAProgramsNameAsks(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	p := newPolicy(t, []string{root}, rules{allow: []string{"Bash(git status:*)", "Bash(echo:*)", "Bash(printf:*)"}})
	for _, cmd := range []string{"git\rstatus", "echo hi\ngit\rstatus", "git status &&\recho x", "\rgit status", "x=1 git\rstatus"} {
		for _, mode := range []Mode{ModeDefault, ModeAcceptEdits, ModeBypass} {
			if d := evalIn(p, root, mode, cmd); d.Behavior != Ask {
				t.Errorf("%s, %q: %s by %q (%s), want ask", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	for _, cmd := range []string{"echo \"a\rb\"", "echo 'a\rb'", "printf 'x\r\n'", "echo a\rb", "git status -s\r"} {
		if d := evalIn(p, root, ModeDefault, cmd); d.Behavior != Allow {
			t.Errorf("%q: %s by %q (%s), want allow", cmd, d.Behavior, d.Rule, d.Message)
		}
	}
}
