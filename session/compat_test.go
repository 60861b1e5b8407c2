package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/permission"
)

// TestCompat8_LoadFindsTheProjectRoot checks that a session started below
// a project works in the directory it started in, with the root's settings
// and the root as its workspace.
func TestCompat8_LoadFindsTheProjectRoot(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root, _ := filepath.EvalSymlinks(t.TempDir())
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(root, ".claude", "settings.json")
	if err := os.WriteFile(settings, []byte(`{"permissions":{"disableBypassPermissionsMode":"disable","deny":["Read(/etc/**)"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(Options{Dir: sub})
	if err != nil {
		t.Fatal(err)
	}
	if c.ProjectDir != root || c.WorkDir != sub || c.Policy.Roots()[0] != root || c.Policy.WorkDir() != sub {
		t.Fatalf("project %s, work %s, roots %v", c.ProjectDir, c.WorkDir, c.Policy.Roots())
	}
	// The mode box refuses bypass, as the settings say (the plan tools
	// and the UI change modes through it).
	c.Mode.Set(permission.ModeBypass)
	if c.Mode.Get() != permission.ModeDefault || !strings.Contains(c.Mode.Refuse(permission.ModeBypass), settings) {
		t.Fatalf("mode %s after setting a disabled bypass", c.Mode.Get())
	}
	// A /path rule that reads like an old absolute one is named.
	if len(c.Notices) != 1 || !strings.Contains(c.Notices[0], "Read(//etc/**)") {
		t.Fatalf("notices %q", c.Notices)
	}
}
