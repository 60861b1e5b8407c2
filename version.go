package main

import (
	"runtime/debug"

	"github.com/seed92b641c3/workbench/session"
)

// versionLine is what --version prints: the version and, for a build from
// a checkout, the commit it was built from (marked when the tree had
// uncommitted changes), so a bug report names the exact code.
func versionLine() string {
	line := "workbench " + session.Version
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return line
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+changes"
			}
		}
	}
	if rev == "" {
		return line + " (commit unknown)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return line + " (commit " + rev + modified + ")"
}
