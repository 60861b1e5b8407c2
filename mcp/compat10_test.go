package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompat10_ProjectServersWaitForTrust checks each way a project's
// servers become trusted, and that nothing else does.
func TestCompat10_ProjectServersWaitForTrust(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := []byte(`{"mcpServers":{"a":{"command":"x"},"b":{"command":"y"},"c":{"url":"http://127.0.0.1:1/mcp"}}}`)
	if err := os.WriteFile(filepath.Join(dir, ProjectFileName), data, 0o644); err != nil {
		t.Fatal(err)
	}
	trust := NewTrust(filepath.Join(t.TempDir(), "trust.json"))
	names := func(c Config) string { return strings.Join(c.Names(), ",") }
	for _, tc := range []struct {
		name           string
		pol            ProjectPolicy
		approve        bool
		start, pending string
	}{
		{"nothing is trusted by default", ProjectPolicy{}, false, "", "a,b,c"},
		{"enabledMcpjsonServers trusts the servers named", ProjectPolicy{Enabled: []string{"b"}}, false, "b", "a,c"},
		{"enableAllProjectMcpServers trusts all", ProjectPolicy{EnableAll: true}, false, "a,b,c", ""},
		{"disabledMcpjsonServers wins over enableAll", ProjectPolicy{EnableAll: true, Disabled: []string{"a"}}, false, "b,c", ""},
		{"an approval of the content trusts all", ProjectPolicy{}, true, "a,b,c", ""},
	} {
		tr := trust
		if tc.approve {
			tr = NewTrust(filepath.Join(t.TempDir(), "trust.json"))
			if err := tr.Approve(filepath.Join(dir, ProjectFileName), data); err != nil {
				t.Fatal(err)
			}
		}
		ps := LoadProjectServers(dir, tc.pol, tr)
		if ps.Err != nil || names(ps.Start) != tc.start || names(ps.Pending) != tc.pending {
			t.Errorf("%s: start %q pending %q err %v", tc.name, names(ps.Start), names(ps.Pending), ps.Err)
		}
		if n := ps.PendingNotice("run /mcp trust"); (n == "") != (tc.pending == "") || (n != "" && !strings.Contains(n, "none of them starts")) {
			t.Errorf("%s: notice %q", tc.name, n)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ProjectFileName), append(data, ' ', '{'), 0o644); err != nil {
		t.Fatal(err)
	}
	if ps := LoadProjectServers(dir, ProjectPolicy{EnableAll: true}, trust); ps.Err == nil || len(ps.Start) != 0 {
		t.Fatalf("a broken file must start nothing: %+v", ps)
	}
	if ps := LoadProjectServers(t.TempDir(), ProjectPolicy{EnableAll: true}, trust); ps.Path != "" || ps.Err != nil {
		t.Fatalf("no file: %+v", ps)
	}
}
