package agent

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// spillFile writes a spill file of size bytes into session id's spill
// directory under root, last modified age ago.
func spillFile(t *testing.T, root, id, name string, size int, age time.Duration) string {
	t.Helper()
	dir := filepath.Join(root, "sessions", id, "spill")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, make([]byte, size), 0o600); err != nil {
		t.Fatal(err)
	}
	when := time.Now().Add(-age)
	if err := os.Chtimes(p, when, when); err != nil {
		t.Fatal(err)
	}
	return p
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func TestH8_RetentionRemovesSpillFilesPastTheAgeLimit(t *testing.T) {
	root := t.TempDir()
	day := 24 * time.Hour
	old := spillFile(t, root, "s1", "old.txt", 10, 31*day)
	recent := spillFile(t, root, "s1", "recent.txt", 10, 29*day)
	other := spillFile(t, root, "s2", "older.txt", 10, 40*day)
	ApplyRetention(root, "", 30, 100)
	if exists(old) || exists(other) {
		t.Errorf("files older than 30 days are still there: %v %v", exists(old), exists(other))
	}
	if !exists(recent) {
		t.Error("a file 29 days old was removed under a 30-day limit")
	}
}

func TestH8_RetentionRemovesTheOldestUntilTheRestFit(t *testing.T) {
	root := t.TempDir()
	const mb = 1 << 20
	oldest := spillFile(t, root, "s1", "a", mb, 5*time.Hour)
	middle := spillFile(t, root, "s2", "b", mb, 4*time.Hour)
	newest := spillFile(t, root, "s3", "c", mb, 3*time.Hour)
	ApplyRetention(root, "", 30, 2)
	if exists(oldest) {
		t.Error("3 MiB of spill files under a 2 MB limit: the oldest was kept")
	}
	if !exists(middle) || !exists(newest) {
		t.Error("the two newest files fit the limit but one was removed")
	}
}

func TestH8_RetentionLeavesTheLiveSessionAlone(t *testing.T) {
	root := t.TempDir()
	const mb = 1 << 20
	live := spillFile(t, root, "live", "big", 3*mb, 40*24*time.Hour)
	earlier := spillFile(t, root, "earlier", "x", mb, time.Hour)
	ApplyRetention(root, "live", 30, 1)
	if !exists(live) {
		t.Error("the live session's spill file was removed; its transcript points to it")
	}
	if !exists(earlier) {
		t.Error("an earlier session's file within both limits was removed")
	}
}

func TestH8_RetentionKeepsWhatIsNotASpillFile(t *testing.T) {
	root := t.TempDir()
	spillFile(t, root, "s1", "old", 10, 90*24*time.Hour)
	transcript := filepath.Join(root, "sessions", "s1", "transcript.jsonl")
	if err := os.WriteFile(transcript, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-90 * 24 * time.Hour)
	os.Chtimes(transcript, old, old)
	// A link in a spill directory is removed as a link; what it points to
	// stays.
	target := filepath.Join(t.TempDir(), "target")
	os.WriteFile(target, []byte("keep"), 0o600)
	link := filepath.Join(root, "sessions", "s1", "spill", "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(link, old, old)
	ApplyRetention(root, "", 30, 100)
	if !exists(transcript) {
		t.Error("retention removed a transcript")
	}
	if !exists(target) {
		t.Error("retention removed the file a spill directory's link points to")
	}
}
