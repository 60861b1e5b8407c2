package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAddAllowRuleKeepsOtherSettings(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), ".workbench", "settings.local.json")
	if err := AddAllowRule(p, "Bash(touch:*)"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p, []byte(`{"permissions":{"allow":["Bash(touch:*)"],"deny":["Bash(rm:*)"]},"maxOutputBytes":100}`), 0o644)
	if err := AddAllowRule(p, "Bash(git status:*)"); err != nil {
		t.Fatal(err)
	}
	if err := AddAllowRule(p, "Bash(git status:*)"); err != nil {
		t.Fatal(err)
	}
	l, ok, err := ReadFile(p, false)
	if err != nil || !ok {
		t.Fatal(err)
	}
	got := strings.Join(l.File.Permissions.Allow, ",")
	if got != "Bash(touch:*),Bash(git status:*)" || len(l.File.Permissions.Deny) != 1 || l.File.MaxOutputBytes != 100 {
		t.Errorf("file after adding: %+v", l.File)
	}
}

func TestAddAllowRuleRefusesABrokenFile(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "settings.local.json")
	os.WriteFile(p, []byte(`{"permissions":`), 0o644)
	if err := AddAllowRule(p, "Bash(ls:*)"); err == nil {
		t.Error("a broken file must not be overwritten")
	}
	if data, _ := os.ReadFile(p); string(data) != `{"permissions":` {
		t.Error("the broken file was changed")
	}
}
