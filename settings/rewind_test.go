package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRewindIgnoreAddsUpAcrossLayers(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.json")
	project := filepath.Join(dir, "project.json")
	os.WriteFile(user, []byte(`{"rewind":{"ignore":["*.bin"]}}`), 0o600)
	os.WriteFile(project, []byte(`{"rewind":{"ignore":["data/"],"disable":false}}`), 0o600)
	s, err := Load(dir, Paths{User: user, Project: project}, true)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(s.RewindIgnore, " ") != "*.bin data/" || s.RewindDisable {
		t.Fatalf("ignore %v disable %v", s.RewindIgnore, s.RewindDisable)
	}
	os.WriteFile(project, []byte(`{"rewind":{"disable":true}}`), 0o600)
	if s, _ = Load(dir, Paths{User: user, Project: project}, true); !s.RewindDisable {
		t.Fatal("rewind.disable ignored")
	}
}

func TestABadRewindPatternNamesFileLineAndField(t *testing.T) {
	for _, doc := range []string{
		"{\n  \"rewind\": {\n    \"ignore\": [\"a\\nb\"]\n  }\n}",
		"{\n  \"rewind\": {\n    \"ignore\": [\"  \"]\n  }\n}",
	} {
		_, err := Parse("/p/settings.json", []byte(doc), false)
		if err == nil || !strings.Contains(err.Error(), "/p/settings.json:3:") || !strings.Contains(err.Error(), "rewind.ignore") {
			t.Fatalf("%q: %v", doc, err)
		}
	}
	if _, err := Parse("/p/s.json", []byte(`{"rewind":{"ignroe":[]}}`), false); err == nil {
		t.Fatal("a misspelt rewind key was accepted")
	}
}
