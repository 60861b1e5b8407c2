package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/settings"
)

// skillScript loads skill mk, then runs the command its allowed-tools name.
const skillScript = `{"turns":[{"tool_calls":[{"name":"Skill","input":{"name":"mk"}}]},
	{"tool_calls":[{"name":"Bash","input":{"command":"touch made.txt"}}]},{"text":"done"}]}`

// A project's skill that names allowed-tools is an allow rule written by
// the repository: in a project the person has not trusted it grants
// nothing (the calls ask, so a headless run is refused them), and one a
// `git pull` adds to a trusted project waits until the person trusts the
// project as it is now.
func TestSkillAllowedToolsWaitForTrust(t *testing.T) {
	const skill = "---\nname: mk\ndescription: makes a file\nallowed-tools: Bash(touch:*)\n---\nRun touch made.txt\n"
	made := func(c *cli) bool {
		_, err := os.Stat(filepath.Join(c.project, "made.txt"))
		os.Remove(filepath.Join(c.project, "made.txt"))
		return err == nil
	}
	t.Run("untrusted", func(t *testing.T) {
		c := newCLI(t)
		c.write(".claude/skills/mk/SKILL.md", skill)
		c.untrusting = true
		if _, err := settings.SetTrust(settings.TrustFile(settings.DefaultPaths(c.project)), c.project, false); err != nil {
			t.Fatal(err)
		}
		s := c.script("s.json", skillScript)
		_, out, errb := c.run("", "--cwd", c.project, "--script", s, "-p", "go", "--output-format", "stream-json")
		if made(c) {
			t.Fatal("an untrusted repository's skill granted itself a command")
		}
		if !strings.Contains(out, "allowed-tools were not granted") {
			t.Errorf("the skill's result does not say its grant was withheld:\n%s\n%s", out, errb)
		}
	})
	t.Run("added after trust", func(t *testing.T) {
		c := newCLI(t)
		c.write(".workbench/skills/mk/SKILL.md", skill)
		s := c.script("s.json", skillScript)
		_, _, errb := c.run("", "--cwd", c.project, "--script", s, "-p", "go")
		if made(c) {
			t.Fatal("a skill added after the trust granted itself a command")
		}
		if !strings.Contains(errb, "changed since you trusted it") || !strings.Contains(errb, ".workbench/skills/mk/SKILL.md") {
			t.Errorf("the notice does not name the skill:\n%s", errb)
		}
		c.trust()
		c.run("", "--cwd", c.project, "--script", s, "-p", "go")
		if !made(c) {
			t.Error("trusted again, the skill's allowed-tools did not hold")
		}
	})
	t.Run("a person's own skill", func(t *testing.T) {
		c := newCLI(t)
		home, _ := os.UserHomeDir()
		dir := filepath.Join(home, ".claude", "skills", "mk")
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skill), 0o644)
		c.untrusting = true
		settings.SetTrust(settings.TrustFile(settings.DefaultPaths(c.project)), c.project, false)
		c.run("", "--cwd", c.project, "--script", c.script("s.json", skillScript), "-p", "go")
		if !made(c) {
			t.Error("the person's own skill did not grant its allowed-tools in an untrusted project")
		}
	})
}
