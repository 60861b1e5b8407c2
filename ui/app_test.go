package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/permission"
)

func TestPanelShowsFromAHundredColumns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		width int
		shown bool
	}{
		{200, true}, {140, true}, {100, true}, {99, false}, {80, false}, {60, false},
	} {
		a := newApp(t, `{"turns":[{"text":"hi"}]}`, tc.width, 24, appOptions{})
		if got := a.m.panelWidth() > 0; got != tc.shown {
			t.Errorf("at %d columns the panel shows: %v, want %v", tc.width, got, tc.shown)
		}
	}
}

func TestScreenFitsTheTerminalAtEveryWidth(t *testing.T) {
	t.Parallel()
	// Tool calls without Markdown: the lines that depend on the width
	// alone (input, help, status, panel) are what this checks.
	a := newApp(t, `{"turns":[
	  {"tool_calls":[{"id":"read","name":"Read","input":{"file_path":"notes.md"}}]},
	  {"tool_calls":[{"id":"echo","name":"Bash","input":{"command":"echo built"}}]}]}`, 120, 30, toolsOptions)
	a.prompt("Read the notes and build")
	a.idle()
	var wide []string
	for w := 30; w <= 160; w++ {
		a.send(tea.WindowSizeMsg{Width: w, Height: 24})
		lines := strings.Split(a.m.render(), "\n")
		if len(lines) != 24 {
			t.Errorf("at %d columns the screen has %d lines, want 24", w, len(lines))
		}
		for i, l := range lines {
			if lw := ansi.StringWidth(l); lw > w {
				wide = append(wide, fmt.Sprintf("%d (line %d is %d wide)", w, i+1, lw))
				break
			}
		}
	}
	if len(wide) > 0 {
		t.Errorf("the screen is wider than the terminal at %d widths: %s", len(wide), strings.Join(wide, ", "))
	}
}

func TestResizingHidesAndShowsThePanel(t *testing.T) {
	t.Parallel()
	a := newApp(t, `{"turns":[{"text":"hi"}]}`, 140, 40, appOptions{})
	for _, step := range []struct {
		width, height int
		shown         bool
	}{
		{70, 24, false}, {140, 40, true}, {99, 30, false}, {100, 30, true},
	} {
		a.send(tea.WindowSizeMsg{Width: step.width, Height: step.height})
		if got := a.m.panelWidth() > 0; got != step.shown {
			t.Errorf("after a resize to %dx%d the panel shows: %v, want %v", step.width, step.height, got, step.shown)
		}
		a.raw(t)
	}
}

func TestCtrlTKeepsThePanelAsThePersonSetIt(t *testing.T) {
	t.Parallel()
	a := newApp(t, `{"turns":[{"text":"hi"}]}`, 140, 40, appOptions{})
	a.key('t', tea.ModCtrl)
	if a.m.panelWidth() != 0 {
		t.Fatal("ctrl+t did not hide the panel")
	}
	a.send(tea.WindowSizeMsg{Width: 160, Height: 40})
	if a.m.panelWidth() != 0 {
		t.Error("a resize brought back the panel the person hid")
	}
}

// touchScript asks to run `touch a`, then `touch b`: one grant for the
// session covers both.
const touchScript = `{"turns":[
  {"text":"Creating a.","tool_calls":[{"id":"ta","name":"Bash","input":{"command":"touch a"}}]},
  {"text":"Creating b.","tool_calls":[{"id":"tb","name":"Bash","input":{"command":"touch b"}}]},
  {"text":"Both exist."}]}`

func TestYesForThisSessionCoversTheNextCallWithTheSameCommand(t *testing.T) {
	t.Parallel()
	a := newApp(t, touchScript, 120, 30, appOptions{})
	a.prompt("make two files")
	a.modal()
	if s := a.screen(t); !strings.Contains(s, "Bash(touch:*)") {
		t.Fatalf("the dialog does not name the session scope Bash(touch:*):\n%s", s)
	}
	a.answer('s')
	asked := 0
	a.until("the run ends", func() bool {
		if a.m.modalOpen() {
			asked++
			a.answer('n')
		}
		return !a.m.running && a.runsEnded == a.runsStarted
	})
	if asked > 0 {
		t.Errorf("touch b was asked again after Yes for this session")
	}
	for _, f := range []string{"a", "b"} {
		if _, err := os.Stat(filepath.Join(a.dir, f)); err != nil {
			t.Errorf("touch %s did not run: %v", f, err)
		}
	}
	if s := a.screen(t); !strings.Contains(s, "✓ Bash(touch a)") || !strings.Contains(s, "✓ Bash(touch b)") || !strings.Contains(s, "Both exist.") {
		t.Errorf("the results are not in the conversation:\n%s", s)
	}
}

func TestKeysTypedAsTheDialogOpensAreIgnored(t *testing.T) {
	t.Parallel()
	a := newApp(t, touchScript, 120, 30, appOptions{})
	a.prompt("make two files")
	a.modal()
	a.typeText("y")
	if !a.m.modalOpen() {
		t.Fatal("a key pressed as the dialog opened approved the call")
	}
	a.answer('y')
	if a.m.modalOpen() {
		t.Error("y after the grace period did not answer the dialog")
	}
}

func TestToolLineShowsTheWaitForApproval(t *testing.T) {
	t.Parallel()
	a := newApp(t, touchScript, 120, 30, appOptions{})
	a.prompt("make two files")
	a.modal()
	// The conversation, left of the panel and above the dialog.
	if v := plain(a.dir, a.m.conv.View()); !strings.Contains(v, "? Bash(touch a)") {
		t.Errorf("the call waiting for approval is not marked ? in the conversation:\n%s", v)
	}
}

func TestToolDurationIsTheCallsNotTheWaitForApproval(t *testing.T) {
	t.Parallel()
	a := newApp(t, touchScript, 120, 30, appOptions{})
	a.prompt("make two files")
	a.modal()
	a.answer('y') // a second passes on the clock while the person reads
	a.until("touch a is done", func() bool {
		return strings.Contains(plain(a.dir, a.m.conv.View()), "✓ Bash(touch a)")
	})
	// The call stage took 1.2 ms (see steady).
	if v := plain(a.dir, a.m.conv.View()); !strings.Contains(v, "✓ Bash(touch a) 1ms") {
		t.Errorf("the call's duration should be the call stage's 1ms, not the time the dialog was open:\n%s", v)
	}
}

func TestCtrlCTwiceQuitsAndReleasesTheAgent(t *testing.T) {
	t.Parallel()
	a := newApp(t, `{"turns":[{"text":"hi"}]}`, 100, 30, appOptions{})
	_, first := a.m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if isQuit(first) {
		t.Fatal("one Ctrl-C quit")
	}
	if s := a.screen(t); !strings.Contains(s, "Press Ctrl-C again to quit") {
		t.Errorf("the first Ctrl-C does not say how to quit:\n%s", s)
	}
	_, second := a.m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if !isQuit(second) {
		t.Fatal("a second Ctrl-C did not quit")
	}
	select {
	case <-a.m.cfg.Bridge.quit:
	default:
		t.Error("quitting left the bridge open: an agent goroutine could wait for a screen that is gone")
	}
}

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

func TestCompat9_ModeCommandRefusesADisabledBypass(t *testing.T) {
	a := newApp(t, `{"turns":[{"text":"hi"}]}`, 120, 30, appOptions{})
	a.m.cfg.RefuseMode = func(m permission.Mode) string {
		if m == permission.ModeBypass {
			return "bypassPermissions is disabled by permissions.disableBypassPermissionsMode in /x/settings.json"
		}
		return ""
	}
	a.typeText("/mode bypassPermissions")
	a.key(tea.KeyEnter, 0)
	a.shows("bypassPermissions is disabled by permissions.disableBypassPermissionsMode")
	if got := a.m.cfg.Mode.Get(); got != permission.ModeDefault {
		t.Fatalf("mode = %s after a refused /mode bypassPermissions", got)
	}
	a.typeText("/mode plan")
	a.key(tea.KeyEnter, 0)
	a.shows("Permission mode: plan")
}
