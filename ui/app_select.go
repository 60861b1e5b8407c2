package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/ui/approval"
)

// panelMinWidth is the narrowest terminal the pipeline panel can share
// with the conversation (panelWidth).
const panelMinWidth = 60

// openSelected opens the selected call's spilled output in the viewer
// (Enter with the input empty, ctrl+v), or says why it cannot.
func (m *Model) openSelected() tea.Cmd {
	_, spill, ok := m.conv.Selected()
	switch {
	case ok && spill != nil:
		return m.openFile(spill.Path, spill)
	case ok:
		m.say("Only spilled output opens in the viewer; ctrl+o expands this call.")
	default:
		m.say("Select a tool call whose output was spilled (ctrl+p / ctrl+n) to view it.")
	}
	return nil
}

// togglePanel is ctrl+t and /trace: the pipeline panel on or off, and why
// it cannot show on a terminal too narrow for it.
func (m *Model) togglePanel() {
	m.showPanel, m.panelSet = !m.showPanel, true
	if m.showPanel && m.width < panelMinWidth && m.activeTab() == nil {
		m.say(fmt.Sprintf("The panel needs %d columns; this terminal has %d.", panelMinWidth, m.width))
	}
}

// scrollBehind scrolls the conversation behind an open dialog: Shift+PgUp
// and Shift+PgDn always, PgUp and PgDn when the dialog has nothing of its
// own to scroll. It reports whether the key was used.
func (m *Model) scrollBehind(k string) bool {
	base := strings.TrimPrefix(k, "shift+")
	if base != "pgup" && base != "pgdown" {
		return false
	}
	if d, ok := m.approvals.Current().(*approval.Dialog); ok && d.Scrolls() && base == k {
		return false // the dialog's own body pages
	}
	page := m.convHeight() - 2
	if base == "pgup" {
		page = -page
	}
	m.conv.ScrollBy(page)
	return true
}
