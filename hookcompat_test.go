package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A .claude/settings.json written from Claude Code's hooks documentation,
// with an event and a handler type Workbench does not run, no longer stops
// Workbench: the call runs, the hooks Workbench runs do run, and stderr
// says what is ignored with file and line.
func TestClaudeHooksWithUnknownEventsAndTypesGiveNoticesNotExits(t *testing.T) {
	c := newCLI(t)
	dump := filepath.Join(t.TempDir(), "pre.json")
	hook, err := filepath.Abs("hooks/testdata/hook.sh")
	if err != nil {
		t.Fatal(err)
	}
	settings := c.write(".claude/settings.json", `{
  "hooks": {
    "Notification": [{"matcher": "", "hooks": [{"type": "command", "command": "notify-send hi"}]}],
    "ConfigChange": [{"hooks": [{"type": "command", "command": "./changed.sh"}]}],
    "PreToolUse": [{"matcher": "Read", "hooks": [
      {"type": "command", "command": "`+hook+` `+dump+`"},
      {"type": "http", "url": "http://127.0.0.1:9/hook"}
    ]}]
  }
}
`)
	c.write("a.txt", "alpha\n")
	code, stdout, stderr := c.run("", "tool", "--cwd", c.project, "Read", `{"file_path":"a.txt"}`)
	if code != exitOK || !strings.Contains(stdout, "alpha") {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	for _, want := range []string{
		settings + `:4:21: hooks.ConfigChange: event "ConfigChange" is not one Workbench fires; its hooks are ignored`,
		settings + `:7:7: hooks.PreToolUse[0].hooks[1]: hook type "http" is not one Workbench runs`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if raw, err := os.ReadFile(dump); err != nil || !strings.Contains(string(raw), `"tool_name":"Read"`) {
		t.Errorf("the PreToolUse command hook did not run: %v %s", err, raw)
	}
}
