package settings

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/permission"
)

// The person's own file for a project (where "Always" writes in a project
// they have not trusted) counts without trust, while the same rule in the
// project's local file waits for it; writes to it ask like any settings
// file's; it is one file per project, the same through a symbolic link.
func TestPersonalProjectFileCountsWithoutTrust(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("HOME", t.TempDir())
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	p := DefaultPaths(dir)
	if !strings.HasPrefix(p.Personal, filepath.Join(cfg, "workbench", "projects", filepath.Base(dir)+"-")) {
		t.Fatalf("the personal file %s is not under the user settings' projects directory", p.Personal)
	}
	if err := AddAllowRule(p.Local, "Bash(make:*)"); err != nil {
		t.Fatal(err)
	}
	if err := AddAllowRule(p.Personal, "Bash(go test:*)"); err != nil {
		t.Fatal(err)
	}
	if IsTrusted(TrustFile(p), dir) {
		t.Fatal("writing the person's own file trusted the project")
	}
	p.Untrusted = true
	s, err := Load(dir, p, false)
	if err != nil {
		t.Fatal(err)
	}
	var allowed []string
	for _, r := range s.Rules[permission.Allow] {
		allowed = append(allowed, r.Rule+" from "+r.Source)
	}
	if want := "Bash(go test:*) from " + p.Personal; !slices.Contains(allowed, want) || len(allowed) != 1 {
		t.Errorf("allow rules %q, want only %q (the project's own withheld)", allowed, want)
	}
	if !slices.Contains(s.Files, p.Personal) {
		t.Errorf("the personal file is not among the protected settings files %q", s.Files)
	}

	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if got := DefaultPaths(link).Personal; got != p.Personal {
		t.Errorf("through a link the project's file is %s, want %s", got, p.Personal)
	}
	twin := filepath.Join(t.TempDir(), filepath.Base(dir))
	if err := os.Mkdir(twin, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := DefaultPaths(twin).Personal; got == p.Personal {
		t.Errorf("two projects of one name share %s", got)
	}
}
