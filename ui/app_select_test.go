package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// spillScript runs a command whose output is spilled, then two small ones.
const spillScript = `{"turns":[
  {"text":"Counting.","tool_calls":[{"id":"big","name":"Bash","input":{"command":"seq 1 20000"}}]},
  {"text":"Two more.","tool_calls":[{"id":"s1","name":"Bash","input":{"command":"echo one"}}]},
  {"tool_calls":[{"id":"s2","name":"Bash","input":{"command":"echo two"}}]},
  {"text":"Done."}]}`

// The first ctrl+p selects the newest call even when the conversation is
// scrolled up; Enter on a selected call with spilled output opens it in
// the viewer, as the hint under the call says.
func TestCtrlPStartsFromTheNewestAndEnterOpensTheSpill(t *testing.T) {
	t.Parallel()
	a := newApp(t, spillScript, 80, 24, appOptions{allow: []string{"Bash(seq:*)", "Bash(echo:*)"}})
	a.prompt("count")
	a.idle()
	for range 5 {
		a.key(tea.KeyPgUp, 0)
	}
	a.send(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl})
	if id, _, ok := a.m.conv.Selected(); !ok || id != "s2" {
		t.Fatalf("the first ctrl+p selected %q, want the newest call s2", id)
	}
	a.send(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl})
	a.send(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl})
	if id, _, _ := a.m.conv.Selected(); id != "big" {
		t.Fatalf("two more ctrl+p selected %q, want big", id)
	}
	if s := plain(a.dir, a.m.conv.View()); !strings.Contains(s, "(enter to open)") {
		t.Errorf("the spilled call does not say Enter opens it:\n%s", s)
	}
	a.key(tea.KeyEnter, 0)
	a.until("the viewer opens", func() bool { return a.m.activeTab() != nil && a.m.activeTab().view != nil })
	s := a.screen(t)
	if !strings.Contains(s, "call big") {
		t.Errorf("the viewer does not show the call's spill:\n%s", s)
	}
	// The hint line follows the keyboard into the viewer.
	if !strings.Contains(s, "ctrl+] back to the input") || strings.Contains(s, "enter send") {
		t.Errorf("the hint line still names the input's keys:\n%s", s)
	}
	if a.runsStarted != 1 {
		t.Errorf("Enter sent a prompt")
	}
}

// Enter on a call whose output was not spilled says why nothing opens.
func TestEnterOnACallWithoutSpillSaysSo(t *testing.T) {
	t.Parallel()
	a := newApp(t, spillScript, 80, 24, appOptions{allow: []string{"Bash(seq:*)", "Bash(echo:*)"}})
	a.prompt("count")
	a.idle()
	a.send(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl})
	a.key(tea.KeyEnter, 0)
	if s := a.screen(t); !strings.Contains(s, "Only spilled output opens in the viewer") {
		t.Errorf("no word on why Enter opened nothing:\n%s", s)
	}
}

// /trace on a terminal too narrow for the panel says why it does not show.
func TestTraceTooNarrowSaysWhy(t *testing.T) {
	t.Parallel()
	a := newApp(t, `{"turns":[{"text":"hi"}]}`, 59, 20, appOptions{})
	a.typeText("/trace")
	a.key(tea.KeyEnter, 0)
	a.snap(t, "59 columns")
	if s := a.screen(t); !strings.Contains(s, "The panel needs 60 columns; this terminal has 59.") {
		t.Errorf("/trace at 59 columns does not say why:\n%s", s)
	}
}
