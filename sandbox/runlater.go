package sandbox

import (
	"slices"
)

// The person's hooks and MCP servers run outside the sandbox, and a hook's
// command often names a script in the project (`./scripts/lint.sh`,
// `python3 .github/hooks/check.py`, `node mcp/server.js`): a command that
// rewrote that script would have the next hook run it outside. So the
// files those commands name, in a workspace root, are read-only for the
// agent's commands like the settings files, with the directories on the
// way pinned so none can be swapped for a look-alike.

// ProtectRunLater makes paths (files that the person's hooks and MCP
// servers run outside the sandbox) read-only from the next command on.
// Paths outside the workspace roots are writable to no command anyway and
// are left out.
func (s *Sandbox) ProtectRunLater(paths ...string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range paths {
		real, err := realPath(p)
		if err != nil || !slices.ContainsFunc(s.resolved.Roots, func(r string) bool { return within(real, r) }) {
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
