package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/tasks"
)

// A background task's end is in the conversation the moment it happens, as
// one readable line, without a prompt; when the loop later hands the same
// notification to the model it is not shown a second time.
func TestBackgroundNewsShowsLiveAsOneLine(t *testing.T) {
	a := newApp(t, `{"turns":[{"text":"hi"}]}`, 80, 24, appOptions{})
	mgr, err := tasks.NewManager(t.TempDir(), tasks.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mgr.Close() })
	a.m.cfg.Bridge.WatchTasks(mgr)
	if _, err := mgr.Spawn(tasks.Spec{Command: "seq 1 3", Background: true}); err != nil {
		t.Fatal(err)
	}
	a.shows("● task_1 seq 1 3 · completed in")
	screen := ansi.Strip(a.m.render())
	if !strings.Contains(screen, "· exit 0 · 3 lines") {
		t.Fatalf("the news line lacks its exit code or line count:\n%s", screen)
	}
	if strings.Contains(screen, "task-notification") {
		t.Fatalf("markup on screen:\n%s", screen)
	}
	drained := mgr.Drain()
	if len(drained) != 1 || !strings.HasPrefix(drained[0].Text, "<task-notification>") {
		t.Fatalf("the model's notification is not the structured block: %+v", drained)
	}
	a.send(eventsMsg{{Kind: agent.EventNotification, Text: drained[0].Text}, {Kind: agent.EventNotice, Text: "after"}})
	a.shows("after")
	if n := strings.Count(ansi.Strip(a.m.render()), "task_1"); n != 1 {
		t.Fatalf("the news is shown %d times:\n%s", n, ansi.Strip(a.m.render()))
	}
}

// After a resume, notifications in the history read as news, never as the
// person's messages.
func TestResumedNewsIsNotThePersonsMessage(t *testing.T) {
	block := "<task-notification>\n<task-id>task_4</task-id>\n<status>completed</status>\n<summary>Background command \"make &lt;x\" completed with exit code 0 after 2s.</summary>\n</task-notification>"
	a := newApp(t, `{"turns":[{"text":"hi"}]}`, 80, 24, appOptions{})
	a.m.replayHistory([]provider.Message{
		{Role: provider.RoleUser, Blocks: []provider.Block{provider.TextBlock(block), provider.TextBlock("what happened?")}},
	}, nil)
	a.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	screen := ansi.Strip(a.m.render())
	if strings.Contains(screen, "task-notification") || strings.Contains(screen, "<task-id>") {
		t.Fatalf("markup on screen:\n%s", screen)
	}
	if !strings.Contains(screen, `● task_4 · Background command "make <x" completed`) {
		t.Fatalf("the news is not a readable line:\n%s", screen)
	}
	if !strings.Contains(screen, "what happened?") {
		t.Fatalf("the person's prompt is gone:\n%s", screen)
	}
}

// /mode with a name that is no mode lists the modes.
func TestModeUnknownListsModes(t *testing.T) {
	a := newApp(t, `{"turns":[{"text":"hi"}]}`, 120, 24, appOptions{})
	a.exec(a.m.command("/mode foo"))
	a.shows("Unknown mode foo; the modes: default, acceptEdits, plan, bypassPermissions, dontAsk, auto")
}

// TestTasksKeepsFinishedTasks: a real background task that ends is still
// in /tasks afterwards, with how it ended, and stays there after the next
// prompt.
func TestTasksKeepsFinishedTasks(t *testing.T) {
	t.Parallel()
	a := newApp(t, `{"turns":[
	  {"text":"Building in the background.","tool_calls":[{"id":"b","name":"Bash","input":{"command":"echo built; exit 3","run_in_background":true}}]},
	  {"text":"It runs."},
	  {"text":"Noted."}]}`, 100, 30, appOptions{tasks: true, allow: []string{"Bash(echo:*)", "Bash(exit:*)"}})
	a.prompt("Build it")
	a.idle()
	a.shows("· exit 3")
	list := func() string {
		a.typeText("/tasks")
		a.key(tea.KeyEnter, 0)
		a.shows("Background tasks (")
		s := a.screen(t)
		return s[strings.LastIndex(s, "Background tasks ("):]
	}
	if l := list(); !strings.Contains(l, "task_1") || !strings.Contains(l, "failed (exit 3)") || !strings.Contains(l, "echo built; exit 3") {
		t.Fatalf("/tasks after the task ended:\n%s", l)
	}
	a.prompt("And now?")
	a.idle()
	if l := list(); !strings.Contains(l, "task_1") || !strings.Contains(l, "failed (exit 3)") {
		t.Fatalf("/tasks after the next prompt:\n%s", l)
	}
}

// TestTasksRowsKeepToOneLine: a long command in /tasks is cut to what its
// row leaves of the conversation (at 80 columns, beside no panel), not
// wrapped under the table's columns; beside the panel at 100 columns,
// where the row leaves too little, it has a line of its own under the row.
func TestTasksRowsKeepToOneLine(t *testing.T) {
	t.Parallel()
	script := `{"turns":[
	  {"text":"Counting.","tool_calls":[{"id":"b","name":"Bash","input":{"command":"echo one two three four five six seven eight nine ten","run_in_background":true}}]},
	  {"text":"It runs."}]}`
	t.Run("beside the panel", func(t *testing.T) {
		t.Parallel()
		a := newApp(t, script, 100, 30, appOptions{tasks: true, allow: []string{"Bash(echo:*)"}})
		a.prompt("Count")
		a.idle()
		a.shows("· exit 0")
		a.typeText("/tasks")
		a.key(tea.KeyEnter, 0)
		a.shows("Background tasks (")
		s := a.screen(t)
		if !strings.Contains(s, "completed (exit 0)") || !strings.Contains(s, "\n           echo one two three") {
			t.Errorf("the command is not on a line of its own under its row:\n%s", s)
		}
	})
	a := newApp(t, script, 80, 30, appOptions{tasks: true, allow: []string{"Bash(echo:*)"}})
	a.prompt("Count")
	a.idle()
	a.shows("· exit 0")
	a.typeText("/tasks")
	a.key(tea.KeyEnter, 0)
	a.shows("Background tasks (")
	lines := strings.Split(a.screen(t), "\n")
	for i, l := range lines {
		if !strings.Contains(l, "task_1 ") || !strings.Contains(l, "completed (exit 0)") {
			continue
		}
		if !strings.HasSuffix(strings.TrimRight(l, " "), "…") || !strings.Contains(l, "echo one two") {
			t.Errorf("the row is not cut to its line: %q", l)
		}
		if next := strings.TrimSpace(lines[i+1]); strings.Contains(next, "ten") {
			t.Errorf("the row wrapped onto the next line: %q", next)
		}
		return
	}
	t.Fatalf("no row for task_1:\n%s", strings.Join(lines, "\n"))
}
