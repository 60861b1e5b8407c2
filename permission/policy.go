package permission

import "sync"

// Rule is one parsed permission rule such as `Bash(git diff:*)`,
// `Read(./src/**)`, `WebFetch(domain:example.com)`, `mcp__github__*` or `*`.
type Rule struct {
	// Tool is the part before the parenthesis ("Bash", "Read", "*").
	Tool string
	// Specifier is the text inside the parentheses; empty for a bare name.
	Specifier string
	// Raw is the rule as written, shown to people as the deciding rule.
	Raw string
	// Source says where the rule came from ("--allow", a settings path,
	// "session"), so a person can find and change it.
	Source string
}

// Policy is the rule set and workspace a session runs under. It is safe for
// concurrent use: parallel tool calls evaluate while an approval adds a grant.
type Policy struct {
	mu    sync.RWMutex
	allow []Rule
	ask   []Rule
	deny  []Rule
	// roots are the workspace roots, absolute and symlink-resolved: the
	// project directory first, then additional directories.
	roots []string
	// protected are files whose writes always ask (settings files).
	protected []string
}
