package ui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/commands"
	"github.com/seed92b641c3/workbench/ui/safetext"
)

// CustomCommands are the person's own slash commands (.claude/commands and
// the like, package commands): listed and completed with the built-ins, and
// run as a prompt by the session, which runs their !`command` lines and
// @path reads through the pipeline. The session implements it.
type CustomCommands interface {
	// CommandList lists the commands in the order they are shown.
	CommandList() []commands.Command
	// RunCommand runs line when it names a command; false when it does not.
	RunCommand(ctx context.Context, line string) (agent.Outcome, bool)
}

// customSlashCommands are the custom commands as completion entries.
func customSlashCommands(c CustomCommands) []slashCommand {
	if c == nil {
		return nil
	}
	var out []slashCommand
	for _, cmd := range c.CommandList() {
		help := cmd.Label()
		if cmd.ArgumentHint != "" {
			help = cmd.ArgumentHint + "  " + help
		}
		// A repository's file wrote these: shown escaped, so no
		// terminal sequence in them reaches the screen.
		out = append(out, slashCommand{name: "/" + safetext.Escape(cmd.Name), help: safetext.Escape(help)})
	}
	return out
}

// runCustom starts a custom command like a prompt; false when name is none.
func (m *Model) runCustom(name, text string) (tea.Cmd, bool) {
	if m.cfg.Commands == nil || !m.input.hasCustom(name) {
		return nil, false
	}
	if m.running {
		m.queued = append(m.queued, text)
		m.say(fmt.Sprintf("Queued (%d waiting); %s runs when the agent finishes.", len(m.queued), name))
		return nil, true
	}
	m.conv.AddUser(text)
	m.conv.ScrollToBottom()
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel, m.running, m.started = cancel, true, m.now()
	run := m.cfg.Commands
	return tea.Batch(func() tea.Msg {
		run.RunCommand(ctx, text)
		return nil
	}, m.tick()), true
}

// hasCustom reports whether name ("/review") is a custom command.
func (in *input) hasCustom(name string) bool {
	for _, c := range in.custom {
		if c.name == name {
			return true
		}
	}
	return false
}

// customHelp is the help page's list of custom commands with what each does.
func (m *Model) customHelp() []string {
	var lines []string
	for _, c := range m.input.custom {
		lines = append(lines, c.name+"  "+strings.TrimSpace(c.help))
	}
	return lines
}
