package permission

import (
	"reflect"
	"testing"
)

// Rules about other programs are passed over by their first word; that must
// never change a decision. The same policy with the shortcut turned off (no
// rule knows its program) has to decide every command identically.
func TestProgramShortcutChangesNoDecision(t *testing.T) {
	r := rules{
		allow: []string{"Bash(git status:*)", "Bash(go test:*)", "Bash(npm run build)", "Bash(ls)",
			"Bash(echo:*)", "Bash(*.sh)", "Bash(make *)", "Read(./**)"},
		ask: []string{"Bash(git push:*)", "Bash(curl:*)"},
		deny: []string{"Bash(rm:*)", "Bash(git reset --hard:*)", "Bash(chmod 777:*)",
			"Bash(*--force*)", "Bash(sudo:*)"},
	}
	commands := []string{
		"git status", "git status -s", "git statusx", "gitk", "git push origin main", "git reset --hard HEAD~1",
		"go test ./...", "go testx", "npm run build", "npm run build --watch", "ls", "ls -la",
		"echo hi && rm -rf build", "sudo rm -rf /tmp/x", "env FOO=1 rm x", "FOO=1 rm x",
		"bash -c 'rm x'", "timeout 5 curl example.com", "./deploy.sh", "make all", "make",
		"git push --force", "chmod 777 f", "chmod 755 f", "echo $(rm x)", "ls | xargs rm",
		"(cd sub && go test ./...)", "if true; then rm x; fi", "echo 'unterminated",
		"  ls", "nohup rm x &", "xargs -I{} rm {}", "find . -exec rm {} \\;",
	}
	root := t.TempDir()
	fast := newPolicy(t, []string{root}, r)
	slow := newPolicy(t, []string{root}, r)
	for _, list := range [][]compiledRule{slow.callow, slow.cask, slow.cdeny} {
		for i := range list {
			list[i].program = ""
		}
	}
	for _, mode := range []Mode{ModeDefault, ModeAcceptEdits, ModeBypass, ModePlan} {
		for _, c := range commands {
			req := bash(c)
			req.Mode, req.WorkDir = mode, root
			got, want := fast.Evaluate(req), slow.Evaluate(req)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s in %s: with the shortcut %s by %q, without %s by %q", c, mode, got.Behavior, got.Rule, want.Behavior, want.Rule)
			}
		}
	}
}
