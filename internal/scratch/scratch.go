// Package scratch gives the sandbox's tests a directory outside every
// temp directory. The sandbox leaves the temp directories writable, so a
// refused write is only the sandbox's doing where the test's "outside" is
// not in one; and a checkout can itself live under /tmp (a CI clone), so
// the package's own directory is not always such a place.
package scratch

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Dir makes a fresh directory outside the temp directories, removed when
// the test ends, and returns its real path.
func Dir(t testing.TB) string {
	t.Helper()
	var candidates []string
	if wd, err := os.Getwd(); err == nil {
		candidates = append(candidates, wd)
	}
	if home, err := os.UserHomeDir(); err == nil {
		candidates = append(candidates, filepath.Join(home, ".cache", "workbench-tests"))
	}
	candidates = append(candidates, "/var/lib/workbench-tests")
	for _, c := range candidates {
		real := c
		if r, err := filepath.EvalSymlinks(c); err == nil {
			real = r
		}
		if underTemp(real) {
			continue
		}
		if err := os.MkdirAll(c, 0o755); err != nil {
			continue
		}
		dir, err := os.MkdirTemp(c, ".h16-")
		if err != nil {
			continue
		}
		t.Cleanup(func() {
			_ = exec.Command("chmod", "-R", "u+w", dir).Run()
			os.RemoveAll(dir)
		})
		real, err = filepath.EvalSymlinks(dir)
		if err != nil {
			t.Fatal(err)
		}
		return real
	}
	t.Fatalf("no directory outside the temp directories could be made (tried %s)", strings.Join(candidates, ", "))
	return ""
}

// underTemp reports whether p is in one of the directories the sandbox
// leaves writable as temp directories.
func underTemp(p string) bool {
	temps := []string{os.TempDir(), "/tmp", "/var/tmp", "/dev/shm"}
	if d := os.Getenv("TMPDIR"); d != "" {
		temps = append(temps, d)
	}
	for _, d := range temps {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			d = r
		}
		if p == d || strings.HasPrefix(p, strings.TrimSuffix(d, "/")+"/") {
			return true
		}
	}
	return false
}
