package rewind

import (
	"strings"
	"unicode"
)

// protectedPatterns keep the protected places out of every checkpoint (in
// the shadow repository's info/exclude): git's own directories, the
// settings Workbench and Claude Code load, and the MCP servers a session
// starts. A restore that wrote them could run code in the next session.
// Letters match either case (see anyCase), as protectedPath compares them.
var protectedPatterns = []string{anyCase(".git"), anyCase(".workbench") + "/", anyCase(".claude") + "/", anyCase(".mcp.json")}

// anyCase writes a gitignore pattern that matches name in any case: git
// compares patterns case-sensitively on Linux.
func anyCase(name string) string {
	var b strings.Builder
	for _, r := range name {
		if lo, up := unicode.ToLower(r), unicode.ToUpper(r); lo != up {
			b.WriteString("[" + string(lo) + string(up) + "]")
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// protectedPath reports why a restore leaves the slash-separated relative
// path p alone, or "". Components are compared ignoring case, as on a
// case-insensitive file system, so .GIT is .git; the check holds even for a
// path that a checkpoint somehow recorded.
func protectedPath(p string) string {
	parts := strings.Split(p, "/")
	for _, c := range parts {
		switch {
		case strings.EqualFold(c, ".git"):
			return "inside a .git directory"
		case strings.EqualFold(c, ".workbench"):
			return "inside a .workbench settings directory"
		case strings.EqualFold(c, ".claude"):
			return "inside a .claude directory"
		}
	}
	if strings.EqualFold(parts[len(parts)-1], ".mcp.json") {
		return "an .mcp.json file"
	}
	return ""
}
