package subagents_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/subagents"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadReadsToolsAndTheProjectWins(t *testing.T) {
	t.Parallel()
	project, home := t.TempDir(), t.TempDir()
	dirs := subagents.DefaultDirs(project, home)
	write(t, filepath.Join(dirs[0], "a.md"), "---\nname: planner\ndescription: Plans.\ntools:\n  - Read\n  - Task\n---\nPlan well.")
	write(t, filepath.Join(dirs[0], "all.md"), "---\nname: doer\ndescription: Does.\n---\nDo.")
	write(t, filepath.Join(dirs[0], "none.md"), "---\nname: idle\ndescription: Nothing.\ntools: \"\"\n---\n")
	write(t, filepath.Join(dirs[0], "bad.md"), "---\nname: Bad Name\ndescription: x\n---\n")
	write(t, filepath.Join(dirs[1], "p.md"), "---\nname: planner\ndescription: The person's.\n---\n")
	write(t, filepath.Join(dirs[0], "sub", "deep.md"), "---\nname: deep\ndescription: x\n---\n")
	defs, notes := subagents.Load(agent.DefaultAgents(), dirs...)
	by := map[string]agent.AgentDef{}
	for _, d := range defs {
		by[d.Name] = d
	}
	if p := by["planner"]; p.Description != "Plans." || strings.Join(p.Tools, ",") != "Read,Agent" || p.Instructions != "Plan well." {
		t.Errorf("planner %+v", p)
	}
	if d := by["doer"]; d.Tools != nil {
		t.Errorf("no tools key means all tools, got %v", d.Tools)
	}
	if d := by["idle"]; len(d.Tools) != 1 || d.Tools[0] != "(none)" {
		t.Errorf("an empty tools list must not widen to all, got %v", d.Tools)
	}
	if _, ok := by["deep"]; ok || len(defs) != 3 {
		t.Errorf("loaded %v; subfolders are not read", defs)
	}
	joined := strings.Join(notes, "\n")
	for _, want := range []string{"bad.md:2: name \"Bad Name\"", "p.md: subagent planner is also"} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes lack %q:\n%s", want, joined)
		}
	}
}
