package session

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"mvdan.cc/sh/v3/expand"
)

// Each way a hook's command names a project file finds it; words that are
// not files, directories and files outside are left out by the caller's
// sandbox (outside) or here (not files).
func TestRunLaterFindsTheFilesAHookCommandNames(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.sh", "scripts/b.py", "c d.sh", "conf/lint.json", "e.sh"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	env := expand.ListEnviron("CLAUDE_PROJECT_DIR=" + dir)
	for cmd, want := range map[string][]string{
		`./a.sh`:                               {"a.sh"},
		`"$CLAUDE_PROJECT_DIR"/scripts/b.py x`: {"scripts/b.py"},
		`python3 ${CLAUDE_PROJECT_DIR}/scripts/b.py`: {"scripts/b.py"},
		// The words of a quoted one count too (bash -c 'x.sh'): d.sh
		// is kept from being made, which over-counts at worst.
		`sh "c d.sh" && echo done`:         {"c d.sh", "d.sh"},
		`lint --config=conf/lint.json src`: {"conf/lint.json"},
		`bash -c 'e.sh --flag'`:            {"e.sh"},
		`npm test`:                         nil,
		`scripts`:                          nil,
		`if then (( broken`:                nil,
		// Missing yet: a path with a slash or a script's extension
		// counts, since no command may make it.
		`test -x tools/fix.sh && tools/fix.sh`: {"tools/fix.sh"},
		`bash later.sh`:                        {"later.sh"},
		`fmt --config=conf/new.toml`:           {"conf/new.toml"},
		`prettier --write src/**/*.ts`:         nil,
		`curl https://example.com/x.sh`:        nil,
		`python3 -m black`:                     nil,
		`sh ../outside/x.sh`:                   nil,
	} {
		got := namedFiles(dir, "", commandWords(cmd, env))
		var rel []string
		for _, g := range got {
			r, _ := filepath.Rel(dir, g)
			if !slices.Contains(rel, r) {
				rel = append(rel, r)
			}
		}
		if !slices.Equal(rel, want) {
			t.Errorf("%s: found %q, want %q", cmd, rel, want)
		}
	}
}
