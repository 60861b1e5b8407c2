package settings

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/seed92b641c3/workbench/permission"
)

// projectMarkers are the entries that make a directory a project root, as
// in Claude Code: its own settings directories or a git repository.
var projectMarkers = []string{".workbench", ".claude", ".git"}

// ProjectRoot is the project a session started in dir belongs to: the
// nearest directory, dir or an ancestor, holding .workbench/, .claude/ or
// .git. Its settings, instruction files and skills apply, so starting in a
// subdirectory changes nothing but the working directory. The home
// directory counts only when dir is the home directory itself: ~/.claude
// holds the person's settings, not a project's, and a home-wide workspace
// would open every file the person has. Without a marker, dir is the
// project. dir must be absolute and clean.
func ProjectRoot(dir, home string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if d == home && d != dir {
			return dir
		}
		for _, m := range projectMarkers {
			if _, err := os.Lstat(filepath.Join(d, m)); err == nil {
				return d
			}
		}
		if parent := filepath.Dir(d); parent == d {
			return dir
		}
	}
}

// RefuseMode says why mode may not be used, or "" when it may:
// permissions.disableBypassPermissionsMode "disable" refuses
// bypassPermissions wherever it is asked for (the flag, defaultMode, /mode).
func (s *Settings) RefuseMode(mode permission.Mode) string {
	if mode != permission.ModeBypass || !s.DisableBypass {
		return ""
	}
	return fmt.Sprintf("bypassPermissions is disabled by permissions.disableBypassPermissionsMode in %s", s.DisabledBy)
}
