package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/ptyview"
	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/ui/approval"
	"github.com/seed92b641c3/workbench/ui/format"
)

// resize lays the screen out again for a new terminal size.
func (m *Model) resize(w, h int) {
	m.width, m.height = w, h
	if !m.panelSet {
		m.showPanel = w >= panelMinTerminal
	}
}

func (m *Model) panelWidth() int {
	if (!m.showPanel && m.activeTab() == nil) || m.width < panelMinWidth {
		return 0
	}
	return max(30, int(float64(m.width)*panelShare))
}

// convMaxWidth caps how wide the conversation's text runs: past it, lines
// get too long to read on a wide terminal with the panel hidden.
const convMaxWidth = 140

func (m *Model) convWidth() int {
	if pw := m.panelWidth(); pw > 0 {
		return m.width - pw - 1
	}
	return m.width
}

// convHeight is what is left for the conversation after the input, the
// help line and the status line.
func (m *Model) convHeight() int {
	return max(1, m.height-m.inputHeight()-2)
}

// inputHeight is the input's height without drawing it: the editor, its
// top border, and the completion list.
func (m *Model) inputHeight() int {
	return m.input.ta.Height() + 1 + len(m.input.completions())
}

func (m *Model) layout() {
	if m.width == 0 {
		return
	}
	m.input.setSize(m.width, m.height)
	cw := min(m.convWidth(), convMaxWidth)
	if m.panelWidth() > 0 {
		cw-- // a blank column before the separator
	}
	m.conv.SetSize(max(cw, 1), m.convHeight())
	if pw := m.panelWidth(); pw > 0 {
		m.panel.SetSize(pw, m.convHeight()-1) // below the title bar
	}
	if t := m.activeTab(); t != nil {
		w, h := m.tabArea()
		t.setSize(max(w, 1), max(h, 1))
	}
}

// View renders the whole screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = m.mouseMode()
	v.WindowTitle = "workbench"
	return v
}

func (m *Model) render() string {
	if m.width == 0 || m.height == 0 {
		return ""
	}
	if m.fullTab() {
		if m.mcpAsk != nil {
			m.mcpAsk.shown(false, m.now())
		}
		t := m.activeTab()
		w, h := m.tabArea()
		body := lipgloss.NewStyle().Width(w).Height(h).MaxHeight(h).Render(t.render(w, h))
		return lipgloss.JoinVertical(lipgloss.Left, m.tabBar(m.width), body, m.helpLine(), m.statusLine())
	}
	top := lipgloss.NewStyle().Width(m.convWidth()).Height(m.convHeight()).MaxHeight(m.convHeight()).Render(m.conv.View())
	if m.panelWidth() > 0 {
		top = lipgloss.NewStyle().Width(m.convWidth()).Render(top)
	}
	if pw := m.panelWidth(); pw > 0 {
		sep := lipgloss.NewStyle().Foreground(theme.Subtle).Render(strings.Repeat("│\n", m.convHeight()-1) + "│")
		body := m.panel.View()
		if t := m.activeTab(); t != nil {
			w, h := m.tabArea()
			body = lipgloss.NewStyle().Width(w).Height(h).MaxHeight(h).Render(t.render(w, h))
		}
		right := lipgloss.JoinVertical(lipgloss.Left, m.tabBar(pw), body)
		top = lipgloss.JoinHorizontal(lipgloss.Top, top, sep, right)
	}
	screen := lipgloss.JoinVertical(lipgloss.Left, top, m.input.view(), m.helpLine(), m.statusLine())
	if m.mcpAsk != nil {
		// What the question lets the person answer depends on whether,
		// and since when, it has been on screen.
		m.mcpAsk.shown(m.approvals.Current() == nil && m.rewind == nil, m.now())
	}
	switch {
	case m.approvals.Current() != nil:
		screen = m.overlay(screen, m.approvals.Current().View(m.dialogWidth(), m.convHeight()))
	case m.rewind != nil:
		screen = m.overlay(screen, m.rewind.View(m.width-4, m.convHeight()))
	case m.mcpAsk != nil:
		screen = m.overlay(screen, m.mcpAsk.View(m.width-4, m.convHeight()))
	case m.showHelp:
		screen = m.overlay(screen, m.helpPage(m.dialogWidth(), m.convHeight()))
	}
	return screen
}

// dialogWidth is narrow enough to leave the screen around a dialog visible,
// and wide enough for a side-by-side diff when the terminal allows one.
func (m *Model) dialogWidth() int {
	w := min(m.width-4, 100)
	if d, ok := m.approvals.Current().(*approval.Dialog); ok {
		switch d.Request().Tool {
		case "Edit", "Write", "MultiEdit":
			w = min(m.width-4, 180)
		}
	}
	return max(w, 20)
}

func (m *Model) helpLine() string {
	if m.flash != "" && m.now().Sub(m.flashAt) < 5*quitWindow {
		return lipgloss.NewStyle().Foreground(theme.Warning).MaxWidth(m.width).Render(m.flash)
	}
	m.help.SetWidth(m.width)
	keys := m.keys.FocusHelp(m.modalOpen(), m.showHelp, m.paneFocus && m.activeTab() != nil)
	switch {
	case keys != nil:
	case len(m.input.completions()) > 0:
		keys = m.keys.CompleteHelp()
	case m.running:
		keys = m.keys.BusyHelp()
	case m.busy():
		keys = m.keys.DirectHelp()
	default:
		keys = m.keys.ShortHelp()
	}
	// The help model does not always keep within its width; cut what is
	// left so the screen never grows wider than the terminal.
	return ansi.Truncate(m.help.ShortHelpView(keys), m.width, "…")
}

// statusLine shows the mode, the model, tokens, what runs and what waits.
func (m *Model) statusLine() string {
	mode := string(m.cfg.Mode.Get())
	modeStyle := theme.Dim
	switch mode {
	case "acceptEdits":
		modeStyle = theme.Warn
	case "plan":
		modeStyle = lipgloss.NewStyle().Foreground(theme.Info)
	case "bypassPermissions":
		modeStyle = theme.Err
	}
	// What needs the person comes first, so a narrow terminal cuts the
	// model name before it cuts a pending approval.
	parts := []string{modeStyle.Render("⏵ " + mode)}
	if n := m.approvals.Len(); n > 0 {
		parts = append(parts, theme.Warn.Render(fmt.Sprintf("%d to approve", n)))
	}
	if m.running {
		parts = append(parts, theme.OK.Render(workingLine(m.now().Sub(m.started))))
	}
	if n := len(m.queued); n > 0 {
		parts = append(parts, theme.Warn.Render(fmt.Sprintf("%d queued", n)))
	}
	if m.cfg.Tasks != nil {
		running := 0
		for _, t := range m.cfg.Tasks.List() {
			if t.Running() {
				running++
			}
		}
		if running == 1 {
			parts = append(parts, theme.OK.Render("1 task running"))
		} else if running > 1 {
			parts = append(parts, theme.OK.Render(fmt.Sprintf("%d tasks running", running)))
		}
	}
	if t := m.activeTab(); t != nil && m.paneFocus {
		parts = append(parts, theme.KeyHint.Render("keys → "+t.id+" ("+ptyview.LeaveHint+")"))
	} else if len(m.tabs) > 0 {
		parts = append(parts, theme.Dim.Render("keys → input ("+ptyview.LeaveKey+" → pane)"))
	}
	if m.mouseOff {
		parts = append(parts, theme.Warn.Render("mouse off: drag selects ("+MouseKey+")"))
	}
	parts = append(parts, theme.Dim.Render(m.cfg.Agent.Provider()+"/"+m.cfg.Agent.Model()))
	if used, window := m.cfg.Agent.ContextUsed(); used > 0 && window > 0 {
		pct := 100 * used / window
		style := theme.Dim
		if pct >= contextWarnPercent {
			style = theme.Warn
		}
		parts = append(parts, style.Render(fmt.Sprintf("%d%% context", pct)))
	}
	tokens := m.usage.InputTokens + m.usage.CacheRead + m.usage.CacheWrite + m.usage.OutputTokens
	parts = append(parts, theme.Dim.Render(fmt.Sprintf("%s tokens", format.Count(tokens))))
	return fitParts(parts, m.width)
}

// fitParts joins the status line's parts with " · " in width cells. Parts
// that do not fit are left out whole from the end (the least needed come
// last), with "…" saying something was, so no part is cut in the middle
// ("· 0" for "0 tokens"); a first part too wide alone is cut.
func fitParts(parts []string, width int) string {
	sep := theme.Dim.Render(" · ")
	more := theme.Dim.Render(" …")
	line := strings.Join(parts, sep)
	for n := len(parts) - 1; n > 0 && lipgloss.Width(line) > width; n-- {
		line = strings.Join(parts[:n], sep) + more
	}
	return lipgloss.NewStyle().MaxWidth(width).Render(line)
}

// contextWarnPercent is the share of the context window from which the
// status line shows it as a warning: close to where automatic compaction
// starts by default.
const contextWarnPercent = 70

// workingLine is the status line's turn clock. It counts whole seconds
// (it is redrawn once a second), in the one duration format, and says
// only "working" in the first second rather than "0ms".
func workingLine(elapsed time.Duration) string {
	if elapsed < time.Second {
		return theme.SymbolRunning + " working"
	}
	return theme.SymbolRunning + " working " + format.Duration(elapsed.Truncate(time.Second))
}
