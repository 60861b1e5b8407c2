// Package sandboxtest is the confinement fixture shared by the packages
// that start processes; it stands apart from scratch, which the sandbox's
// own tests use, so that neither imports the other in a cycle.
package sandboxtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/seed92b641c3/workbench/internal/scratch"
	"github.com/seed92b641c3/workbench/sandbox"
)

// Sandbox is the fixture the packages that start processes test their
// confinement with: a workspace and a directory outside it, neither in a
// temp directory, and an active sandbox for the workspace whose launcher is
// the running test binary (its TestMain dispatches the launcher), closed
// when the test ends.
func Sandbox(t testing.TB) (ws, outside string, sb *sandbox.Sandbox) {
	t.Helper()
	base := scratch.Dir(t)
	ws, outside = filepath.Join(base, "ws"), filepath.Join(base, "outside")
	os.Mkdir(ws, 0o755)
	os.Mkdir(outside, 0o755)
	exe, _ := os.Executable()
	sb, err := sandbox.New(sandbox.Policy{Roots: []string{ws}, Home: base, Caches: []string{}},
		sandbox.Options{Launcher: exe})
	if err != nil || !sb.Active() {
		t.Fatalf("sandbox: %v %v", err, sb.Unavailable())
	}
	t.Cleanup(sb.Close) // after the test's own clean-ups: its processes are gone
	return ws, outside, sb
}
