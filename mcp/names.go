package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// maxToolName is the longest tool name the model providers accept; a longer
// name would make them reject the whole request, not just the tool.
const maxToolName = 64

// ToolPrefix returns the prefix of every workbench tool name from a server,
// "mcp__<server>__", or "" when nothing of the name survives sanitising. The
// server part is limited to [A-Za-z0-9_-] with no "__" and no leading or
// trailing '_', so the first "__" after "mcp__" always ends it: a rule such as
// `mcp__github__*` can then match the server "github" and no other (a server
// named "github__x" or "github_" would otherwise fall under it).
func ToolPrefix(server string) string {
	s := strings.Trim(collapseUnderscores(sanitize(server)), "_")
	if s == "" {
		return ""
	}
	return "mcp__" + s + "__"
}

// toolName joins a prefix and a server's tool name. A name longer than the
// providers accept keeps its prefix and start and ends in a short hash of
// the full name, so it stays unique and still matches the server's rules.
// It fails only when the prefix leaves no room for that.
func toolName(prefix, tool string) (string, bool) {
	name := prefix + sanitize(tool)
	if len(name) <= maxToolName {
		return name, true
	}
	sum := sha256.Sum256([]byte(prefix + tool))
	tag := "_" + hex.EncodeToString(sum[:4])
	keep := maxToolName - len(tag)
	if keep <= len(prefix) {
		return "", false
	}
	return name[:keep] + tag, true
}

// sanitize replaces every character outside [A-Za-z0-9_-] with '_'.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}

// collapseUnderscores turns every run of '_' into one.
func collapseUnderscores(s string) string {
	for strings.Contains(s, "__") {
		s = strings.ReplaceAll(s, "__", "_")
	}
	return s
}
