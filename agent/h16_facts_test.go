package agent

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func gitT(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v %s", args, err, out)
	}
}

// The git status the system prompt shows runs outside any sandbox, at the
// start of every session: what a command of an earlier session planted in
// the workspace (a nested repository with a clean filter and an
// fsmonitor, registered as a submodule; a commondir sending git to a
// config of its making) must not run (H16).
func TestH16_TheStartupGitStatusRunsNothingPlanted(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	ws := t.TempDir()
	marker := filepath.Join(t.TempDir(), "ran")
	gitT(t, ws, "init", "-q")
	gitT(t, ws, "commit", "-q", "--allow-empty", "-m", "one")
	sub := filepath.Join(ws, "sub")
	os.Mkdir(sub, 0o755)
	gitT(t, sub, "init", "-q")
	os.WriteFile(filepath.Join(sub, "a.txt"), []byte("one\n"), 0o644)
	os.WriteFile(filepath.Join(sub, ".gitattributes"), []byte("* filter=planted\n"), 0o644)
	gitT(t, sub, "add", ".")
	gitT(t, sub, "commit", "-q", "-m", "planted")
	gitT(t, sub, "config", "filter.planted.clean", "touch "+marker+"; cat")
	gitT(t, sub, "config", "core.fsmonitor", "touch "+marker+"; false")
	gitT(t, ws, "add", "sub")
	os.WriteFile(filepath.Join(sub, "a.txt"), []byte("two\n"), 0o644)

	f := GatherFactsIn(context.Background(), FactsDirs{WorkDir: ws})
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the start-up git status ran a nested repository's filter or fsmonitor")
	}
	if !strings.Contains(f.GitStatus, "## ") {
		t.Errorf("no git status: %q", f.GitStatus)
	}

	evil := t.TempDir()
	os.WriteFile(filepath.Join(evil, "config"), []byte("[core]\n\tfsmonitor = \"touch "+marker+"; false\"\n"), 0o644)
	os.WriteFile(filepath.Join(ws, ".git", "commondir"), []byte(evil+"\n"), 0o644)
	f = GatherFactsIn(context.Background(), FactsDirs{WorkDir: ws})
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the start-up git status followed a planted commondir")
	}
	if !strings.Contains(f.GitStatus, "commondir") {
		t.Errorf("the prompt does not say why there is no status: %q", f.GitStatus)
	}
}
