package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/ui/approval"
)

// Layout of the help page.
const (
	// helpGap is the space between two columns of keys.
	helpGap = 2
	// helpFrame is what the border and padding take of the page's width.
	helpFrame = 4
)

// helpPage draws the help page (F1, /help) within width × height cells:
// every key in as many columns as fit (wrapping into rows, never cutting
// one), the commands, and how to leave. A page taller than height scrolls
// with ↑/↓ and PgUp/PgDn (helpScroll).
func (m *Model) helpPage(width, height int) string {
	inner := max(16, width-helpFrame)
	lines := m.helpLines(inner)
	avail := max(1, height-2)
	if len(lines) > avail {
		top := min(max(0, m.helpScroll), len(lines)-(avail-1))
		end := top + avail - 1
		pos := theme.Dim.Render(fmt.Sprintf("lines %d–%d of %d · ↑/↓ scroll", top+1, end, len(lines)))
		lines = append(append([]string(nil), lines[top:end]...), pos)
	}
	return theme.Border.Padding(0, 1).Width(inner + helpFrame).Render(strings.Join(lines, "\n"))
}

// helpKey scrolls the help page; it reports whether the key was one.
func (m *Model) helpKey(k string) bool {
	step := map[string]int{"up": -1, "down": 1, "pgup": -(m.height / 2), "pgdown": m.height / 2}[k]
	if step == 0 {
		return false
	}
	n := len(m.helpLines(max(16, m.dialogWidth()-helpFrame)))
	m.helpScroll = min(max(0, m.helpScroll+step), max(0, n-(m.convHeight()-3)))
	return true
}

// helpLines are the help page's lines for a page width inner wide.
func (m *Model) helpLines(inner int) []string {
	lines := []string{theme.Title.Render("Keys")}
	lines = append(lines, keyGrid(m.keys.FullHelp(), inner)...)
	lines = append(lines, "", theme.Title.Render("Approval dialog"))
	lines = append(lines, keyGrid(append(approval.HelpKeys(), m.keys.FocusHelp(true, false, false)[0]), inner)...)
	lines = append(lines, "", theme.Title.Render("Commands"))
	var names []string
	for _, c := range slashCommands {
		names = append(names, c.name)
	}
	lines = append(lines, wrapWords(names, inner, theme.KeyHint)...)
	if custom := m.customHelp(); len(custom) > 0 {
		lines = append(lines, "", theme.Title.Render("Your commands"))
		for _, c := range custom {
			lines = append(lines, ansi.Truncate(c, inner, "…"))
		}
	}
	return append(lines, wrapWords(strings.Fields("Type / to see what each does. !command runs your own shell command. Esc or F1 closes this page."), inner, theme.Dim)...)
}

// keyGrid lays bindings out in the most columns that fit width, filled
// down then across; in each column the keys line up.
func keyGrid(bs []key.Binding, width int) []string {
	for cols := len(bs); cols > 1; cols-- {
		if g, ok := grid(bs, cols, width); ok {
			return g
		}
	}
	g, _ := grid(bs, 1, width)
	return g
}

// grid arranges bindings in cols columns, or reports that they do not fit.
func grid(bs []key.Binding, cols, width int) ([]string, bool) {
	rows := (len(bs) + cols - 1) / cols
	keyW, cellW := make([]int, cols), make([]int, cols)
	for i, b := range bs {
		keyW[i/rows] = max(keyW[i/rows], lipgloss.Width(b.Help().Key))
	}
	for i, b := range bs {
		c := i / rows
		cellW[c] = max(cellW[c], keyW[c]+1+lipgloss.Width(b.Help().Desc))
	}
	total := (cols - 1) * helpGap
	for _, w := range cellW {
		total += w
	}
	if total > width && cols > 1 {
		return nil, false
	}
	out := make([]string, rows)
	for i, b := range bs {
		r, c := i%rows, i/rows
		if c > 0 {
			out[r] += strings.Repeat(" ", helpGap)
		}
		k, d := b.Help().Key, b.Help().Desc
		cell := theme.KeyHint.Render(k+strings.Repeat(" ", keyW[c]-lipgloss.Width(k))) + " " + theme.Dim.Render(d)
		if c < cols-1 && i+rows < len(bs) {
			cell += strings.Repeat(" ", cellW[c]-keyW[c]-1-lipgloss.Width(d))
		}
		out[r] += cell
	}
	return out, true
}

// wrapWords flows words into lines no wider than width.
func wrapWords(words []string, width int, style lipgloss.Style) []string {
	var lines []string
	cur := ""
	for _, w := range words {
		if cur != "" && lipgloss.Width(cur)+1+lipgloss.Width(w) > width {
			lines = append(lines, style.Render(cur))
			cur = ""
		}
		if cur != "" {
			cur += " "
		}
		cur += w
	}
	if cur != "" {
		lines = append(lines, style.Render(cur))
	}
	return lines
}
