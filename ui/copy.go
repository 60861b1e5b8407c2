package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/tasks"
)

// Copying. The terminal owns the clipboard; a program inside it asks for
// a copy with OSC 52, which works wherever the escape reaches a terminal
// that honours it: over SSH, and through tmux with set-clipboard on.
const (
	// CopyKey copies the selected tool call's output, the selected
	// thinking block or the agent's last answer.
	CopyKey = "ctrl+y"
	// MouseKey turns mouse reporting off, so the terminal's own selection
	// works with a plain drag, and on again. Most terminals also select
	// with Shift held while reporting is on.
	MouseKey = "f6"
)

// copySelection puts the text the copy key names on the clipboard and says
// what it copied.
func (m *Model) copySelection() tea.Cmd {
	text, what, ok := m.conv.CopyText()
	if !ok {
		m.say("Nothing to copy: select a tool call (ctrl+p / ctrl+n), or wait for an answer.")
		return nil
	}
	m.say("Copied " + what + " (" + tasks.HumanBytes(int64(len(text))) + ") to the clipboard with OSC 52 (inside tmux: set -g set-clipboard on).")
	return tea.SetClipboard(text)
}

// toggleMouse is MouseKey.
func (m *Model) toggleMouse() {
	m.mouseOff = !m.mouseOff
	if m.mouseOff {
		m.say("Mouse reporting is off: drag to select text, " + MouseKey + " turns it on again (the wheel scrolls then).")
	} else {
		m.say("Mouse reporting is on: the wheel scrolls; Shift+drag selects text in most terminals.")
	}
}

// mouseMode is what View asks the terminal for.
func (m *Model) mouseMode() tea.MouseMode {
	if m.mouseOff {
		return tea.MouseModeNone
	}
	return tea.MouseModeCellMotion
}
