package session

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"

	"github.com/seed92b641c3/workbench/hooks"
	"github.com/seed92b641c3/workbench/mcp"
)

// Each way a hook's command names a project file finds it; words that are
// not files, directories and files outside are left out by the caller's
// sandbox (outside) or here (not files).
func TestRunLaterFindsTheFilesAHookCommandNames(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.sh", "scripts/b.py", "c d.sh", "conf/lint.json", "e.sh"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	env := expand.ListEnviron("CLAUDE_PROJECT_DIR=" + dir)
	for cmd, want := range map[string][]string{
		`./a.sh`:                               {"a.sh"},
		`"$CLAUDE_PROJECT_DIR"/scripts/b.py x`: {"scripts/b.py"},
		`python3 ${CLAUDE_PROJECT_DIR}/scripts/b.py`: {"scripts/b.py"},
		// The words of a quoted one count too (bash -c 'x.sh'): d.sh
		// is kept from being made, which over-counts at worst.
		`sh "c d.sh" && echo done`:         {"c d.sh", "d.sh"},
		`lint --config=conf/lint.json src`: {"conf/lint.json"},
		`bash -c 'e.sh --flag'`:            {"e.sh"},
		`npm test`:                         nil,
		`scripts`:                          nil,
		`if then (( broken`:                nil,
		// Missing yet: a path with a slash or a script's extension
		// counts, since no command may make it.
		`test -x tools/fix.sh && tools/fix.sh`: {"tools/fix.sh"},
		`bash later.sh`:                        {"later.sh"},
		`fmt --config=conf/new.toml`:           {"conf/new.toml"},
		`prettier --write src/**/*.ts`:         nil,
		`curl https://example.com/x.sh`:        nil,
		`python3 -m black`:                     nil,
		`sh ../outside/x.sh`:                   nil,
	} {
		got := namedFiles(dir, "", commandWords(cmd, env))
		var rel []string
		for _, g := range got {
			r, _ := filepath.Rel(dir, g)
			if !slices.Contains(rel, r) {
				rel = append(rel, r)
			}
		}
		if !slices.Equal(rel, want) {
			t.Errorf("%s: found %q, want %q", cmd, rel, want)
		}
	}
}

// A hook naming a script that did not exist when the session started is
// not run once the script exists: a background command may have made it
// and still be running (its removal waits for its end), and the hook runs
// outside the sandbox. The check is made as the hook starts (H17).
func TestH17_AHookWhoseScriptAppearedMidSessionIsNotRun(t *testing.T) {
	dir := questionProject(t)
	marker := filepath.Join(t.TempDir(), "ran")
	os.MkdirAll(filepath.Join(dir, ".claude"), 0o755)
	os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte(`{"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "command", "command": "test -x tools/fix.sh && tools/fix.sh || true"},
		{"type": "command", "command": "echo other > `+filepath.Join(t.TempDir(), "other")+` && ls src/ >/dev/null 2>&1 || true"}]}]}}`), 0o644)
	c, err := Load(Options{Dir: dir, TrustProject: true})
	if err != nil {
		t.Fatal(err)
	}
	in := hooks.Input{Cwd: dir, ToolName: "Bash"}
	for _, o := range c.Hooks.Post(context.Background(), in, false) {
		if o.Err != nil {
			t.Fatalf("before the script exists, a hook failed: %v", o.Err)
		}
	}
	os.MkdirAll(filepath.Join(dir, "tools"), 0o755)
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "tools", "fix.sh"), []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755)
	outs := c.Hooks.Post(context.Background(), in, false)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the hook ran a script that appeared during the session")
	}
	if len(outs) != 2 || outs[0].Err == nil || !strings.Contains(outs[0].Err.Error(), "tools/fix.sh") {
		t.Fatalf("outcomes %+v", outs)
	}
	if outs[1].Err != nil {
		t.Errorf("a hook naming a directory that appeared was refused too: %v", outs[1].Err)
	}
}

// A stdio server naming a project script that was missing when the
// session started is not started once the script exists (a background
// command may have written it): at /mcp trust, at reconnect, after a
// crash. One whose script existed at start is unaffected.
func TestH17_AServerWhoseScriptAppearedMidSessionIsNotStarted(t *testing.T) {
	dir := questionProject(t)
	c, err := Load(Options{Dir: dir, TrustProject: true})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "kept.py"), nil, 0o644)
	later := mcp.ServerConfig{Command: "python3", Args: []string{"tools/server.py"}}
	kept := mcp.ServerConfig{Command: "python3", Args: []string{"kept.py"}}
	c.protectServers(mcp.Config{"later": later, "kept": kept})
	if err := c.serverGuard(later); err != nil {
		t.Fatalf("before the script exists: %v", err)
	}
	os.MkdirAll(filepath.Join(dir, "tools"), 0o755)
	os.WriteFile(filepath.Join(dir, "tools", "server.py"), []byte("import os\n"), 0o644)
	if err := c.serverGuard(later); err == nil || !strings.Contains(err.Error(), "tools/server.py") {
		t.Errorf("a server whose script appeared: %v", err)
	}
	if err := c.serverGuard(kept); err != nil {
		t.Errorf("a server whose script was there at start: %v", err)
	}
	if c.mcpOptions().Guard == nil {
		t.Error("the session's MCP manager is not guarded")
	}
}
