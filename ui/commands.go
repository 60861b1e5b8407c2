package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/ui/conversation"
	"github.com/seed92b641c3/workbench/ui/format"
)

// command runs a slash command.
func (m *Model) command(text string) tea.Cmd {
	name, arg, _ := strings.Cut(text, " ")
	arg = strings.TrimSpace(arg)
	switch name {
	case "/help":
		m.showHelp, m.helpScroll = true, 0
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
	case "/compact":
		return m.compact(arg)
	case "/rewind":
		return m.rewindCommand(arg)
	case "/context":
		m.conv.AddNotice(m.cfg.Agent.ContextReport())
	case "/mode":
		if arg == "" {
			m.say("Permission mode: " + string(m.cfg.Mode.Get()) + " (Shift+Tab cycles; /mode NAME sets)")
			return nil
		}
		mode, ok := permission.ParseMode(arg)
		if !ok {
			m.say("Unknown mode " + arg + "; the modes: default, acceptEdits, plan, bypassPermissions, dontAsk, auto")
			return nil
		}
		m.setMode(mode)
	case "/model":
		m.say(fmt.Sprintf("Provider %s, model %s (set with --provider and --model)", m.cfg.Agent.Provider(), m.cfg.Agent.Model()))
	case "/trace":
		m.togglePanel()
	case "/resume":
		if arg == "" {
			m.conv.AddNotice(m.sessionList())
			return nil
		}
		return m.resumeSession(arg)
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
		if cmd, ok := m.runCustom(name, text); ok {
			return cmd
		}
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
		fmt.Fprintf(&b, "  %s  %s  %s\n", s.ID, s.Modified.Format("Jan 2 15:04"), promptPreview(s.FirstPrompt, 60))
		if n++; n == 10 {
			break
		}
	}
	if n == 0 {
		b.WriteString("  (none)\n")
	}
	b.WriteString("/resume ID switches to one (a unique beginning of the id is enough).")
	return b.String()
}

// commandArgs lists how a command line can go on, for completion: the
// earlier sessions for /resume (read once: the input asks on every frame),
// the session's tasks for /tasks, files for /open.
func (m *Model) commandArgs(line string) []slashCommand {
	command, arg, _ := strings.Cut(line, " ")
	switch command {
	case "/mode":
		return modeArgs
	case "/tasks":
		return m.taskArgs()
	case "/open":
		return m.pathArgs(arg)
	case "/resume":
	default:
		return nil
	}
	if m.resumable == nil {
		m.resumable = []slashCommand{}
		for _, s := range agent.ListSessions(agent.StateRoot(), m.cfg.ProjectDir) {
			if s.ID != m.cfg.SessionID {
				m.resumable = append(m.resumable, slashCommand{name: "/resume " + s.ID, label: s.ID,
					help: s.Modified.Format("Jan 2 15:04") + "  " + promptPreview(s.FirstPrompt, 60)})
			}
		}
	}
	return m.resumable
}

// modeArgs offers every permission mode with what it does.
var modeArgs = func() []slashCommand {
	what := map[permission.Mode]string{
		permission.ModeDefault:     "ask for what no rule allows",
		permission.ModeAcceptEdits: "file edits inside the workspace run without asking",
		permission.ModePlan:        "read-only tools only, until a plan is approved",
		permission.ModeBypass:      "everything no rule denies or asks runs",
		permission.ModeDontAsk:     "what would ask is denied instead",
		permission.ModeAuto:        "like dontAsk, for unattended runs",
	}
	var out []slashCommand
	for _, md := range permission.Modes {
		out = append(out, slashCommand{name: "/mode " + string(md), label: string(md), help: what[md]})
	}
	return out
}()

// pathArgs offers the entries of the directory a partial /open path is
// in: directories with a slash, so Tab walks down the tree. The listing is
// kept while the directory stays the same.
func (m *Model) pathArgs(arg string) []slashCommand {
	dir, base := "", arg
	if i := strings.LastIndexByte(arg, '/'); i >= 0 {
		dir, base = arg[:i+1], arg[i+1:]
	}
	if m.pathDir != dir || m.pathList == nil {
		m.pathDir, m.pathList = dir, []slashCommand{}
		full := dir
		if !filepath.IsAbs(dir) {
			full = filepath.Join(m.cfg.ProjectDir, dir)
		}
		entries, _ := os.ReadDir(full)
		for _, e := range entries {
			name, help := e.Name(), "file"
			if e.IsDir() {
				name, help = name+"/", "directory"
			} else if info, err := e.Info(); err == nil {
				help = format.Bytes(info.Size())
			}
			m.pathList = append(m.pathList, slashCommand{name: "/open " + dir + name, label: dir + name, help: help})
		}
	}
	if strings.HasPrefix(base, ".") {
		return m.pathList
	}
	var out []slashCommand
	for _, c := range m.pathList {
		if !strings.HasPrefix(strings.TrimPrefix(c.label, dir), ".") {
			out = append(out, c) // hidden files only when asked for
		}
	}
	return out
}

// taskArgs offers /tasks open for every task and /tasks stop for the
// running ones, newest first.
func (m *Model) taskArgs() []slashCommand {
	if m.cfg.Tasks == nil {
		return nil
	}
	list := m.cfg.Tasks.List()
	var out []slashCommand
	for _, verb := range []string{"open", "stop"} {
		for i := len(list) - 1; i >= 0; i-- {
			t := list[i]
			if verb == "stop" && !t.Running() {
				continue
			}
			what := t.Description
			if what == "" {
				what = t.Command
			}
			out = append(out, slashCommand{name: "/tasks " + verb + " " + t.ID, label: verb + " " + t.ID,
				help: string(t.Status) + "  " + promptPreview(what, 60)})
		}
	}
	return out
}

// promptPreview is the first line of a prompt, cut to at most n runes.
func promptPreview(p string, n int) string {
	p, _, _ = strings.Cut(strings.TrimSpace(p), "\n")
	if r := []rune(p); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return p
}

// resumeSession ends this program so main can open the earlier session
// named by id, or a unique prefix of it, in its place.
func (m *Model) resumeSession(id string) tea.Cmd {
	if m.running {
		m.say("Interrupt the agent first (Esc), then /resume.")
		return nil
	}
	var found []string
	for _, s := range agent.ListSessions(agent.StateRoot(), m.cfg.ProjectDir) {
		if s.ID == id {
			found = []string{s.ID}
			break
		}
		if strings.HasPrefix(s.ID, id) {
			found = append(found, s.ID)
		}
	}
	switch {
	case len(found) == 0:
		m.say("No earlier session " + id + " in this project; /resume lists them.")
		return nil
	case len(found) > 1:
		m.say(fmt.Sprintf("%q matches %d sessions; give more of the id.", id, len(found)))
		return nil
	case found[0] == m.cfg.SessionID:
		m.say("That is this session.")
		return nil
	}
	m.switchTo = found[0]
	return m.quit()
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

// compactDoneMsg carries the end of a /compact.
type compactDoneMsg struct{ err error }

// compact is /compact [instructions]: the session summarises its history in
// the background, like a prompt (Esc interrupts it). Success is told by
// the session's own notice; a failure here, with the history unchanged.
func (m *Model) compact(instructions string) tea.Cmd {
	if m.running {
		m.say("Interrupt the agent first (Esc), then /compact.")
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel, m.running, m.started = cancel, true, m.now()
	m.say("Compacting the conversation…")
	sess := m.cfg.Agent
	return tea.Batch(func() tea.Msg {
		_, err := sess.Compact(ctx, instructions)
		return compactDoneMsg{err: err}
	}, m.tick())
}
