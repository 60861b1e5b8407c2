package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools/files"
)

func TestH15_ThePipelineGivesToolsTheReadRules(t *testing.T) {
	t.Parallel()
	f := newFixture(t, files.Glob())
	if err := f.p.Policy.AddRules(permission.Deny, "--deny", "Read(./.env)"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{".env", "main.go"} {
		if err := os.WriteFile(filepath.Join(f.p.WorkDir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := f.run("Glob", `{"pattern":".env"}`)
	if res.IsError || !strings.HasPrefix(res.Text, "No files found") || !strings.Contains(res.Text, "1 file was left out") {
		t.Fatalf("Glob .env through the pipeline: %q", res.Text)
	}
}
