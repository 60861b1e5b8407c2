package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The one-time question's answer goes into the project's local settings as
// Claude Code writes it, keeping every other key (Claude Code's own
// included), moving a name from one list to the other when the person
// changes their mind, and leaving a trusted project trusted.
func TestRecordMcpjsonAnswerKeepsTheRestOfTheFile(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	proj := t.TempDir()
	path := filepath.Join(proj, ".claude", "settings.local.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"permissions":{"allow":["Bash(ls:*)"]},"outputStyle":"Explanatory","disabledMcpjsonServers":["docs"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	trust := TrustFile(DefaultPaths(proj))
	if _, err := SetTrust(trust, proj, true); err != nil {
		t.Fatal(err)
	}
	if err := RecordMcpjsonAnswer(path, []string{"docs", "github"}, []string{"db"}); err != nil {
		t.Fatal(err)
	}
	l, ok, err := ReadFile(path, true)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	f := l.File
	if strings.Join(f.EnabledMcpjsonServers, ",") != "docs,github" || strings.Join(f.DisabledMcpjsonServers, ",") != "db" ||
		f.Permissions == nil || len(f.Permissions.Allow) != 1 {
		t.Fatalf("file after the answer: %+v", f)
	}
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), `"outputStyle": "Explanatory"`) {
		t.Errorf("a key of Claude Code's was lost:\n%s", data)
	}
	if !IsTrusted(trust, proj) {
		t.Error("recording the answer ended the project's trust")
	}
	// A file in the Workbench directory is created when missing.
	wb := filepath.Join(proj, ".workbench", "settings.local.json")
	if err := RecordMcpjsonAnswer(wb, nil, []string{"docs"}); err != nil {
		t.Fatal(err)
	}
	if l, ok, err := ReadFile(wb, false); err != nil || !ok || strings.Join(l.File.DisabledMcpjsonServers, ",") != "docs" {
		t.Fatalf("%+v %v %v", l.File, ok, err)
	}
	if !IsTrusted(trust, proj) {
		t.Error("a new settings file with the answer ended the project's trust")
	}
	// A broken file is not rewritten.
	if err := os.WriteFile(path, []byte(`{"permissions":`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := RecordMcpjsonAnswer(path, []string{"x"}, nil); err == nil || !strings.Contains(err.Error(), "not changing") {
		t.Errorf("a broken file: %v", err)
	}
}
