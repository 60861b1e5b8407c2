package session

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/agent"
)

// A session's start removes an earlier session's spill files past the age
// limit (H8), beside the start rather than before it.
func TestH8_ASessionsStartAppliesSpillRetention(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	spill := filepath.Join(agent.StateRoot(), "sessions", "earlier", "spill")
	if err := os.MkdirAll(spill, 0o700); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(spill, "call_1.txt")
	if err := os.WriteFile(old, []byte("output"), 0o600); err != nil {
		t.Fatal(err)
	}
	when := time.Now().Add(-31 * 24 * time.Hour)
	os.Chtimes(old, when, when)
	c, err := Load(Options{Dir: dir, TrustProject: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(c, Model{Script: writeScript(t, dir)}, Wiring{Approver: agent.Headless{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close("exit")
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Lstat(old); os.IsNotExist(err) {
			return
		}
	}
	t.Fatal("a spill file 31 days old outlived a session's start (default limit 30 days)")
}
