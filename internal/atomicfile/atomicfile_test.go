package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesWholeAndLeavesNoTemporaryFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "f.txt")
	if err := Write(p, []byte("one"), 0o600, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("two"), 0o644, 0o700); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	info, _ := os.Stat(p)
	if string(data) != "two" || info.Mode().Perm() != 0o644 {
		t.Errorf("content %q mode %v", data, info.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestWriteReplacesASymlinkInsteadOfFollowingIt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "target")
	os.WriteFile(outside, []byte("keep"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(outside, link)
	if err := Write(link, []byte("new"), 0o644, 0o755); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(outside); string(data) != "keep" {
		t.Error("the write went through the link")
	}
}
