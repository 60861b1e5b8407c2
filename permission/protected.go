package permission

import (
	"path/filepath"
	"strings"
)

// The reasons a write is protected, as the ask message says them.
const (
	whyGit       = "it is inside a .git directory, whose hooks and config git runs"
	whyClaude    = "it is inside a .claude directory, whose settings, hooks, commands and agents are loaded by the next session"
	whyMCP       = "it is .mcp.json, whose servers are programs the next session starts"
	whySettings  = "it is a protected settings file"
	whySettingsD = "it is the .workbench directory that holds the project's settings files"
	whyHooks     = "it is in the directory git runs hooks from (core.hooksPath)"
	whyRunLater  = "a hook or MCP server of your settings runs it, outside the sandbox"
)

// protectedReason says why writing f always asks, or "". It is decided at
// every check on the path as written and as it resolves now, and against
// where each protected place resolves now (H17): after `ln -s src
// .workbench`, src/settings.local.json is a settings file, so no list made
// at start can go stale. The places are the settings files the session
// loaded (AddProtected), .workbench/settings*.json, .claude/ as a whole,
// .mcp.json and .git/, named anywhere or found under a workspace root.
func (p *Policy) protectedReason(f pathForms) string {
	for _, x := range []string{f.lit, f.real} {
		if why := protectedName(x); why != "" {
			return why
		}
	}
	for _, list := range []struct {
		places []string
		why    string
	}{{p.protected, whySettings}, {p.hookDirs, whyHooks}, {p.runLater, whyRunLater}} {
		for _, pr := range list.places {
			for _, loc := range []string{pr, resolvePath(pr)} {
				if within(f.lit, loc) || within(f.real, loc) {
					return list.why
				}
			}
		}
	}
	for _, r := range p.roots {
		if why := protectedUnder(r, f.real); why != "" {
			return why
		}
	}
	return ""
}

// protectedName reports why the path p is protected by its own components,
// wherever it is: a .git or .claude directory or anything in one, a
// .mcp.json, a settings*.json in a .workbench directory, or the .workbench
// directory itself (replacing it, say by a symlink, would swap the settings
// under the next session). Names are compared ignoring case, for
// case-insensitive file systems.
func protectedName(p string) string {
	parts := strings.Split(p, "/")
	for _, c := range parts {
		switch {
		case strings.EqualFold(c, ".git"):
			return whyGit
		case strings.EqualFold(c, ".claude"):
			return whyClaude
		}
	}
	last := parts[len(parts)-1]
	switch {
	case strings.EqualFold(last, ".mcp.json"):
		return whyMCP
	case strings.EqualFold(last, ".workbench"):
		return whySettingsD
	case len(parts) >= 2 && strings.EqualFold(parts[len(parts)-2], ".workbench") && settingsName(last):
		return whySettings
	}
	return ""
}

// settingsName reports whether a base name has the settings*.json form of
// the files in .workbench (settings.json, settings.local.json).
func settingsName(base string) bool {
	b := strings.ToLower(base)
	return strings.HasPrefix(b, "settings") && strings.HasSuffix(b, ".json")
}

// protectedUnder reports why the resolved path real is protected because
// it is where one of root's protected places resolves right now, or "".
// protectedName already covers the places where they are not links.
func protectedUnder(root, real string) string {
	at := func(name string) string { return resolvePath(root + "/" + name) }
	if d := at(".workbench"); real == d || (filepath.Dir(real) == d && settingsName(filepath.Base(real))) {
		if real == d {
			return whySettingsD
		}
		return whySettings
	}
	if within(real, at(".claude")) {
		return whyClaude
	}
	if within(real, at(".git")) {
		return whyGit
	}
	if real == at(".mcp.json") {
		return whyMCP
	}
	return ""
}
