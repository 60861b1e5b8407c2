package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/ui/approval"
	"github.com/seed92b641c3/workbench/ui/safetext"
)

// MCPAsk is the one-time question about a trusted project's MCP servers
// that nobody has answered for yet (.mcp.json, the mcpServers of its own
// settings files). Main fills it from the session; nil asks nothing.
type MCPAsk struct {
	Servers []MCPAskServer
	// AnswerFile is where the answer is kept, to say so in the dialog.
	AnswerFile string
	// Answer records the answer: the servers in use start, the others are
	// turned off for good. It does IO, so the app calls it from a command.
	Answer func(ctx context.Context, use []string) (string, error)
}

// MCPAskServer is one server the question is about.
type MCPAskServer struct {
	Name, File string
	// Runs is what starting it does: a command line or a URL.
	Runs string
}

// mcpAskMax caps the MCP question's width on wide terminals.
const mcpAskMax = 100

// mcpAskDialog is the question on screen: a plain value the root model
// drives. Nothing is checked at first, so Enter by reflex starts nothing.
// A key counts only once the question has been drawn and the approval
// dialog's grace period has passed since (approval.Grace, restarted
// whenever it comes back from behind another dialog), so keys typed
// before it was on screen, or in the moment after, never answer it.
type mcpAskDialog struct {
	ask     *MCPAsk
	use     []bool
	cursor  int
	drawn   bool // on screen in the last frame
	grace   approval.Grace
	pending bool // the answer is being recorded
}

// shown records whether the question is on screen in the frame being
// drawn; a question that has just come on screen starts its grace period.
func (d *mcpAskDialog) shown(on bool, now time.Time) {
	if on && !d.drawn {
		d.grace.Reset(now)
	}
	d.drawn = on
}

// mcpAnsweredMsg carries what recording the answer did.
type mcpAnsweredMsg struct {
	text string
	err  error
}

// openMCPAsk puts the question up when there is one.
func (m *Model) openMCPAsk() {
	if a := m.cfg.MCPAsk; a != nil && len(a.Servers) > 0 && a.Answer != nil {
		m.mcpAsk = &mcpAskDialog{ask: a, use: make([]bool, len(a.Servers))}
	}
}

// mcpAskUpdate handles the question's keys while it is open and the
// answer's outcome; ok is false for every other message. An approval that
// arrives meanwhile goes in front of it.
func (m *Model) mcpAskUpdate(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case mcpAnsweredMsg:
		m.mcpAsk = nil
		if msg.err != nil {
			m.conv.AddError("MCP servers: " + msg.err.Error())
		} else {
			m.conv.AddNotice(msg.text)
		}
		return m.replayHeld(), true
	case tea.KeyPressMsg:
		d := m.mcpAsk
		if d == nil || m.approvals.Current() != nil {
			return nil, false
		}
		if d.pending || !d.drawn || d.grace.Swallow(m.now()) {
			return nil, true
		}
		use, done := d.key(msg.String())
		switch {
		case !done:
			return nil, true
		case use == nil:
			m.mcpAsk = nil
			m.say("The project's MCP servers stay off; you are asked again next time (or use /mcp trust).")
			return m.replayHeld(), true
		}
		d.pending = true
		answer := d.ask.Answer
		return func() tea.Msg {
			text, err := answer(context.Background(), use)
			return mcpAnsweredMsg{text, err}
		}, true
	case tea.PasteMsg:
		return nil, m.mcpAsk != nil && m.approvals.Current() == nil
	}
	return nil, false
}

// key acts on one key. done with a nil use closes the question without an
// answer (asked again next time); done with a use records it (the names
// started, possibly none).
func (d *mcpAskDialog) key(k string) (use []string, done bool) {
	switch k {
	case "up", "k":
		d.cursor = max(0, d.cursor-1)
	case "down", "j":
		d.cursor = min(len(d.use)-1, d.cursor+1)
	case "space", " ", "x":
		d.use[d.cursor] = !d.use[d.cursor]
	case "a":
		for i := range d.use {
			d.use[i] = true
		}
	case "n":
		return []string{}, true
	case "enter":
		use = []string{}
		for i, on := range d.use {
			if on {
				use = append(use, d.ask.Servers[i].Name)
			}
		}
		return use, true
	case "esc", "ctrl+c":
		return nil, true
	}
	return nil, false
}

// View draws the question in width × height cells.
func (d *mcpAskDialog) View(width, height int) string {
	w := max(20, min(width, mcpAskMax)-4)
	lines := []string{theme.Title.Render("MCP servers of this project")}
	lines = append(lines, prose(theme.Dim, "These servers run programs on this machine (or reach a URL) with your rights. Start which of them? Nothing is checked: Enter alone turns them all off.", w)...)
	lines = append(lines, "")
	nameW := 0
	for _, s := range d.ask.Servers {
		nameW = max(nameW, ansi.StringWidth(inlineText(s.Name)))
	}
	rows := max(1, height-12)
	first := max(0, min(d.cursor-rows/2, len(d.ask.Servers)-rows))
	for i := first; i < len(d.ask.Servers) && i < first+rows; i++ {
		s := d.ask.Servers[i]
		box := "[ ]"
		if d.use[i] {
			box = "[x]"
		}
		mark := "  "
		if i == d.cursor {
			mark = "› "
		}
		name := inlineText(s.Name)
		line := fmt.Sprintf("%s%s %s%s  %s", mark, box, name, strings.Repeat(" ", nameW-ansi.StringWidth(name)), inlineText(s.Runs))
		if i == d.cursor {
			line = theme.Selected.Render(ansi.Truncate(line, w, "…"))
		}
		lines = append(lines, line)
	}
	if n := len(d.ask.Servers); n > rows {
		lines = append(lines, theme.Dim.Render(fmt.Sprintf("  %d servers; ↑/↓ scroll", n)))
	}
	lines = append(lines, "", theme.Dim.Render("from "+inlineText(d.ask.Servers[d.cursor].File)))
	lines = append(lines, prose(theme.Dim, "Kept in "+inlineText(d.ask.AnswerFile)+" (enabledMcpjsonServers, disabledMcpjsonServers): you are not asked again for these servers.", w)...)
	hint := "space check · a check all · enter start the checked, turn off the rest · n turn all off · esc ask next time"
	if d.pending {
		hint = "Recording the answer…"
	}
	lines = append(lines, "", theme.Dim.Render(hint))
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return theme.Focused.Padding(0, 1).Width(w + 4).Render(strings.Join(lines, "\n"))
}

// inlineText shows a value of the project's files on one line, control,
// bidi and zero-width characters as marked escapes, so a server's name or
// command cannot hide what it runs.
func inlineText(s string) string {
	return safetext.Mark(strings.NewReplacer("\n", `\n`, "\t", " ").Replace(s))
}
