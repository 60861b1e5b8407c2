package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// The person's hooks and MCP servers run outside the sandbox, and a hook's
// command often names a script in the project (`./scripts/lint.sh`,
// `python3 .github/hooks/check.py`, `node mcp/server.js`): a command that
// rewrote that script would have the next hook run it outside. So the
// files those commands name, in a workspace root, are read-only for the
// agent's commands like the settings files, with the directories on the
// way pinned so none can be swapped for a look-alike. A file such a
// command names that does not exist yet cannot be refused in advance
// (Landlock allows by place): one a command makes is removed when that
// command ends, with a note; one that appears between commands (the
// person's) is read-only from the next command on.

// ProtectRunLater makes paths (files that the person's hooks and MCP
// servers run outside the sandbox) read-only from the next command on; a
// path that does not exist yet no command may make. Paths outside the
// workspace roots are writable to no command anyway and are left out.
func (s *Sandbox) ProtectRunLater(paths ...string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range paths {
		real, err := realPathMissing(p)
		if err != nil {
			continue
		}
		if !slices.ContainsFunc(s.resolved.Roots, func(r string) bool { return within(real, r) }) {
			continue
		}
		if !slices.Contains(s.runLater, real) {
			s.runLater = append(s.runLater, real)
		}
	}
}

// withRunLater adds the protected run-later files, and the directories on
// the way to them, to the policy of the command about to start.
func (s *Sandbox) withRunLater(r Resolved) Resolved {
	s.mu.Lock()
	files := slices.Clone(s.runLater)
	s.mu.Unlock()
	if len(files) == 0 {
		return r
	}
	r.ReadOnly = slices.Clone(r.ReadOnly)
	r.Pin = slices.Clone(r.Pin)
	for _, f := range files {
		if _, err := os.Lstat(f); err != nil {
			r.Unmade = append(r.Unmade, f)
			continue
		}
		if exists := appendReal(nil, f); len(exists) == 0 || slices.Contains(r.ReadOnly, f) {
			continue
		}
		r.ReadOnly = append(r.ReadOnly, f)
		for _, root := range r.Roots {
			if within(f, root) {
				for _, p := range pinsOnTheWay(root, []string{f}) {
					if !slices.Contains(r.Pin, p) {
						r.Pin = append(r.Pin, p)
					}
				}
			}
		}
	}
	return r
}

// removeMade removes the run-later files a command made that were missing
// at its start (r.Unmade): the person's hook or server would run them
// outside the sandbox. A directory is left: nothing runs it as a file.
func (s *Sandbox) removeMade(r Resolved) {
	for _, f := range r.Unmade {
		fi, err := os.Lstat(f)
		if err != nil || fi.IsDir() {
			continue
		}
		if err := os.Remove(f); err != nil {
			s.addPlantNote(fmt.Sprintf("a command made %s, which one of your hooks or MCP servers runs outside the sandbox; Workbench could not remove it (%v): remove it before the next hook runs", f, err))
			continue
		}
		s.addPlantNote(fmt.Sprintf("a command made %s, which one of your hooks or MCP servers would have run outside the sandbox; Workbench removed it (make it yourself if you want it: then it is read-only to the agent's commands)", f))
	}
}

// realPathMissing is p's real path where p may not exist yet: the real
// path of its deepest existing directory, with the rest as written.
func realPathMissing(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for dir := abs; ; dir = filepath.Dir(dir) {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest), nil
		}
		if dir == filepath.Dir(dir) {
			return "", fmt.Errorf("no part of %s exists", p)
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}
