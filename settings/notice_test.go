package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A settings file written from Claude Code's documentation, with an event
// and a handler type Workbench does not run, loads: each ignored part is a
// notice naming the file, the line and the entry, and the hooks Workbench
// does run are registered.
func TestHookNoticesNameFileLineAndEntry(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := `{
  "hooks": {
    "Notification": [{"matcher": "", "hooks": [{"type": "command", "command": "notify-send hi"}]}],
    "TeammateIdle": [{"hooks": [{"type": "command", "command": "./idle.sh"}]}],
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "./guard.sh"},
        {"type": "http", "url": "http://127.0.0.1:9/hook", "headers": {"X": "y"}}
      ]}
    ]
  }
}
`
	for _, claude := range []bool{true, false} {
		path := filepath.Join(dir, "settings.json")
		if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		l, ok, err := ReadFile(path, claude)
		if err != nil || !ok {
			t.Fatalf("claude=%v: ReadFile: ok=%v err=%v", claude, ok, err)
		}
		var got []string
		for _, n := range l.Notices {
			got = append(got, n.String())
		}
		want := []string{
			"settings " + path + `:4:21: hooks.TeammateIdle: event "TeammateIdle" is not one Workbench fires; its hooks are ignored`,
			"settings " + path + `:8:9: hooks.PreToolUse[0].hooks[1]: hook type "http" is not one Workbench runs (it runs "command" and "prompt"); this hook is ignored`,
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("claude=%v: notices:\n%s\nwant:\n%s", claude, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		s := &Settings{}
		s.merge(dir, l, false, false)
		r, err := s.HookRegistry()
		if err != nil {
			t.Fatal(err)
		}
		if !r.Has("Notification") || !r.Has("PreToolUse") || len(s.Notices) != 2 {
			t.Errorf("claude=%v: Notification=%v PreToolUse=%v notices=%d", claude, r.Has("Notification"), r.Has("PreToolUse"), len(s.Notices))
		}
	}
}
