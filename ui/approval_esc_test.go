package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/agent/provider"
)

// toolResults are the tool results the session's history holds, in order.
func toolResults(a *app) []string {
	var out []string
	for _, m := range a.m.cfg.Agent.History() {
		for _, b := range m.Blocks {
			if b.Type == provider.BlockToolResult {
				out = append(out, b.Content)
			}
		}
	}
	return out
}

// Esc in the approval dialog, at 80 columns, denies the call and stops the
// turn, as at Claude Code's permission prompt: the call does not run, the
// model's history holds the denial (not "cancelled"), the model is not
// asked for another turn, and what the person types next goes to the
// input. The hint line says what Esc does.
func TestEscInTheApprovalDialogDeniesAndStopsTheTurn(t *testing.T) {
	t.Parallel()
	a := newApp(t, touchScript, 80, 30, appOptions{})
	a.prompt("make two files")
	a.modal()
	a.snap(t, "dialog")
	if s := a.screen(t); !strings.Contains(s, "esc deny, stop") {
		t.Errorf("the dialog's hint line does not say that Esc stops the turn:\n%s", s)
	}
	a.clock.advance(pastGrace)
	a.key(tea.KeyEscape, 0)
	if a.m.modalOpen() {
		t.Fatal("the dialog is still open after Esc")
	}
	a.idle()
	s := a.screen(t)
	if strings.Contains(s, "Creating b.") || a.m.modalOpen() {
		t.Errorf("the turn went on after Esc:\n%s", s)
	}
	if !strings.Contains(s, "You denied it and stopped the turn") || strings.Contains(s, "your turn") {
		t.Errorf("the denied call shows the model's instructions, not what the person did:\n%s", s)
	}
	if !strings.Contains(s, "Denied; the turn stops.") {
		t.Errorf("the screen does not say what Esc did:\n%s", s)
	}
	if _, err := os.Stat(filepath.Join(a.dir, "a")); err == nil {
		t.Error("the denied call ran")
	}
	res := toolResults(a)
	if len(res) != 1 || !strings.Contains(res[0], "declined this tool call and stopped your turn") {
		t.Errorf("the model's history has the results %q, want the denial that stops the turn", res)
	}
	a.typeText("use make clean")
	if !strings.Contains(a.screen(t), "› use make clean") {
		t.Errorf("the keys typed after Esc did not reach the input:\n%s", a.screen(t))
	}
}

// "No" (n, then Enter on the feedback line) denies the call and lets the
// turn go on: the model hears the denial and asks for the next call.
func TestNoInTheApprovalDialogDeniesAndGoesOn(t *testing.T) {
	t.Parallel()
	a := newApp(t, touchScript, 80, 30, appOptions{})
	a.prompt("make two files")
	a.modal()
	a.answer('n')
	a.key(tea.KeyEnter, 0)
	a.shows("Creating b.")
	a.modal()
	if _, err := os.Stat(filepath.Join(a.dir, "a")); err == nil {
		t.Error("the denied call ran")
	}
	if s := a.screen(t); !strings.Contains(s, "You denied it; the agent goes on.") || strings.Contains(s, "The person declined") {
		t.Errorf("the denied call does not say what the person did, in their words:\n%s", s)
	}
	a.clock.advance(pastGrace)
	a.key(tea.KeyEscape, 0)
	a.idle()
	if res := toolResults(a); len(res) != 2 || !strings.Contains(res[0], "The person declined this tool call.") || strings.Contains(res[0], "stopped") {
		t.Errorf("the model's history has the results %q", res)
	}
}

// "No" with a word for the agent shows the person what they said, in
// their words; the model reads "The person declined ... They said: ...".
func TestNoWithFeedbackShowsWhatThePersonSaid(t *testing.T) {
	t.Parallel()
	a := newApp(t, touchScript, 80, 30, appOptions{})
	a.prompt("make two files")
	a.modal()
	a.answer('n')
	a.typeText("use printf")
	a.key(tea.KeyEnter, 0)
	a.shows("Creating b.")
	if s := a.screen(t); !strings.Contains(s, "You denied it and told the agent: use printf") {
		t.Errorf("the denied call does not show what the person said:\n%s", s)
	}
	if res := toolResults(a); len(res) != 1 || !strings.Contains(res[0], "They said: use printf") {
		t.Errorf("the model's history has the results %q", res)
	}
}
