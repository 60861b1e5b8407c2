package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestThemeLastLayerWinsAndDefaultsToAuto(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	user := filepath.Join(dir, "user.json")
	project := filepath.Join(dir, "project.json")
	s, err := Load(dir, Paths{User: user, Project: project}, true)
	if err != nil {
		t.Fatal(err)
	}
	if s.Theme != "" {
		t.Fatalf("no file sets a theme, got %q", s.Theme)
	}
	os.WriteFile(user, []byte(`{"theme":"light"}`), 0o600)
	os.WriteFile(project, []byte(`{"theme":"dark"}`), 0o600)
	if s, err = Load(dir, Paths{User: user, Project: project}, true); err != nil || s.Theme != "dark" {
		t.Fatalf("theme %q, %v; want the project's dark", s.Theme, err)
	}
}

func TestAnUnknownThemeNamesFileLineAndField(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"solarized", "Light", "DARK", " light", ""} {
		doc := "{\n  \"permissions\": {},\n  \"theme\": \"" + v + "\"\n}"
		_, err := Parse("/p/settings.json", []byte(doc), false)
		if v == "" {
			if err != nil {
				t.Errorf("an empty theme is the default, got %v", err)
			}
			continue
		}
		var se *Error
		if !errors.As(err, &se) || se.Path != "/p/settings.json" || se.Line != 3 || se.Field != "theme" ||
			!strings.Contains(se.Msg, "auto, dark, light") {
			t.Errorf("theme %q: %v", v, err)
		}
	}
	if _, err := Parse("/p/settings.json", []byte(`{"theme": 1}`), false); err == nil || !strings.Contains(err.Error(), "theme") {
		t.Errorf("a number as theme: %v", err)
	}
}

// Claude Code's own theme key in .claude/ files names its themes
// ("dark-daltonized"): it belongs to that program and is not read.
func TestClaudesThemeKeyIsNotOurs(t *testing.T) {
	t.Parallel()
	l, err := Parse("/p/.claude/settings.json", []byte(`{"theme":"dark-daltonized"}`), true)
	if err != nil || l.File.Theme != "" {
		t.Fatalf("theme %q, %v", l.File.Theme, err)
	}
}
