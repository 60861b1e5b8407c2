package permission

import "testing"

func TestH03_RulesSeeArguments(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		rules rules
		req   Request
		want  Behavior
		rule  string
	}{
		{"a prefix rule allows the command itself",
			rules{allow: []string{"Bash(git diff:*)"}}, bash("git diff"), Allow, "Bash(git diff:*)"},
		{"a prefix rule allows more words",
			rules{allow: []string{"Bash(git diff:*)"}}, bash("git diff --stat HEAD"), Allow, "Bash(git diff:*)"},
		{"a prefix rule stops at a word boundary",
			rules{allow: []string{"Bash(git diff:*)"}}, bash("git difftool"), Ask, "mode:default"},
		{"an exact rule allows the exact command",
			rules{allow: []string{"Bash(npm test)"}}, bash("npm test"), Allow, "Bash(npm test)"},
		{"an exact rule allows the command with other spacing",
			rules{allow: []string{"Bash(npm  test)"}}, bash("npm test"), Allow, "Bash(npm  test)"},
		{"an exact rule does not allow more words",
			rules{allow: []string{"Bash(npm test)"}}, bash("npm test --watch"), Ask, "mode:default"},
		{"a glob rule allows what it matches",
			rules{allow: []string{"Bash(npm run *)"}}, bash("npm run build --prod"), Allow, "Bash(npm run *)"},
		{"a glob rule does not allow what it misses",
			rules{allow: []string{"Bash(npm run *)"}}, bash("npm install"), Ask, "mode:default"},
		{"a star allows a plain tool",
			rules{allow: []string{"*"}}, Request{Tool: "TodoWrite"}, Allow, "*"},
		{"an mcp glob allows the server's tools",
			rules{allow: []string{"mcp__github__*"}}, Request{Tool: "mcp__github__create_issue"}, Allow, "mcp__github__*"},
		{"an mcp glob does not allow another server",
			rules{allow: []string{"mcp__github__*"}}, Request{Tool: "mcp__gitlab__create_issue"}, Ask, "mode:default"},
		{"deny beats allow in bypass mode",
			rules{allow: []string{"Bash(git:*)"}, deny: []string{"Bash(git push:*)"}},
			Request{Tool: "Bash", Mode: ModeBypass, Target: Target{Commands: []string{"git push origin"}}}, Deny, "Bash(git push:*)"},
		{"ask beats allow",
			rules{allow: []string{"Bash(git:*)"}, ask: []string{"Bash(git push:*)"}}, bash("git push"), Ask, "Bash(git push:*)"},
		{"ask beats bypass mode",
			rules{ask: []string{"Bash(git push:*)"}},
			Request{Tool: "Bash", Mode: ModeBypass, Target: Target{Commands: []string{"git push"}}}, Ask, "Bash(git push:*)"},
		{"deny beats ask",
			rules{ask: []string{"Bash(rm:*)"}, deny: []string{"Bash(rm -rf:*)"}}, bash("rm -rf x"), Deny, "Bash(rm -rf:*)"},
		{"a compound command needs every part allowed",
			rules{allow: []string{"Bash(git status:*)"}}, bash("git status && rm x"), Ask, "mode:default"},
		{"a compound command runs when every part is allowed",
			rules{allow: []string{"Bash(git status:*)", "Bash(rm:*)"}}, bash("git status && rm x"), Allow, "Bash(git status:*), Bash(rm:*)"},
		{"one denied part denies the compound command",
			rules{allow: []string{"Bash(git status:*)"}, deny: []string{"Bash(rm:*)"}}, bash("git status && rm x"), Deny, "Bash(rm:*)"},
		{"a command substitution part is checked",
			rules{allow: []string{"Bash(echo:*)"}}, bash("echo $(curl evil.sh)"), Ask, "mode:default"},
		{"a denied command substitution denies",
			rules{allow: []string{"Bash(echo:*)"}, deny: []string{"Bash(curl:*)"}}, bash("echo $(curl evil.sh)"), Deny, "Bash(curl:*)"},
		{"a backtick part is checked",
			rules{allow: []string{"Bash(echo:*)"}, deny: []string{"Bash(curl:*)"}}, bash("echo `curl x`"), Deny, "Bash(curl:*)"},
		{"a subshell part is checked",
			rules{allow: []string{"Bash(ls:*)"}, deny: []string{"Bash(rm:*)"}}, bash("ls && (cd x; rm y)"), Deny, "Bash(rm:*)"},
		{"a pipe part is checked",
			rules{allow: []string{"Bash(curl:*)"}}, bash("curl x | grep y"), Ask, "mode:default"},
		{"a shell reading its commands from a pipe asks every time (H15)",
			rules{allow: []string{"Bash(curl:*)", "Bash(sh:*)"}}, bash("curl x | sh"), Ask, "unknown"},
		{"a shell's here-document is judged by its parts",
			rules{allow: []string{"Bash(sh:*)", "Bash(git status:*)"}}, bash("sh <<'EOF'\ngit status\nEOF"), Allow, "Bash(git status:*)"},
		{"a shell's here-string is judged by its parts",
			rules{allow: []string{"Bash(bash:*)"}, deny: []string{"Bash(curl:*)"}}, bash("bash <<< 'curl x'"), Deny, "Bash(curl:*)"},
		{"a bash -c script is judged by its parts",
			rules{allow: []string{"Bash(git status:*)"}}, bash(`bash -c 'git status'`), Allow, "Bash(git status:*)"},
		{"a bash -c wrapper is still seen by deny rules",
			rules{allow: []string{"Bash(git status:*)"}, deny: []string{"Bash(bash:*)"}}, bash(`bash -c 'git status'`), Deny, "Bash(bash:*)"},
		{"deny rules look through sudo",
			rules{deny: []string{"Bash(rm:*)"}}, bash("sudo -u root rm x"), Deny, "Bash(rm:*)"},
		{"allow rules do not look through sudo",
			rules{allow: []string{"Bash(rm:*)"}}, bash("sudo rm x"), Ask, "mode:default"},
		{"deny rules see inside a wrapped bash -c",
			rules{deny: []string{"Bash(curl:*)"}}, bash(`sudo bash -c 'curl x'`), Deny, "Bash(curl:*)"},
		{"an unparsable command is not allowed by a prefix rule",
			rules{allow: []string{"Bash(echo:*)"}}, bash(`echo "unterminated`), Ask, "unknown"},
		{"an unparsable command is still denied by a deny rule",
			rules{deny: []string{"Bash(rm:*)"}}, bash(`ls; rm x "`), Deny, "Bash(rm:*)"},
		{"a bare Bash rule does not allow an unparsable command (H15)",
			rules{allow: []string{"Bash"}}, bash(`echo "unterminated`), Ask, "unknown"},
		{"a Bash rule does not match a tool without commands",
			rules{allow: []string{"Bash(ls:*)"}}, Request{Tool: "Read", Target: Target{Paths: []string{"x"}, Access: AccessRead}}, Ask, "mode:default"},
		{"a domain rule allows the host",
			rules{allow: []string{"WebFetch(domain:example.com)"}},
			Request{Tool: "WebFetch", Target: Target{Host: "Example.COM"}}, Allow, "WebFetch(domain:example.com)"},
		{"a domain rule does not allow a subdomain",
			rules{allow: []string{"WebFetch(domain:example.com)"}},
			Request{Tool: "WebFetch", Target: Target{Host: "api.example.com"}}, Ask, "mode:default"},
		{"a wildcard domain rule allows a subdomain",
			rules{allow: []string{"WebFetch(domain:*.example.com)"}},
			Request{Tool: "WebFetch", Target: Target{Host: "api.example.com"}}, Allow, "WebFetch(domain:*.example.com)"},
		{"a wildcard domain rule does not allow the apex",
			rules{allow: []string{"WebFetch(domain:*.example.com)"}},
			Request{Tool: "WebFetch", Target: Target{Host: "example.com"}}, Ask, "mode:default"},
		{"a wildcard domain rule does not allow a look-alike",
			rules{allow: []string{"WebFetch(domain:*.example.com)"}},
			Request{Tool: "WebFetch", Target: Target{Host: "badexample.com"}}, Ask, "mode:default"},
		{"an IP literal matches as written",
			rules{deny: []string{"WebFetch(domain:169.254.169.254)"}, allow: []string{"WebFetch"}},
			Request{Tool: "WebFetch", Target: Target{Host: "169.254.169.254"}}, Deny, "WebFetch(domain:169.254.169.254)"},
		{"a domain deny beats a bare allow",
			rules{deny: []string{"WebFetch(domain:evil.test)"}, allow: []string{"WebFetch"}},
			Request{Tool: "WebFetch", Target: Target{Host: "evil.test"}}, Deny, "WebFetch(domain:evil.test)"},
		{"a domain rule does not match a call without a host",
			rules{allow: []string{"WebFetch(domain:example.com)"}}, Request{Tool: "WebFetch"}, Ask, "mode:default"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newPolicy(t, []string{t.TempDir()}, tc.rules)
			check(t, p.Evaluate(tc.req), tc.want, tc.rule)
		})
	}
}

func TestH03_HardDenyBeatsEverything(t *testing.T) {
	t.Parallel()
	p := newPolicy(t, []string{t.TempDir()}, rules{allow: []string{"*", "Bash", "Bash(rm:*)"}})
	for _, m := range Modes {
		d := p.Evaluate(Request{Tool: "Bash", Mode: m, Own: Allowed(), ReadOnly: true,
			Target: Target{Commands: []string{"ls && sudo rm -rf /"}}})
		if d.Behavior != Deny || d.Rule != "hard-deny" {
			t.Errorf("mode %s: got %s by %q, want deny by hard-deny", m, d.Behavior, d.Rule)
		}
	}
}
