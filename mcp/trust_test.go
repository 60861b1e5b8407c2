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

// A project's own enabledMcpjsonServers (where the one-time question keeps
// its answers) starts a server only when this machine holds the person's
// approval of that server as it is: a repository that ships the key starts
// nothing, and a pull that changes an approved server's command asks again.
func TestProjectAnswersNeedThisMachinesApprovalOfTheServer(t *testing.T) {
	t.Parallel()
	proj := t.TempDir()
	tr := NewTrust(filepath.Join(t.TempDir(), "mcp-trust.json"))
	write := func(cmd string) {
		t.Helper()
		data := `{"mcpServers":{"docs":{"command":"` + cmd + `"},"other":{"command":"y"}}}`
		if err := os.WriteFile(filepath.Join(proj, ProjectFileName), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("x")
	pol := ProjectPolicy{Answered: []string{"docs"}}
	if ps := LoadProjectServers(proj, pol, tr); len(ps.Start) != 0 || len(ps.Pending) != 2 {
		t.Fatalf("a project's own answer started %v", ps.Start.Names())
	}
	if err := tr.ApproveServer(filepath.Join(proj, ProjectFileName), "docs", ServerConfig{Command: "x"}); err != nil {
		t.Fatal(err)
	}
	ps := LoadProjectServers(proj, pol, tr)
	if _, ok := ps.Start["docs"]; !ok || len(ps.Start) != 1 {
		t.Fatalf("the approved server does not start: start %v pending %v", ps.Start.Names(), ps.Pending.Names())
	}
	if ps := LoadProjectServers(proj, ProjectPolicy{AnsweredAll: true}, tr); len(ps.Start) != 1 {
		t.Errorf("enableAllProjectMcpServers in a project file started %v", ps.Start.Names())
	}
	if ps := LoadProjectServers(proj, ProjectPolicy{}, tr); len(ps.Start) != 0 {
		t.Errorf("the approval without the project's answer started %v", ps.Start.Names())
	}
	write("x --changed")
	if ps := LoadProjectServers(proj, pol, tr); len(ps.Start) != 0 {
		t.Errorf("a changed command started without asking: %v", ps.Start.Names())
	}
}
