package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

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
		m.conv = newConversation()
		m.layout()
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
		m.layout()
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

// sessionList describes how to resume earlier sessions of this project.
func (m *Model) sessionList() string {
	return fmt.Sprintf("This session is %s. To resume a session, quit and start `workbench --resume ID`, or `workbench --continue` for the latest one of this project.", m.cfg.SessionID)
}

func newConversation() *conversation.View { return conversation.New() }

func jsonMarshal(v any) (json.RawMessage, error) { return json.Marshal(v) }

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
