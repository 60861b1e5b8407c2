package files

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

// checkedFile is a file a call may use as its permission check saw it, so
// that the check and the use are one step (H17): the tool opens the place
// the check resolved, beneath the workspace root that holds it, and refuses
// when the path has come to lead somewhere else.
type checkedFile struct {
	display string
	given   string // absolute, as the input named it
	real    string // where it led at the check
	// root is the workspace root real is under, "" when it is outside
	// every root (allowed by a rule): then the opened descriptor's real
	// path is what proves it is the checked file.
	root string
	// protected is why the check found a write here protected, or "".
	protected string
	tc        *tools.Context
}

// errMoved is the cause of every refusal because a path no longer leads
// where it led at the check.
var errMoved = errors.New("the path changed after the permission check")

// checkedTarget returns the checked form of the absolute path abs. Without
// a check (a tool run on its own) the path is resolved now. A path that
// leads elsewhere now than at the check is refused, naming both places.
func checkedTarget(tc *tools.Context, abs string) (*checkedFile, error) {
	f := &checkedFile{display: shown(tc, abs), given: abs, tc: tc}
	now := permission.Resolve(abs)
	f.real = now
	found := false
	for _, c := range tc.Checked {
		if c.Path == abs {
			f.real, f.protected, found = c.Real, c.Protected, true
			break
		}
	}
	if found && now != f.real {
		return nil, fmt.Errorf("%w: %s led to %s when it was checked and leads to %s now; nothing was done (call the tool again to have the new place checked)",
			errMoved, f.display, f.real, now)
	}
	for _, r := range roots(tc) {
		if f.real == r || strings.HasPrefix(f.real, strings.TrimSuffix(r, "/")+"/") {
			f.root = r
			break
		}
	}
	return f, nil
}

// roots are the workspace roots the session's policy names, or the working
// directory when the tool runs without one.
func roots(tc *tools.Context) []string {
	if tc.Paths != nil {
		return tc.Paths.Roots()
	}
	if tc.WorkDir == "" {
		return nil
	}
	return []string{permission.Resolve(tc.WorkDir)}
}

// beneath splits a resolved path into the directory an open starts from
// (the workspace root, or / outside every root) and the path below it.
func (f *checkedFile) beneath(p string) (base, rel string) {
	base = f.root
	if base == "" {
		base = "/"
	}
	rel, err := filepath.Rel(base, p)
	if err != nil {
		return "/", strings.TrimPrefix(p, "/")
	}
	return base, rel
}

// checkStillWritable refuses a write to a place that became protected
// after the check (a settings directory linked onto it during a slow
// hook): the check saw an ordinary file, so no one approved this.
func (f *checkedFile) checkStillWritable() error {
	if f.tc == nil || f.tc.Paths == nil || f.protected != "" {
		return nil
	}
	if why := f.tc.Paths.WriteProtected(f.real); why != "" {
		return fmt.Errorf("%w: %s became protected (%s); nothing was written (call the tool again to be asked)", errMoved, f.display, why)
	}
	return nil
}
