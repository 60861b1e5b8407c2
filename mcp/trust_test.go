package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTrustApprovesExactContent(t *testing.T) {
	t.Parallel()
	store := filepath.Join(t.TempDir(), "state", "workbench", "mcp-trust.json")
	proj := t.TempDir()
	file := filepath.Join(proj, ProjectFileName)
	content := []byte(`{"mcpServers":{"a":{"command":"x"}}}`)

	tr := NewTrust(store)
	if tr.Trusted(file, content) {
		t.Fatal("nothing is trusted before approval")
	}
	if err := tr.Approve(file, content); err != nil {
		t.Fatal(err)
	}
	if !tr.Trusted(file, content) {
		t.Error("approved content must be trusted")
	}
	if !NewTrust(store).Trusted(file, content) {
		t.Error("approval must persist for the next session")
	}
	if tr.Trusted(file, []byte(`{"mcpServers":{"a":{"command":"y"}}}`)) {
		t.Error("changed content must not be trusted")
	}
	if tr.Trusted(filepath.Join(t.TempDir(), ProjectFileName), content) {
		t.Error("the same content in another project must not be trusted")
	}
	if info, err := os.Stat(store); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("trust file mode: %v %v", info, err)
	}

	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(proj, link); err != nil {
		t.Fatal(err)
	}
	if !tr.Trusted(filepath.Join(link, ProjectFileName), content) {
		t.Error("the same file reached through a symlink must be the same entry")
	}
}

func TestTrustFailsClosedOnADamagedFile(t *testing.T) {
	t.Parallel()
	store := filepath.Join(t.TempDir(), "mcp-trust.json")
	if err := os.WriteFile(store, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	tr := NewTrust(store)
	if tr.Trusted("/p/.mcp.json", nil) {
		t.Error("a damaged trust file must trust nothing")
	}
	if err := tr.Approve("/p/.mcp.json", nil); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("approve over a damaged file: %v", err)
	}
}

func TestDefaultTrustFileIsMachineState(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/state")
	if got, err := DefaultTrustFile(); err != nil || got != "/state/workbench/mcp-trust.json" {
		t.Errorf("DefaultTrustFile = %q, %v", got, err)
	}
}
