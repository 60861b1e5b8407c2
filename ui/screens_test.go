package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// screen draws the whole screen, checks that it is exactly the terminal's
// size (no line wider, no line more or less), and returns it without
// styles and trailing spaces, with the project's temporary path replaced by
// <project>, so goldens read as what a person sees and stay the same from
// run to run.
func (a *app) screen(t *testing.T) string {
	t.Helper()
	return plain(a.dir, a.raw(t))
}

// raw draws the screen with its styles, after the same size checks.
func (a *app) raw(t *testing.T) string {
	t.Helper()
	v := a.m.View()
	if !v.AltScreen {
		t.Error("the app does not use the alternate screen")
	}
	out := a.m.render()
	lines := strings.Split(out, "\n")
	if len(lines) != a.m.height {
		t.Errorf("the screen has %d lines, want the terminal's %d", len(lines), a.m.height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > a.m.width {
			t.Errorf("line %d is %d cells wide, more than the terminal's %d: %q", i+1, w, a.m.width, ansi.Strip(l))
		}
	}
	return out
}

func plain(dir, s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.ReplaceAll(strings.Join(lines, "\n"), dir, "<project>")
}

// snap compares the screen with testdata/<Test>/<case>/<name>.golden.
func (a *app) snap(t *testing.T, name string) {
	t.Helper()
	t.Run(name, func(t *testing.T) { golden.RequireEqual(t, a.screen(t)) })
}

// greetGo is the file the approval screens edit.
const greetGo = `package greet

import "fmt"

// Hello greets a person by name.
func Hello(name string) {
	fmt.Println("hello", name)
}
`

// toolsScript reads a file, runs a command the settings allow and one that
// fails, then answers.
const toolsScript = `{"turns":[
  {"text":"Reading the notes first.","tool_calls":[{"id":"read","name":"Read","input":{"file_path":"notes.md"}}]},
  {"text":"Now the build.","tool_calls":[{"id":"echo","name":"Bash","input":{"command":"echo built"}}]},
  {"tool_calls":[{"id":"false","name":"Bash","input":{"command":"false"}}]},
  {"text":"The notes say **ship it**; the build printed ` + "`built`" + ` and ` + "`false`" + ` failed, as it should."}
]}`

var toolsOptions = appOptions{
	allow: []string{"Bash(echo:*)", "Bash(false:*)"},
	files: map[string]string{"notes.md": "# Notes\n\nship it\n"},
}

func TestScreens(t *testing.T) {
	t.Parallel()

	t.Run("empty start", func(t *testing.T) {
		t.Parallel()
		a := newApp(t, `{"turns":[{"text":"hi"}]}`, 100, 30, appOptions{})
		a.snap(t, "screen")
	})

	t.Run("streamed answer", func(t *testing.T) {
		t.Parallel()
		feed := newFeedProvider()
		a := newApp(t, "", 100, 30, appOptions{provider: feed})
		a.prompt("What does the build do?")
		go feed.say(false, "The build has **three** steps", ", run by `make`:\n\n", "1. `go vet` checks the code.\n", "2. `go test -race` runs", " the tests.\n\n```go\nfunc main() {\n")
		a.shows("func main() {")
		a.snap(t, "while streaming")
		go feed.say(true, "\tfmt.Println(\"hello\")\n}\n```\n\nRun `make run` to start it.")
		a.idle()
		a.snap(t, "finished")
	})

	t.Run("tool calls in the panel", func(t *testing.T) {
		t.Parallel()
		a := newApp(t, toolsScript, 120, 32, toolsOptions)
		a.prompt("Read the notes and build")
		a.idle()
		a.snap(t, "screen")
	})

	t.Run("approval with a diff", func(t *testing.T) {
		t.Parallel()
		a := newApp(t, `{"turns":[
		  {"text":"The greeting lacks a comma; fixing it.","tool_calls":[{"id":"edit","name":"Edit","input":{
		    "file_path":"greet/greet.go","old_string":"\tfmt.Println(\"hello\", name)","new_string":"\tfmt.Printf(\"hello, %s!\\n\", name)"}}]},
		  {"text":"Fixed."}]}`, 100, 30, appOptions{files: map[string]string{"greet/greet.go": greetGo}})
		a.prompt("Fix the greeting")
		a.modal()
		a.snap(t, "screen")
		t.Run("coloured", func(t *testing.T) { golden.RequireEqual(t, a.raw(t)) })
		a.answer('y')
		a.idle()
		got, err := os.ReadFile(filepath.Join(a.dir, "greet", "greet.go"))
		if err != nil || !strings.Contains(string(got), `fmt.Printf("hello, %s!\n", name)`) {
			t.Errorf("the approved edit did not happen: %v\n%s", err, got)
		}
	})

	t.Run("queue of two approvals", func(t *testing.T) {
		t.Parallel()
		// Fetches run in parallel and each asks, so the second waits
		// behind the first. Their inputs are the same so the screen does
		// not depend on which asked first; both are denied, so nothing
		// reaches the network.
		a := newApp(t, `{"turns":[
		  {"text":"Fetching the page twice.","tool_calls":[
		    {"id":"f1","name":"WebFetch","input":{"url":"https://example.com/changelog","prompt":"what changed?"}},
		    {"id":"f2","name":"WebFetch","input":{"url":"https://example.com/changelog","prompt":"what changed?"}}]},
		  {"text":"Both were refused."}]}`, 100, 30, appOptions{web: true})
		a.prompt("What changed upstream?")
		a.until("two approvals wait", func() bool { return a.m.approvals.Len() == 2 })
		a.snap(t, "first of two")
		a.answer('n')
		a.key(tea.KeyEnter, 0)
		a.until("one approval waits", func() bool { return a.m.approvals.Len() == 1 })
		if s := a.screen(t); !strings.Contains(s, "WebFetch wants") || strings.Contains(s, "of 2") {
			t.Errorf("the second request is not shown alone after the first was answered:\n%s", s)
		}
		a.answer('n')
		a.key(tea.KeyEnter, 0)
		a.idle()
		if s := a.screen(t); !strings.Contains(s, "Both were refused.") {
			t.Errorf("the run did not go on after both were denied:\n%s", s)
		}
	})

	t.Run("narrow terminal", func(t *testing.T) {
		t.Parallel()
		a := newApp(t, toolsScript, 60, 20, toolsOptions)
		a.prompt("Read the notes and build")
		a.idle()
		if a.m.panelWidth() != 0 {
			t.Errorf("the panel shows at 60 columns (%d wide)", a.m.panelWidth())
		}
		a.snap(t, "screen")
	})
}
