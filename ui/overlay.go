package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// overlay draws a dialog centred over the conversation area, keeping the
// screen around it visible. Nothing the dialog cuts is left as fragments at
// its edges: on each of its rows, the part of a column (the conversation,
// the panel) the dialog covers any text of is blanked whole, so what shows
// beside the dialog is whole lines of another column or nothing.
func (m *Model) overlay(screen, dialog string) string {
	lines := strings.Split(screen, "\n")
	dlines := strings.Split(dialog, "\n")
	dw := lipgloss.Width(dialog)
	// Centred on the conversation when it fits there, so the panel's live
	// trace of the call being asked about stays visible.
	x := max(0, (m.width-dw)/2)
	if cw := m.convWidth(); dw <= cw {
		x = (cw - dw) / 2
	}
	sep := -1 // the column of the separator before the panel, if shown
	if m.panelWidth() > 0 && !m.fullTab() {
		sep = m.convWidth()
	}
	y := max(0, (m.convHeight()-len(dlines))/2)
	for i, dl := range dlines {
		row := y + i
		if row >= len(lines) {
			break
		}
		lines[row] = overlayRow(lines[row], dl, x, m.width, sep)
	}
	return strings.Join(lines, "\n")
}

// overlayRow puts one dialog line over a screen line at column x, with a
// blank column on each side; sep is the column separating the conversation
// from the panel, or -1.
func overlayRow(base, dl string, x, width, sep int) string {
	dEnd := x + ansi.StringWidth(dl)
	cells := plainCells(ansi.Strip(base))
	for len(cells) < width {
		cells = append(cells, ' ')
	}
	hideFrom, hideTo := max(0, x-1), min(len(cells), dEnd+1)
	spans := [][2]int{{0, len(cells)}}
	if sep >= 0 && sep < len(cells) {
		spans = [][2]int{{0, sep}, {sep + 1, len(cells)}}
	}
	blank := make([]bool, len(cells))
	for _, sp := range spans {
		if hiddenText(cells, max(sp[0], hideFrom), min(sp[1], hideTo)) {
			for i := sp[0]; i < sp[1]; i++ {
				blank[i] = true
			}
		}
	}
	leftEnd := hideFrom
	for i := 0; i < hideFrom; i++ {
		if blank[i] {
			leftEnd = i
			break
		}
	}
	left := ansi.Truncate(base, leftEnd, "")
	left += strings.Repeat(" ", max(0, x-ansi.StringWidth(left)))
	rightStart := hideTo
	for rightStart < len(cells) && blank[rightStart] {
		rightStart++
	}
	rightEnd := rightStart
	for rightEnd < len(cells) && !blank[rightEnd] {
		rightEnd++
	}
	right := ""
	if rightStart < rightEnd && rightStart < ansi.StringWidth(base) {
		right = ansi.Truncate(ansi.TruncateLeft(base, rightStart, ""), rightEnd-rightStart, "")
	}
	if right != "" {
		right = strings.Repeat(" ", rightStart-dEnd) + right
	} else if dEnd < width {
		right = " "
	}
	return left + "\x1b[0m" + dl + "\x1b[0m" + right
}

// plainCells is a line as one rune per terminal cell; the second cell of a
// wide character holds 0.
func plainCells(s string) []rune {
	var cells []rune
	for _, r := range s {
		w := ansi.StringWidth(string(r))
		if w == 0 {
			continue // a combining mark shares its base's cell
		}
		cells = append(cells, r)
		for range w - 1 {
			cells = append(cells, 0)
		}
	}
	return cells
}

// hiddenText reports whether any of cells [from, to) holds text.
func hiddenText(cells []rune, from, to int) bool {
	for i := from; i < to && i < len(cells); i++ {
		if i >= 0 && cells[i] != ' ' {
			return true
		}
	}
	return false
}
