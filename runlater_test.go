package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A script a hook of the project's settings runs, and one an MCP server of
// them runs, run outside the sandbox: the agent's commands cannot change
// them (even in bypassPermissions, where nothing asks), and a Write or
// Edit of one asks in every mode (H16).
func TestH16_ScriptsTheHooksAndServersRunAreOutOfTheAgentsReach(t *testing.T) {
	c := newCLI(t)
	check := c.write("scripts/check.sh", "#!/bin/sh\nexit 0\n")
	os.Chmod(check, 0o755)
	server := c.write("tools/server.py", "import sys\nsys.exit(0)\n")
	c.write(".claude/settings.json", `{
  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/scripts/check.sh --fast"}]}]}
}`)
	// Not trusted yet: what the person will be asked about is the entry,
	// so the script it names must stay as it is until then.
	c.write(".mcp.json", `{"mcpServers": {"local": {"command": "python3", "args": ["tools/server.py"]}}}`)
	for _, cmd := range []string{
		`echo 'touch planted' >> scripts/check.sh`,
		`python3 -c "open('tools/server.py','a').write('open(\"planted\",\"w\")')"`,
		`mv scripts s2 && mkdir scripts && printf '#!/bin/sh\ntouch planted\n' > scripts/check.sh`,
	} {
		c.run("", "tool", "--cwd", c.project, "--permission-mode", "bypassPermissions", "Bash", `{"command":`+quoteJSON(cmd)+`}`)
	}
	if data, _ := os.ReadFile(check); string(data) != "#!/bin/sh\nexit 0\n" {
		t.Errorf("the hook's script was changed: %q", data)
	}
	if data, _ := os.ReadFile(server); string(data) != "import sys\nsys.exit(0)\n" {
		t.Errorf("the server's script was changed: %q", data)
	}
	if _, err := os.Stat(filepath.Join(c.project, "planted")); err == nil {
		t.Error("the planted code ran")
	}
	for _, mode := range []string{"acceptEdits", "bypassPermissions"} {
		for _, rel := range []string{"scripts/check.sh", "tools/server.py"} {
			code, out, _ := c.run("", "tool", "--cwd", c.project, "--permission-mode", mode, "Write",
				`{"file_path":"`+rel+`","content":"touch planted\n"}`)
			if code == exitOK || !strings.Contains(out, "outside the sandbox") {
				t.Errorf("%s: %s was written without a question: exit %d %s", mode, rel, code, out)
			}
		}
	}
	// Other scripts stay the agent's to change.
	c.write("scripts/build.sh", "echo build\n")
	if code, out, _ := c.run("", "tool", "--cwd", c.project, "--permission-mode", "acceptEdits", "Write",
		`{"file_path":"scripts/build.sh","content":"echo changed\n"}`); code != exitOK {
		t.Errorf("a script no hook runs: exit %d %s", code, out)
	}
}

// quoteJSON is s as a JSON string.
func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// A hook may name a script that does not exist yet (`test -x
// tools/fix.sh && tools/fix.sh`): a command that made it would have the
// next hook run it outside the sandbox. It is removed when the command
// ends, the result says so, and a Write of it asks; one the person makes
// is read-only to the next command.
func TestH16_AScriptAHookNamesCannotBeMadeByACommand(t *testing.T) {
	c := newCLI(t)
	c.write(".claude/settings.json", `{
  "hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "test -x tools/fix.sh && tools/fix.sh"}]}]}
}`)
	script := filepath.Join(c.project, "tools", "fix.sh")
	for _, cmd := range []string{
		`mkdir -p tools && printf '#!/bin/sh\ntouch planted\n' > tools/fix.sh && chmod +x tools/fix.sh`,
		`python3 -c "import os; os.makedirs('tools', exist_ok=True); open('tools/fix.sh','w').write('touch planted')"`,
	} {
		_, out, _ := c.run("", "tool", "--cwd", c.project, "--permission-mode", "bypassPermissions", "Bash", `{"command":`+quoteJSON(cmd)+`}`)
		if _, err := os.Lstat(script); err == nil {
			t.Fatalf("%s: tools/fix.sh is still there after the command:\n%s", cmd, out)
		}
		// A write the analysis sees asks; one it cannot see (python3)
		// runs and is undone.
		asked := strings.Contains(out, "needs approval") && strings.Contains(out, "outside the sandbox")
		removed := strings.Contains(out, "tools/fix.sh") && strings.Contains(out, "removed")
		if !asked && !removed {
			t.Errorf("%s: the result neither asks nor says the script was removed:\n%s", cmd, out)
		}
		if strings.HasPrefix(cmd, "python3") && !removed {
			t.Errorf("%s: the result does not say the script was removed:\n%s", cmd, out)
		}
	}
	code, out, _ := c.run("", "tool", "--cwd", c.project, "--permission-mode", "bypassPermissions", "Write",
		`{"file_path":"tools/fix.sh","content":"touch planted\n"}`)
	if code == exitOK || !strings.Contains(out, "outside the sandbox") {
		t.Errorf("a Write of the script the hook names ran without a question: exit %d %s", code, out)
	}
	// The person's own copy stays theirs.
	c.write("tools/fix.sh", "#!/bin/sh\nexit 0\n")
	c.run("", "tool", "--cwd", c.project, "--permission-mode", "bypassPermissions", "Bash",
		`{"command":"echo 'touch planted' >> tools/fix.sh"}`)
	if data, _ := os.ReadFile(script); string(data) != "#!/bin/sh\nexit 0\n" {
		t.Errorf("the person's script was changed or removed: %q", data)
	}
}
