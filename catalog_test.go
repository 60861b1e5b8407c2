package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/session"
)

// The catalog `workbench tools` prints is the agent's: every tool a session
// has, with the approval the permission stage really gives it.
func TestToolsListsTheAgentsWholeCatalog(t *testing.T) {
	c := newCLI(t)
	code, out, errb := c.run("", "tools", "--cwd", c.project, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var entries []session.CatalogEntry
	if err := json.Unmarshal([]byte(out), &entries); err != nil {
		t.Fatal(err)
	}
	byName := map[string]session.CatalogEntry{}
	for _, e := range entries {
		byName[e.Name] = e
	}
	for _, n := range []string{
		"Read", "Write", "Edit", "Bash", "Grep", "Glob", "WebFetch",
		"TodoWrite", "AskUserQuestion", "Agent", "Monitor", "TaskOutput", "TaskStop",
		"shell_open", "shell_send", "shell_read", "EnterPlanMode", "ExitPlanMode", "Skill", "sleep",
	} {
		if _, ok := byName[n]; !ok {
			t.Errorf("workbench tools lacks %s, which the agent has", n)
		}
	}
	if len(entries) < 25 {
		t.Errorf("only %d tools listed", len(entries))
	}
	// WebFetch asks for a URL no rule names; an empty input's own refusal
	// is not what a real call meets.
	if e := byName["WebFetch"]; e.Approval != "ask" {
		t.Errorf("WebFetch approval %q, want ask", e.Approval)
	}
	if e := byName["Bash"]; e.Approval != "ask" {
		t.Errorf("Bash approval %q, want ask", e.Approval)
	}
}

func TestToolsShowsTheRuleThatDecides(t *testing.T) {
	c := newCLI(t)
	code, out, errb := c.run("", "tools", "--cwd", c.project, "--allow", "WebFetch", "--deny", "Monitor")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, want := range []string{"allow (WebFetch)", "deny (Monitor)"} {
		if !strings.Contains(out, want) {
			t.Errorf("catalog lacks %q:\n%s", want, out)
		}
	}
}

// In acceptEdits an edit of the workspace runs without a question and one
// elsewhere asks: the catalog says both, as `workbench tool` then does.
func TestToolsSaysWhereAcceptEditsAllowsEdits(t *testing.T) {
	c := newCLI(t)
	code, out, errb := c.run("", "tools", "--cwd", c.project, "--permission-mode", "acceptEdits")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, name := range []string{"Edit", "MultiEdit", "Write"} {
		line := ""
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, name+" ") {
				line = l
			}
		}
		if !strings.Contains(line, "allow in the workspace (mode:acceptEdits), ask elsewhere") {
			t.Errorf("%s: %q", name, line)
		}
	}
	if code, out, _ := c.run("", "tool", "--cwd", c.project, "--permission-mode", "acceptEdits", "Write",
		`{"file_path":"new.txt","content":"x"}`); code != exitOK {
		t.Errorf("a Write in the workspace under acceptEdits: exit %d %s", code, out)
	}
	if code, _, _ := c.run("", "tool", "--cwd", c.project, "--permission-mode", "acceptEdits", "Write",
		`{"file_path":"`+filepath.Join(t.TempDir(), "x.txt")+`","content":"x"}`); code == exitOK {
		t.Error("a Write outside the workspace ran without a question under acceptEdits")
	}
	// In default mode both ask: one word, as before.
	_, out, _ = c.run("", "tools", "--cwd", c.project)
	if strings.Contains(out, "in the workspace") {
		t.Errorf("default mode shows a split answer:\n%s", out)
	}
}

// Any tool of the catalog runs through `workbench tool`.
func TestToolRunsEveryCatalogTool(t *testing.T) {
	c := newCLI(t)
	code, out, errb := c.run("", "tool", "--cwd", c.project, "TodoWrite",
		`{"todos":[{"content":"write the test","status":"in_progress","activeForm":"Writing the test"}]}`)
	if code != exitOK || strings.Contains(out, "Unknown tool") {
		t.Fatalf("TodoWrite: exit %d\n%s%s", code, out, errb)
	}

	code, out, _ = c.run("", "tool", "--cwd", c.project, "AskUserQuestion",
		`{"questions":[{"question":"Which?","header":"Pick","options":[{"label":"a","description":"A"},{"label":"b","description":"B"}],"multiSelect":false}]}`)
	if code != exitError || !strings.Contains(out, "--answers") {
		t.Errorf("AskUserQuestion without --answers: exit %d, want a clear error naming --answers:\n%s", code, out)
	}
}

// A shell session opened by `workbench tool` cannot outlive the command,
// and the result says so.
func TestToolShellOpenSaysTheSessionEnds(t *testing.T) {
	c := newCLI(t)
	code, out, errb := c.run("", "tool", "--cwd", c.project, "--allow", "shell_open", "shell_open", `{"command":"sleep 4321.5"}`)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errb)
	}
	if !strings.Contains(out, "ended with this command") {
		t.Errorf("the result does not say the shell session ended:\n%s", out)
	}
	for _, p := range processesWith(func(argv []string) bool {
		return len(argv) == 2 && argv[0] == "sleep" && argv[1] == "4321.5"
	}) {
		if alive(p.pid) {
			t.Errorf("the shell session's program (pid %d) outlived workbench tool", p.pid)
		}
	}
}

func TestVersionNamesTheCommit(t *testing.T) {
	c := newCLI(t)
	code, out, _ := c.run("", "--version")
	if code != exitOK || !strings.HasPrefix(out, "workbench "+session.Version) || !strings.Contains(out, "commit") {
		t.Errorf("--version: exit %d %q", code, out)
	}
}
