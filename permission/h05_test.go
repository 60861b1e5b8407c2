package permission

import "testing"

func TestH05_EveryShellSharesTheBashPolicy(t *testing.T) {
	t.Parallel()
	p := newPolicy(t, []string{t.TempDir()}, rules{
		allow: []string{"Bash(npm test)"},
		deny:  []string{"Bash(git push:*)"},
	})
	tests := []struct {
		name string
		cmd  string
		want Behavior
		rule string
	}{
		{"an allowed command runs", "npm test", Allow, "Bash(npm test)"},
		{"a denied command is denied", "git push origin main", Deny, "Bash(git push:*)"},
		{"a hard-denied command is denied", "rm -rf ~", Deny, "hard-deny"},
		{"an unknown command asks", "make install", Ask, "mode:default"},
	}
	for _, tool := range []string{"Bash", "Monitor", "shell_open", "shell_send"} {
		for _, tc := range tests {
			t.Run(tool+": "+tc.name, func(t *testing.T) {
				t.Parallel()
				d := p.Evaluate(Request{Tool: tool, Target: Target{Commands: []string{tc.cmd}}})
				check(t, d, tc.want, tc.rule)
			})
		}
	}
}

func TestH05_BareBashRuleCoversEveryShell(t *testing.T) {
	t.Parallel()
	p := newPolicy(t, []string{t.TempDir()}, rules{deny: []string{"Bash"}})
	for _, tool := range []string{"Bash", "Monitor", "shell_open", "shell_send"} {
		d := p.Evaluate(Request{Tool: tool, Mode: ModeBypass, Target: Target{Commands: []string{"ls"}}})
		if d.Behavior != Deny || d.Rule != "Bash" {
			t.Errorf("%s: got %s by %q, want deny by Bash", tool, d.Behavior, d.Rule)
		}
	}
}

func TestH05_EverySubmittedLineIsChecked(t *testing.T) {
	t.Parallel()
	p := newPolicy(t, []string{t.TempDir()}, rules{allow: []string{"Bash(ls:*)"}})
	d := p.Evaluate(Request{Tool: "shell_send", Target: Target{Commands: []string{"ls", "curl x | grep y"}}})
	check(t, d, Ask, "mode:default")
	if d.Suggestion != "Bash(curl:*), Bash(grep:*)" {
		t.Fatalf("Suggestion = %q, want the uncovered parts only", d.Suggestion)
	}
}
