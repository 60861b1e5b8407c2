//go:build linux

package files

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/seed92b641c3/workbench/permission"
)

// swappedDir makes dir/inside/f and out/f, then replaces dir/inside by a
// link to out: the state a swap between the pre-use resolution and the open
// would leave, which only the openat2 resolution can catch.
func swappedDir(t *testing.T) (dir, out string) {
	t.Helper()
	dir = permission.Resolve(t.TempDir())
	out = permission.Resolve(t.TempDir())
	if err := os.MkdirAll(filepath.Join(dir, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	for p, s := range map[string]string{filepath.Join(dir, "inside", "f"): "inside-content", filepath.Join(out, "f"): "outside-secret"} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Rename(filepath.Join(dir, "inside"), filepath.Join(dir, "moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(dir, "inside")); err != nil {
		t.Fatal(err)
	}
	return dir, out
}

func TestH17_OpenBeneathTheRootFollowsNoLinkPutInThePath(t *testing.T) {
	t.Parallel()
	dir, out := swappedDir(t)
	// As checked before the swap: inside the root, no link on the way.
	f := &checkedFile{display: "inside/f", given: filepath.Join(dir, "inside", "f"), real: filepath.Join(dir, "inside", "f"), root: dir}
	if file, err := f.openRead(); !errors.Is(err, errMoved) {
		if file != nil {
			file.Close()
		}
		t.Fatalf("openRead through a swapped link: %v, want a refusal", err)
	}
	if err := f.writeAtomic([]byte("pwned"), 0o644); !errors.Is(err, errMoved) {
		t.Fatalf("writeAtomic through a swapped link: %v, want a refusal", err)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "f")); string(got) != "outside-secret" {
		t.Fatalf("the outside file was written: %q", got)
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 1 {
		t.Fatalf("something was created outside: %v", entries)
	}
}

func TestH17_OpenOutsideARootFollowsNoLinkPutInThePath(t *testing.T) {
	t.Parallel()
	dir, out := swappedDir(t)
	// An outside path (allowed by a rule) has no root to stay beneath; it
	// must still follow no link and be the checked file.
	f := &checkedFile{display: "f", given: filepath.Join(dir, "inside", "f"), real: filepath.Join(dir, "inside", "f")}
	if _, err := f.openRead(); !errors.Is(err, errMoved) {
		t.Fatalf("openRead: %v, want a refusal", err)
	}
	if err := f.writeAtomic([]byte("pwned"), 0o644); !errors.Is(err, errMoved) {
		t.Fatalf("writeAtomic: %v, want a refusal", err)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "f")); string(got) != "outside-secret" {
		t.Fatalf("the outside file was written: %q", got)
	}
	// The same file, checked where it really is, opens and is written.
	g := &checkedFile{display: "f", given: filepath.Join(out, "f"), real: filepath.Join(out, "f")}
	if err := g.writeAtomic([]byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(out, "f")); string(got) != "new" {
		t.Fatalf("content %q", got)
	}
}

func TestH17_WriteCreatesMissingDirectoriesBeneathTheRoot(t *testing.T) {
	t.Parallel()
	dir := permission.Resolve(t.TempDir())
	f := &checkedFile{display: "a/b/c.txt", given: filepath.Join(dir, "a/b/c.txt"), real: filepath.Join(dir, "a/b/c.txt"), root: dir}
	if err := f.writeAtomic([]byte("x"), 0o640); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "a/b/c.txt"))
	if err != nil || fi.Mode().Perm() != 0o640 {
		t.Fatalf("stat %v %v", fi, err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "a/b"))
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
}
