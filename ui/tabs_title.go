package ui

import (
	"charm.land/lipgloss/v2"

	"github.com/seed92b641c3/workbench/ui/safetext"
)

// tabTitleMax is how many columns of a program's window title the tab bar
// shows: enough to tell "vim main.go" from "htop", short enough to leave
// room for the other tabs.
const tabTitleMax = 32

// tabTitle is a title a program set with OSC 0 or 2 as the tab bar shows
// it: bidi controls and zero-width characters as marked escapes
// (<U+202E> in reverse video), so a title cannot reorder or hide what the
// tab bar says, cut to tabTitleMax columns with "…". The pane has already
// dropped control characters.
func tabTitle(title string) string {
	width, cut := 0, len(title)
	for i, r := range title {
		w := lipgloss.Width(safetext.Escape(string(r)))
		if width+w > tabTitleMax-1 && i+len(string(r)) < len(title) {
			cut = i
			break
		}
		width += w
	}
	if cut < len(title) {
		return safetext.Mark(title[:cut]) + "…"
	}
	return safetext.Mark(title)
}
