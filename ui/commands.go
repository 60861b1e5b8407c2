package ui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/ui/conversation"
)

// command runs a slash command.
func (m *Model) command(text string) tea.Cmd {
	name, arg, _ := strings.Cut(text, " ")
	arg = strings.TrimSpace(arg)
	switch name {
	case "/help":
		m.showHelp = true
	case "/quit", "/exit":
		return m.quit()
	case "/clear":
		if m.running {
			m.say("Interrupt the agent first (Esc).")
			return nil
		}
		m.cfg.Agent.Clear()
		m.conv = conversation.New()
		m.say("Conversation cleared; the transcript keeps the old one.")
	case "/mode":
		if arg == "" {
			m.say("Permission mode: " + string(m.cfg.Mode.Get()) + " (Shift+Tab cycles; /mode NAME sets)")
			return nil
		}
		mode, ok := permission.ParseMode(arg)
		if !ok {
			m.say("Unknown mode " + arg)
			return nil
		}
		m.setMode(mode)
	case "/model":
		m.say(fmt.Sprintf("Provider %s, model %s (set with --provider and --model)", m.cfg.Agent.Provider(), m.cfg.Agent.Model()))
	case "/trace":
		m.showPanel, m.panelSet = !m.showPanel, true
	case "/resume":
		m.conv.AddNotice(m.sessionList())
	case "/tasks":
		return m.taskCommand(arg)
	case "/shell":
		return m.openShell()
	case "/mcp":
		return m.mcpCommand(arg)
	case "/open":
		if arg == "" {
			m.say("Usage: /open PATH")
			return nil
		}
		return m.openFile(arg, nil)
	default:
		m.say("Unknown command " + name + "; /help lists them")
	}
	return nil
}

// sessionList lists earlier sessions of this project and how to resume one.
func (m *Model) sessionList() string {
	var b strings.Builder
	fmt.Fprintf(&b, "This session is %s. Earlier sessions of this project, newest first:\n", m.cfg.SessionID)
	n := 0
	for _, s := range agent.ListSessions(agent.StateRoot(), m.cfg.ProjectDir) {
		if s.ID == m.cfg.SessionID {
			continue
		}
		fmt.Fprintf(&b, "  %s  %s\n", s.ID, s.Modified.Format("2006-01-02 15:04"))
		if n++; n == 10 {
			break
		}
	}
	if n == 0 {
		b.WriteString("  (none)\n")
	}
	b.WriteString("Quit and start `workbench --resume ID`, or `workbench --continue` for the latest.")
	return b.String()
}

// resultOf rebuilds a tool result from a resumed transcript's block.
func resultOf(b provider.Block) tools.Result {
	return tools.Result{Text: b.Content, IsError: b.IsError}
}

// mcpDoneMsg carries the outcome of an /mcp action.
type mcpDoneMsg struct {
	text string
	err  error
}

// mcpCommand is /mcp, /mcp reconnect [NAME] and /mcp trust.
func (m *Model) mcpCommand(arg string) tea.Cmd {
	ctl := m.cfg.MCP
	if ctl == nil {
		m.say("No MCP servers are configured (mcpServers in settings, or a project .mcp.json).")
		return nil
	}
	verb, name, _ := strings.Cut(arg, " ")
	switch verb {
	case "":
		m.conv.AddNotice(ctl.Status())
		return nil
	case "reconnect":
		m.say("Reconnecting…")
		return func() tea.Msg {
			text, err := ctl.Reconnect(context.Background(), strings.TrimSpace(name))
			return mcpDoneMsg{text, err}
		}
	case "trust":
		m.say("Starting the project's MCP servers…")
		return func() tea.Msg {
			text, err := ctl.Trust(context.Background())
			return mcpDoneMsg{text, err}
		}
	}
	m.say("Usage: /mcp, /mcp reconnect [NAME], /mcp trust")
	return nil
}
