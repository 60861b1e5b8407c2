package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// settingsProject is a project with a src directory and the settings files
// registered as a session registers them at start, before any link exists.
func settingsProject(t *testing.T) (string, *Policy) {
	t.Helper()
	project := resolvePath(t.TempDir())
	if err := os.Mkdir(filepath.Join(project, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := newPolicy(t, []string{project}, rules{allow: []string{"*", "Edit(./**)", "Bash"}})
	p.AddProtected(".workbench/settings.json", ".workbench/settings.local.json",
		".claude/settings.json", ".claude/settings.local.json")
	return project, p
}

func TestH17_ProtectionFollowsALinkMadeAfterStart(t *testing.T) {
	t.Parallel()
	project, p := settingsProject(t)
	// Before the link, src/settings.local.json is an ordinary file.
	check(t, p.Evaluate(edit(ModeBypass, "src/settings.local.json")), Allow, "mode:bypassPermissions")
	if err := os.Symlink("src", filepath.Join(project, ".workbench")); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"src/settings.local.json", "src/settings.json", "src/./settings.json", filepath.Join(project, "src/SETTINGS.local.json")} {
		d := p.Evaluate(edit(ModeBypass, path))
		check(t, d, Ask, "protected")
		mustContain(t, d.Message, "settings file")
	}
	// Other files in the linked directory stay ordinary.
	check(t, p.Evaluate(edit(ModeBypass, "src/main.go")), Allow, "mode:bypassPermissions")
	// Replacing the link (or the directory) itself is protected too.
	check(t, p.Evaluate(edit(ModeBypass, ".workbench")), Ask, "protected")
	check(t, p.Evaluate(edit(ModeBypass, "src")), Ask, "protected")
}

func TestH17_AClaudeDirectoryLinkedAfterStartIsProtectedWhole(t *testing.T) {
	t.Parallel()
	project, p := settingsProject(t)
	if err := os.Symlink(filepath.Join(project, "src"), filepath.Join(project, ".claude")); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"src/settings.json", "src/commands/deploy.md", "src/agents/a.md", "src/hooks/x.sh"} {
		check(t, p.Evaluate(edit(ModeBypass, path)), Ask, "protected")
	}
}

func TestH17_MCPConfigAndClaudeDirectoryAreProtected(t *testing.T) {
	t.Parallel()
	project, p := settingsProject(t)
	cases := []string{
		".mcp.json", "./.mcp.json", "src/../.mcp.json", ".MCP.json",
		".claude/settings.json", ".claude/commands/x.md", ".claude/agents/reviewer.md", ".claude", ".Claude/skills/s/SKILL.md",
		".workbench/settings.local.json", ".workbench/settings.json", ".workbench/settings.team.json",
		"sub/.workbench/settings.json", "sub/.claude/settings.json",
		".git/hooks/pre-commit", ".git/config",
	}
	for _, path := range cases {
		d := p.Evaluate(edit(ModeBypass, path))
		if d.Behavior != Ask || d.Rule != "protected" {
			t.Errorf("write %s: %s by %q (%s), want ask by protected", path, d.Behavior, d.Rule, d.Message)
		}
	}
	// A link to the MCP config made after start is found by where it leads.
	if err := os.Symlink(filepath.Join(project, ".mcp.json"), filepath.Join(project, "src", "servers.json")); err != nil {
		t.Fatal(err)
	}
	check(t, p.Evaluate(edit(ModeBypass, "src/servers.json")), Ask, "protected")
	// And when .mcp.json itself becomes a link, its target is protected.
	if err := os.Symlink(filepath.Join(project, "src", "mcp.real"), filepath.Join(project, ".mcp.json.new")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(project, ".mcp.json.new"), filepath.Join(project, ".mcp.json")); err != nil {
		t.Fatal(err)
	}
	check(t, p.Evaluate(edit(ModeBypass, "src/mcp.real")), Ask, "protected")
	// Files that only look alike are not protected.
	for _, path := range []string{"src/mcp.json", "docs/claude.md", ".workbench/notes.md", "src/settings.json"} {
		check(t, p.Evaluate(edit(ModeBypass, path)), Allow, "mode:bypassPermissions")
	}
}

func TestH17_ProtectedSettingsFileResolvedAtEveryCheck(t *testing.T) {
	t.Parallel()
	project, _ := settingsProject(t)
	user := resolvePath(t.TempDir())
	p := newPolicy(t, []string{project}, rules{allow: []string{"*", "Edit(" + user + "/**)"}})
	p.AddProtected(filepath.Join(user, "cfg", "settings.json"))
	check(t, p.Evaluate(edit(ModeBypass, filepath.Join(project, "src", "x.json"))), Allow, "mode:bypassPermissions")
	// The user's settings directory becomes a link into the project.
	if err := os.Symlink(filepath.Join(project, "src"), filepath.Join(user, "cfg")); err != nil {
		t.Fatal(err)
	}
	check(t, p.Evaluate(edit(ModeBypass, "src/settings.json")), Ask, "protected")
}

func TestH17_ShellWritesToProtectedPlacesAsk(t *testing.T) {
	t.Parallel()
	project, p := settingsProject(t)
	checkCommands(t, p, project, []commandCase{
		{"ln -s src .workbench", Ask, "protected", ".workbench directory"},
		{"echo '{}' > .mcp.json", Ask, "protected", ".mcp.json"},
		{"echo x > .claude/commands/a.md", Ask, "protected", ".claude"},
	})
	if err := os.Symlink("src", filepath.Join(project, ".workbench")); err != nil {
		t.Fatal(err)
	}
	checkCommands(t, p, project, []commandCase{
		{`echo '{"permissions":{"allow":["Bash"]}}' > src/settings.local.json`, Ask, "protected", "settings file"},
	})
}
