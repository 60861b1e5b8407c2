package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/rewind"
)

// withCheckpoints gives a test session what session.Open gives a real one:
// a transcript, and a checkpoint store whose checkpoints are taken before
// each prompt, after its run and before each call that can change files,
// stamped with the test's clock.
func withCheckpoints(t testing.TB, dir string, clock *testClock, p *agent.Pipeline, cfg *agent.Config) *rewind.Store {
	t.Helper()
	state := t.TempDir()
	tr, err := agent.OpenTranscript(filepath.Join(state, "transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	store, err := rewind.Open(rewind.Options{Dir: filepath.Join(state, "rewind"), WorkTree: dir, Now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		store.Close()
		tr.Close()
	})
	cfg.Transcript = tr
	cfg.BeforePrompt = func(ctx context.Context, text string) int {
		c, err := store.BeginPrompt(ctx, text)
		if err != nil {
			t.Error(err)
			return 0
		}
		return c.Prompt
	}
	cfg.AfterPrompt = func(ctx context.Context) {
		if _, err := store.EndPrompt(ctx); err != nil {
			t.Error(err)
		}
	}
	p.BeforeCall = func(ctx context.Context, c agent.Call) {
		if _, err := store.BeforeCall(ctx, c.Name, c.ID, ""); err != nil {
			t.Error(err)
		}
	}
	return store
}

// twoPrompts writes a plan, then rewrites it, drops the notes and adds a
// todo file: the second prompt's Bash changes a file, deletes one and
// creates one.
const twoPrompts = `{"turns":[
  {"text":"Writing the plan.","tool_calls":[{"id":"w","name":"Bash","input":{"command":"printf 'plan v1\\n' > plan.md"}}]},
  {"text":"The plan is written."},
  {"text":"Rewriting it.","tool_calls":[{"id":"r","name":"Bash","input":{"command":"printf 'plan v2\\n' > plan.md && rm notes.md && printf 'todo\\n' > todo.md"}}]},
  {"text":"Rewritten; the notes are gone and the todo list is new."}]}`

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func missing(dir, name string) bool {
	_, err := os.Lstat(filepath.Join(dir, name))
	return os.IsNotExist(err)
}

// /rewind lists the prompts with their time and files; the person chooses
// the code and the conversation; a file they changed after the last
// checkpoint is shown and the restore asks; the report names every file
// changed back; /rewind undo takes it all back. At 80 and 120 columns.
func TestRewindDialog(t *testing.T) {
	t.Parallel()
	for _, size := range []struct {
		name string
		w, h int
	}{{"80 columns", 80, 30}, {"120 columns", 120, 34}} {
		t.Run(size.name, func(t *testing.T) {
			t.Parallel()
			a := newApp(t, twoPrompts, size.w, size.h, appOptions{
				checkpoints: true, allow: []string{"Bash"},
				files: map[string]string{"notes.md": "notes\n"},
			})
			a.prompt("Write the plan")
			a.idle()
			a.prompt("Rewrite the plan and drop the notes")
			a.idle()
			if got := readFile(t, a.dir, "plan.md"); got != "plan v2\n" || !missing(a.dir, "notes.md") {
				t.Fatalf("the second prompt did not run: plan.md %q", got)
			}
			// The person's own change, after the last checkpoint.
			if err := os.WriteFile(filepath.Join(a.dir, "mine.txt"), []byte("mine\n"), 0o644); err != nil {
				t.Fatal(err)
			}

			a.typeText("/rewind")
			a.key(tea.KeyEnter, 0)
			a.until("the rewind dialog opens", func() bool { return a.m.rewind != nil })
			a.snap(t, "list")
			a.key(tea.KeyEnter, 0)
			a.snap(t, "what to restore")
			a.key(tea.KeyEnter, 0)
			a.snap(t, "confirm over changed files")
			if missing(a.dir, "todo.md") || readFile(t, a.dir, "plan.md") != "plan v2\n" {
				t.Fatal("files changed before the person answered")
			}
			a.send(tea.KeyPressMsg{Code: 'y', Text: "y"})
			a.shows("Rewound the conversation")
			a.snap(t, "report")

			if got := readFile(t, a.dir, "plan.md"); got != "plan v1\n" {
				t.Errorf("plan.md is %q, want plan v1", got)
			}
			if got := readFile(t, a.dir, "notes.md"); got != "notes\n" {
				t.Errorf("notes.md is %q, want it recreated", got)
			}
			if !missing(a.dir, "todo.md") || !missing(a.dir, "mine.txt") {
				t.Error("todo.md or mine.txt is still there")
			}
			if got := a.m.input.value(); got != "Rewrite the plan and drop the notes" {
				t.Errorf("the input holds %q, want the second prompt to edit", got)
			}
			if got := userTexts(a.m.cfg.Agent.History()); got != "Write the plan" {
				t.Errorf("the conversation holds the prompts %q, want only the first", got)
			}

			a.m.input.reset()
			a.typeText("/rewind undo")
			a.key(tea.KeyEnter, 0)
			a.shows("Undid the latest rewind")
			if got := readFile(t, a.dir, "plan.md"); got != "plan v2\n" || readFile(t, a.dir, "mine.txt") != "mine\n" || !missing(a.dir, "notes.md") || readFile(t, a.dir, "todo.md") != "todo\n" {
				t.Errorf("undo did not bring the files back: plan.md %q", got)
			}
		})
	}
}

// Choosing the conversation only leaves the files, even the person's own,
// and asks nothing; Esc closes the dialog without a change.
func TestRewindConversationOnlyLeavesTheFiles(t *testing.T) {
	t.Parallel()
	a := newApp(t, twoPrompts, 100, 30, appOptions{
		checkpoints: true, allow: []string{"Bash"},
		files: map[string]string{"notes.md": "notes\n"},
	})
	a.prompt("Write the plan")
	a.idle()
	a.prompt("Rewrite the plan and drop the notes")
	a.idle()
	os.WriteFile(filepath.Join(a.dir, "mine.txt"), []byte("mine\n"), 0o644)
	open := func() {
		a.typeText("/rewind")
		a.key(tea.KeyEnter, 0)
		a.until("the rewind dialog opens", func() bool { return a.m.rewind != nil })
	}
	open()
	if s := a.screen(t); !strings.Contains(s, "A mine.txt") || !strings.Contains(s, "D notes.md") {
		t.Errorf("the list does not show the person's file and the prompt's deletion:\n%s", s)
	}
	a.key(tea.KeyEscape, 0)
	if a.m.rewind != nil || readFile(t, a.dir, "plan.md") != "plan v2\n" {
		t.Fatal("Esc did not close the dialog, or a file changed")
	}
	open()
	a.key(tea.KeyDown, 0) // the first prompt
	a.key(tea.KeyEnter, 0)
	a.send(tea.KeyPressMsg{Code: '2', Text: "2"})
	a.shows("Rewound the conversation to before prompt 1")
	if readFile(t, a.dir, "plan.md") != "plan v2\n" || readFile(t, a.dir, "mine.txt") != "mine\n" {
		t.Error("a conversation-only rewind changed files")
	}
	if got := userTexts(a.m.cfg.Agent.History()); got != "" {
		t.Errorf("the conversation still holds %q", got)
	}
	if got := a.m.input.value(); got != "Write the plan" {
		t.Errorf("the input holds %q", got)
	}
}

// userTexts joins the person's prompts of a history.
func userTexts(h []provider.Message) string {
	var out []string
	for _, m := range h {
		if m.Role != provider.RoleUser {
			continue
		}
		for _, b := range m.Blocks {
			if b.Type == provider.BlockText && b.Text != "" && !isNews(b.Text) {
				out = append(out, b.Text)
			}
		}
	}
	return strings.Join(out, "|")
}

// No rewind runs while the agent works: the files and the conversation
// would change under its calls.
func TestRewindWaitsForTheAgent(t *testing.T) {
	t.Parallel()
	feed := newFeedProvider()
	a := newApp(t, "", 100, 30, appOptions{provider: feed, checkpoints: true})
	a.prompt("What does the build do?")
	go feed.say(false, "Looking")
	a.shows("Looking")
	a.typeText("/rewind")
	a.key(tea.KeyEnter, 0)
	a.shows("Interrupt the agent first (Esc), then /rewind.")
	if a.m.rewind != nil {
		t.Error("the rewind dialog opened while the agent works")
	}
	go feed.say(true, " done.")
	a.idle()
}
