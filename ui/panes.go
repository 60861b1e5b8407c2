package ui

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/ptyview"
	"github.com/seed92b641c3/workbench/tasks"
	"github.com/seed92b641c3/workbench/tasks/pty"
	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/ui/safetext"
	"github.com/seed92b641c3/workbench/ui/viewer"
)

// tab is one thing the right-hand column can show besides the pipeline
// panel: a terminal pane, a task's output, or the file viewer.
type tab struct {
	id   string
	term *ptyview.Pane
	file *ptyview.FilePane
	view *viewer.Viewer
}

func (t *tab) title() string {
	switch {
	case t.term != nil:
		if pt := tabTitle(t.term.ProgramTitle()); pt != "" {
			return t.id + " " + pt + " · " + t.term.Status()
		}
		return t.id + " " + t.term.Status()
	case t.file != nil:
		return t.id + " " + t.file.Status()
	default:
		return safetext.Mark(t.id) // a viewer's tab names its file
	}
}

func (t *tab) setSize(w, h int) {
	switch {
	case t.term != nil:
		t.term.SetSize(w, h)
	case t.file != nil:
		t.file.SetSize(w, h)
	}
}

func (t *tab) render(w, h int) string {
	switch {
	case t.term != nil:
		return t.term.View()
	case t.file != nil:
		return t.file.View()
	default:
		return t.view.View(w, h)
	}
}

func (t *tab) close() {
	switch {
	case t.term != nil:
		t.term.Close()
	case t.file != nil:
		t.file.Close()
	case t.view != nil:
		t.view.Close()
	}
}

// paneOpenedMsg reports a PTY session opened (by the agent or /shell).
type paneOpenedMsg struct{ s *pty.Session }

// frameMsg paces terminal panes at most 60 frames a second.
type frameMsg time.Time

// stepMsg carries the viewer's background work back to it.
type stepMsg struct {
	t    *tab
	step viewer.StepMsg
}

func (m *Model) activeTab() *tab {
	if m.active < 0 || m.active >= len(m.tabs) {
		return nil
	}
	return m.tabs[m.active]
}

// addTab shows a new tab and makes it the active one.
func (m *Model) addTab(t *tab, focus bool) tea.Cmd {
	for i, old := range m.tabs {
		if old.id == t.id {
			old.close()
			m.tabs[i] = t
			m.active = i
			m.paneFocus = focus
			return m.frame()
		}
	}
	m.tabs = append(m.tabs, t)
	m.active = len(m.tabs) - 1
	m.paneFocus = focus
	if focus && t.term != nil {
		t.term.Focus()
	}
	return m.frame()
}

// closeTab drops the active tab.
func (m *Model) closeTab() {
	t := m.activeTab()
	if t == nil {
		return
	}
	t.close()
	m.tabs = append(m.tabs[:m.active], m.tabs[m.active+1:]...)
	m.active = -1
	m.paneFocus, m.zoom = false, false
}

// cycleTab moves the right column through the pipeline panel and the tabs.
func (m *Model) cycleTab() {
	m.blurPane()
	m.active++
	if m.active >= len(m.tabs) {
		m.active = -1
	}
}

func (m *Model) blurPane() {
	if t := m.activeTab(); t != nil && t.term != nil {
		t.term.Blur()
	}
	m.paneFocus = false
}

// toggleFocus is Ctrl-]: the keyboard moves between the input and the
// active pane.
func (m *Model) toggleFocus() {
	t := m.activeTab()
	if t == nil {
		for i, tt := range m.tabs {
			if tt.term != nil {
				m.active, t = i, tt
				break
			}
		}
	}
	if t == nil {
		m.say("No pane to focus: /shell opens your shell, /tasks lists tasks.")
		return
	}
	if m.paneFocus {
		m.blurPane()
		return
	}
	m.paneFocus = true
	if t.term != nil {
		t.term.Focus()
	}
}

// paneKey routes a key to the focused pane or viewer.
func (m *Model) paneKey(k tea.KeyPressMsg) tea.Cmd {
	t := m.activeTab()
	switch {
	case t.term != nil:
		if _, act := t.term.HandleKey(k); act.Unfocus {
			m.blurPane()
		}
		return m.frame()
	case t.view != nil:
		if k.String() == ptyview.LeaveKey {
			m.paneFocus = false
			return nil
		}
		return m.viewerAction(t, t.view.Update(k))
	default:
		if k.String() == ptyview.LeaveKey || k.String() == "esc" {
			m.paneFocus = false
		}
		return nil
	}
}

func (m *Model) viewerAction(t *tab, act viewer.Action) tea.Cmd {
	if act.Close {
		m.closeTab()
		return nil
	}
	if act.More {
		step := act.Step
		return func() tea.Msg { return stepMsg{t: t, step: step} }
	}
	return nil
}

// viewerRefreshEvery is how often a shown viewer looks for a grown file:
// often enough to follow a log, rarely enough to cost nothing.
const viewerRefreshEvery = 500 * time.Millisecond

// frame schedules the next pane refresh while a live pane or a viewer is
// visible.
func (m *Model) frame() tea.Cmd {
	if m.framing {
		return nil
	}
	t := m.activeTab()
	if t == nil {
		return nil
	}
	every := ptyview.FrameInterval
	if t.view != nil {
		every = viewerRefreshEvery
	}
	m.framing = true
	return tea.Tick(every, func(now time.Time) tea.Msg { return frameMsg(now) })
}

func (m *Model) onFrame(now time.Time) tea.Cmd {
	m.framing = false
	t := m.activeTab()
	if t == nil {
		return nil
	}
	var cmd tea.Cmd
	switch {
	case t.term != nil:
		t.term.Refresh(now)
	case t.file != nil:
		t.file.Refresh(now)
	case t.view != nil:
		cmd = m.viewerAction(t, t.view.Refresh())
	}
	return tea.Batch(cmd, m.frame())
}

// openShell is /shell: the person's own shell in a pane, with the keyboard.
func (m *Model) openShell() tea.Cmd {
	if m.cfg.Shells == nil {
		m.say("Shell sessions are turned off in settings (disableShellSessions).")
		return nil
	}
	sh := os.Getenv("SHELL")
	if sh == "" {
		sh = "bash"
	}
	rows, cols := m.paneSize()
	s, err := m.cfg.Shells.Open(pty.OpenSpec{Argv: []string{sh}, WorkDir: m.cfg.ProjectDir, Rows: rows, Cols: cols, Mode: "person",
		Wrap: m.cfg.PersonShell, Person: true})
	if err != nil {
		m.conv.AddError("Could not open a shell: " + err.Error())
		return nil
	}
	m.opened[s.ID()] = true
	return m.addTab(&tab{id: s.ID(), term: ptyview.New(s)}, true)
}

// onPaneOpened shows a session the agent opened, live, without taking the
// keyboard from the person.
func (m *Model) onPaneOpened(s *pty.Session) tea.Cmd {
	if m.opened[s.ID()] {
		return nil
	}
	m.opened[s.ID()] = true
	return m.addTab(&tab{id: s.ID(), term: ptyview.New(s)}, false)
}

// openFile is /open PATH and the key on a spilled result.
func (m *Model) openFile(path string, spill *tools.Spill) tea.Cmd {
	if !strings.HasPrefix(path, "/") {
		path = m.cfg.ProjectDir + "/" + path
	}
	v, err := viewer.Open(path, viewer.Options{Spill: spill, TranscriptPath: m.cfg.TranscriptPath})
	if err != nil {
		m.conv.AddError(err.Error())
		return nil
	}
	t := &tab{id: "view " + shortPath(path), view: v}
	cmd := m.addTab(t, true)
	return tea.Batch(cmd, m.viewerAction(t, v.Init()))
}

// taskCommand is /tasks, /tasks open ID, /tasks stop ID.
func (m *Model) taskCommand(arg string) tea.Cmd {
	if m.cfg.Tasks == nil {
		m.say("Background tasks are turned off in settings (disableBackgroundTasks).")
		return nil
	}
	verb, id, _ := strings.Cut(arg, " ")
	id = strings.TrimSpace(id)
	switch verb {
	case "":
		m.conv.AddNotice(m.taskList())
	case "open":
		snap, ok := m.cfg.Tasks.Get(id)
		if !ok {
			m.say("No task " + id)
			return nil
		}
		fp := ptyview.NewFilePane(snap.OutputFile)
		var res []*regexp.Regexp
		for _, w := range snap.Watch {
			if re, err := regexp.Compile(w); err == nil {
				res = append(res, re)
			}
		}
		fp.SetHighlights(res)
		return m.addTab(&tab{id: id, file: fp}, false)
	case "stop":
		if err := m.cfg.Tasks.Kill(id); err != nil {
			m.say(err.Error())
		} else {
			m.say("Stopped " + id)
		}
	default:
		m.say("Usage: /tasks, /tasks open ID, /tasks stop ID")
	}
	return nil
}

const (
	// taskListIndent is the notice's prefix before each row of /tasks.
	taskListIndent = 2
	// taskListMinCommand is the fewest cells a command gets beside its
	// row in /tasks; with less it goes on a line of its own.
	taskListMinCommand = 12
	// taskListCommandIndent indents a command on a line of its own, under
	// the row's kind.
	taskListCommandIndent = 9
)

func (m *Model) taskList() string {
	list := m.cfg.Tasks.List()
	if len(list) == 0 {
		return "No background tasks yet."
	}
	var b strings.Builder
	b.WriteString("Background tasks (/tasks open ID to follow one, /tasks stop ID to stop it):\n")
	now := m.now()
	for _, t := range list {
		status := string(t.Status)
		if t.Status != tasks.StatusRunning {
			status += fmt.Sprintf(" (exit %d)", t.ExitCode)
		}
		// The command takes what the row leaves of the conversation's
		// width, cut by cells (a wrapped row broke the table's columns),
		// or a line of its own under the row when too little is left.
		row := fmt.Sprintf("%-8s %-8s %-18s %8s %9s  ", t.ID, t.Kind, status,
			tasks.FormatDuration(t.Elapsed(now)), tasks.HumanBytes(t.Bytes))
		cmd := strings.Join(strings.Fields(t.Command), " ")
		width := m.convWidth() - taskListIndent
		if room := width - xansi.StringWidth(row); room >= taskListMinCommand {
			b.WriteString(row + xansi.Truncate(cmd, room, "…") + "\n")
			continue
		}
		indent := strings.Repeat(" ", taskListCommandIndent)
		b.WriteString(strings.TrimRight(row, " ") + "\n" + indent + xansi.Truncate(cmd, max(width-taskListCommandIndent, 1), "…") + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// paneSize is the terminal size a pane gets in the current layout.
func (m *Model) paneSize() (rows, cols int) {
	w, h := m.tabArea()
	return max(h, 4), max(w, 20)
}

// tabArea is the cells the active tab draws into (below its tab bar).
func (m *Model) tabArea() (w, h int) {
	if m.fullTab() {
		return m.width, m.height - 3
	}
	return m.panelWidth(), m.convHeight() - 1
}

// fullTab reports whether the active tab takes the whole screen: zoomed,
// or focused on a terminal too narrow for two columns.
func (m *Model) fullTab() bool {
	t := m.activeTab()
	return t != nil && (m.zoom || (m.paneFocus && m.width < panelMinTerminal))
}

// tabBar names the pipeline panel and every tab, the active one marked.
// When they do not all fit, the active tab stays in sight with as many of
// its neighbours as fit, and markers count the tabs hidden on each side
// ("‹2 " and " 3›"); the key hint after the tabs goes first.
func (m *Model) tabBar(width int) string {
	names := []string{"Pipeline"}
	for _, t := range m.tabs {
		names = append(names, t.title())
	}
	bar := tabStrip(names, m.active+1, width)
	hint := "  " + theme.Dim.Render("ctrl+t hides")
	if len(m.tabs) > 0 {
		hint = "  " + theme.Dim.Render("F2 next")
	}
	if t := m.activeTab(); t != nil {
		if m.paneFocus {
			hint = "  " + theme.KeyHint.Render(ptyview.LeaveHint)
		} else if t.term != nil {
			hint = "  " + theme.Dim.Render(ptyview.LeaveKey+" focus · F3 zoom · F4 close")
		}
	}
	if lipgloss.Width(bar)+lipgloss.Width(hint) > width {
		hint = ""
	}
	return lipgloss.NewStyle().MaxWidth(width).Render(bar + hint)
}

// tabSep is what stands between two names in the tab bar.
const tabSep = " │ "

// tabStrip lays the tab names out in width cells, the active one (index
// active) in the title style. When they do not all fit it shows the active
// tab and the neighbours that fit around it, one to the right and one to
// the left in turn, with how many are hidden at each end; an active name
// wider than the whole bar is cut.
func tabStrip(names []string, active, width int) string {
	active = max(0, min(active, len(names)-1))
	widths := make([]int, len(names))
	for i, n := range names {
		widths[i] = lipgloss.Width(n)
	}
	need := func(lo, hi int) int {
		w := 0
		for i := lo; i <= hi; i++ {
			w += widths[i]
		}
		w += (hi - lo) * lipgloss.Width(tabSep)
		if lo > 0 {
			w += lipgloss.Width(hiddenBefore(lo))
		}
		if hi < len(names)-1 {
			w += lipgloss.Width(hiddenAfter(len(names) - 1 - hi))
		}
		return w
	}
	lo, hi := active, active
	if need(0, len(names)-1) <= width {
		lo, hi = 0, len(names)-1
	} else {
		for grew := true; grew; {
			grew = false
			if hi+1 < len(names) && need(lo, hi+1) <= width {
				hi, grew = hi+1, true
			}
			if lo > 0 && need(lo-1, hi) <= width {
				lo, grew = lo-1, true
			}
		}
	}
	var parts []string
	for i := lo; i <= hi; i++ {
		style := theme.Dim
		if i == active {
			style = theme.Title
		}
		name := names[i]
		if i == active && need(lo, hi) > width {
			name = xansi.Truncate(name, max(width-(need(lo, hi)-widths[i]), 1), "…")
		}
		parts = append(parts, style.Render(name))
	}
	bar := strings.Join(parts, theme.Dim.Render(tabSep))
	if lo > 0 {
		bar = theme.Dim.Render(hiddenBefore(lo)) + bar
	}
	if hi < len(names)-1 {
		bar += theme.Dim.Render(hiddenAfter(len(names) - 1 - hi))
	}
	return bar
}

// hiddenBefore and hiddenAfter mark how many tabs the bar leaves out on
// its left and right.
func hiddenBefore(n int) string { return "‹" + strconv.Itoa(n) + " " }

func hiddenAfter(n int) string { return " " + strconv.Itoa(n) + "›" }

func shortPath(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}
