package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/agent/provider"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/ptyview"
	"github.com/seed92b641c3/workbench/rewind"
	"github.com/seed92b641c3/workbench/tasks"
	"github.com/seed92b641c3/workbench/tasks/pty"
	"github.com/seed92b641c3/workbench/tools/askuser"
	"github.com/seed92b641c3/workbench/ui/approval"
	"github.com/seed92b641c3/workbench/ui/conversation"
	"github.com/seed92b641c3/workbench/ui/pipeline"
)

// Tuning numbers of the main screen.
const (
	// panelMinTerminal is the terminal width from which the pipeline panel
	// shows by default: below it the conversation needs every column.
	panelMinTerminal = 100
	// panelShare is the part of the width the panel takes when shown.
	panelShare = 0.36
	// quitWindow is how long a first Ctrl-C waits for the second.
	quitWindow = 2 * time.Second
	// tickEvery paces spinners and elapsed times while something runs.
	tickEvery = 100 * time.Millisecond
)

// ModeBox is where the session's permission mode lives; the UI changes it
// with Shift+Tab and /mode while calls read it.
type ModeBox interface {
	Get() permission.Mode
	Set(permission.Mode)
}

// Config is what the app is built from; main wires it.
type Config struct {
	Agent    *agent.Session
	Bridge   *Bridge
	Pipeline *agent.Pipeline
	Policy   *permission.Policy
	Mode     ModeBox
	// OnModeChange is told when the person changes mode, so plan mode can
	// forget a mode it would otherwise restore.
	OnModeChange func(permission.Mode)
	// RefuseMode, when set, says why a mode may not be chosen ("" when it
	// may): permissions.disableBypassPermissionsMode refuses bypass.
	RefuseMode func(permission.Mode) string
	ProjectDir string
	SessionID  string
	// AlwaysFile is the settings file "Always" writes its rule to (the
	// project's .workbench/settings.local.json, or the person's own file
	// for an untrusted project: session.Config.AlwaysFile); the dialog
	// names it.
	AlwaysFile string
	// Notes are start-up messages (misconfiguration, H12; a resumed
	// session cut short).
	Notes []string
	// History is a resumed conversation to show.
	History []provider.Message
	// Now is the clock, for tests.
	Now func() time.Time
	// MCP answers /mcp; nil when the session has no MCP support.
	MCP MCPControl
	// MCPAsk is the one-time question about the project's MCP servers,
	// shown at start (mcptrust.go); nil when there is nothing to ask.
	MCPAsk *MCPAsk
	// Welcome is the first thing on screen: where you are and what runs.
	Welcome string
	// Shells are the session's PTY sessions (the agent's and /shell);
	// nil when turned off.
	Shells *pty.Manager
	// PersonShell wraps the person's own /shell pane: pty.Unconfined
	// unless sandbox.person is set; nil leaves it to the manager's
	// default, the sandbox.
	PersonShell pty.Wrapper
	// Tasks are the session's background tasks; nil when turned off.
	Tasks *tasks.Manager
	// TranscriptPath lets the viewer show where a spill file came from.
	TranscriptPath string
	// Rewind is the session's checkpoints, for /rewind; nil when off.
	Rewind *rewind.Store
	// Theme is the palette setting: "dark", "light", or "auto" (and "")
	// to follow the background the terminal reports.
	Theme string
	// PersonPipeline runs the person's own `!` commands (the session's
	// rules, the sandbox only with sandbox.person); nil uses Pipeline.
	PersonPipeline *agent.Pipeline
	// PersonCommands are a resumed session's `!` commands, each with its
	// place in History.
	PersonCommands []agent.PersonCommand
	// Commands are the person's own slash commands (custom.go); nil for
	// none.
	Commands CustomCommands
	// TypedAhead is what the person typed before the program started,
	// while the terminal was still in line mode (typeahead.go): played as
	// keys before any other.
	TypedAhead string
}

// MCPControl is what /mcp needs from the session's MCP servers. Its methods
// do IO (start processes, connect), so the app calls them from commands.
type MCPControl interface {
	// Status lists the servers with their state and tools.
	Status() string
	// Reconnect restarts one server, or every failed one when name is "".
	Reconnect(ctx context.Context, name string) (string, error)
	// Trust approves the project's .mcp.json and starts its servers.
	Trust(ctx context.Context) (string, error)
}

// Model is the root of the UI: the only bubbletea model. Components are
// plain values it drives.
type Model struct {
	cfg    Config
	keys   keyMap
	help   help.Model
	width  int
	height int

	conv      *conversation.View
	panel     *pipeline.Panel
	showPanel bool
	panelSet  bool // the person toggled the panel; do not auto-hide
	mouseOff  bool // MouseKey turned mouse reporting off (copy.go)
	input     input

	approvals *approval.Queue
	replies   map[*approval.Dialog]chan agent.ApprovalReply
	questions map[*approval.QuestionDialog]chan questionReply
	rewind    *rewindDialog // the /rewind dialog, when open (rewind.go)
	mcpAsk    *mcpAskDialog // the MCP servers' question, when open (mcptrust.go)
	// held are keys typed before the start, kept while the MCP question
	// is open (typeahead.go).
	held []tea.KeyPressMsg

	running bool
	cancel  context.CancelFunc
	// directs stops the person's `!` commands still running, by call id.
	directs  map[string]context.CancelFunc
	started  time.Time
	queued   []string
	usage    provider.Usage
	quitAt   time.Time
	flash    string
	flashAt  time.Time
	showHelp bool
	// helpScroll is the first line of the help page shown, when the page
	// is taller than the screen.
	helpScroll int
	ticking    bool

	tabs      []*tab
	active    int // index into tabs; -1 shows the pipeline panel
	paneFocus bool
	zoom      bool
	framing   bool
	opened    map[string]bool // PTY sessions already shown
	// shownNews holds notification blocks shown live, until the loop
	// hands them to the model and the conversation would show them again.
	shownNews map[string]bool

	// switchTo is the session /resume asked for; the program then quits
	// and main opens that session (SwitchTo).
	switchTo string
	// resumable caches the sessions /resume completes, read on first use;
	// pathDir and pathList the directory /open last completed in.
	resumable []slashCommand
	pathDir   string
	pathList  []slashCommand
}

// SwitchTo returns the id of the session the person asked to resume with
// /resume ID, or "" when the program ended for another reason. Main closes
// this session and opens that one in a new program.
func (m *Model) SwitchTo() string { return m.switchTo }

// New builds the app.
func New(cfg Config) *Model {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	m := &Model{
		cfg: cfg, keys: defaultKeys(), help: help.New(),
		conv: conversation.New(), panel: pipeline.New(), input: newInput(),
		approvals: &approval.Queue{Now: cfg.Now}, replies: map[*approval.Dialog]chan agent.ApprovalReply{},
		questions: map[*approval.QuestionDialog]chan questionReply{},
		active:    -1, opened: map[string]bool{}, shownNews: map[string]bool{},
		directs: map[string]context.CancelFunc{},
	}
	m.applyThemeSetting()
	cfg.Bridge.options = m.dialogOptions
	m.input.args = m.commandArgs
	m.input.custom = customSlashCommands(cfg.Commands)
	if cfg.Welcome != "" {
		m.conv.AddNotice(cfg.Welcome)
	}
	m.replayHistory(cfg.History, cfg.PersonCommands)
	for _, n := range cfg.Notes {
		m.conv.AddNotice(n)
	}
	m.openMCPAsk()
	return m
}

// Init starts listening to the agent side, unless a theme is set asks the
// terminal for its background colour, and plays the keys typed before the
// start.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.cfg.Bridge.wait(), m.requestBackground(), m.replayTypedAhead())
}

// tickMsg paces spinners.
type tickMsg time.Time

func (m *Model) tick() tea.Cmd {
	if m.ticking {
		return nil
	}
	m.ticking = true
	return tea.Tick(tickEvery, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// Update is the one place state changes. Sizes are laid out again after
// every message (the input grows as a person types, a dialog or pane
// opens), so View only draws.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	model, cmd := m.update(msg)
	m.layout()
	return model, cmd
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if cmd, ok := m.rewindUpdate(msg); ok {
		return m, cmd
	}
	if cmd, ok := m.mcpAskUpdate(msg); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return m, nil
	case tea.BackgroundColorMsg:
		m.onBackground(msg)
		return m, nil
	case eventsMsg:
		cmds := []tea.Cmd{m.cfg.Bridge.wait(), m.tick()}
		for _, ev := range msg {
			m.onEvent(ev)
			if ev.Kind == agent.EventDone {
				cmds = append(cmds, m.promptDone())
			}
		}
		return m, tea.Batch(cmds...)
	case askMsg:
		return m, tea.Batch(m.openApproval(msg), m.cfg.Bridge.wait())
	case droppedMsg:
		for _, ch := range msg {
			for d, c := range m.replies {
				if c == ch {
					m.approvals.Remove(d)
					delete(m.replies, d)
				}
			}
		}
		return m, m.cfg.Bridge.wait()
	case questionMsg:
		return m, tea.Batch(m.openQuestion(pendingQuestion(msg)), m.cfg.Bridge.wait())
	case directDoneMsg:
		m.directDone(msg)
		return m, nil
	case alwaysSavedMsg:
		m.handleAlwaysSaved(msg)
		return m, nil
	case compactDoneMsg:
		if msg.err != nil {
			m.conv.AddError("Compaction failed: " + msg.err.Error())
		}
		return m, m.promptDone()
	case mcpDoneMsg:
		if msg.err != nil {
			m.conv.AddError(msg.err.Error())
		} else {
			m.conv.AddNotice(msg.text)
		}
		return m, nil
	case paneOpenedMsg:
		return m, tea.Batch(m.onPaneOpened(msg.s), m.cfg.Bridge.wait())
	case newsMsg:
		m.onNews(msg)
		return m, m.cfg.Bridge.wait()
	case frameMsg:
		return m, m.onFrame(time.Time(msg))
	case stepMsg:
		for _, t := range m.tabs {
			if t == msg.t && t.view != nil {
				return m, m.viewerAction(t, t.view.Update(msg.step))
			}
		}
		return m, nil
	case tickMsg:
		m.ticking = false
		m.panel.Tick(time.Time(msg))
		if m.running || m.panel.Running() {
			return m, m.tick()
		}
		return m, nil
	case tea.MouseWheelMsg:
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			m.conv.ScrollBy(-3)
		case tea.MouseWheelDown:
			m.conv.ScrollBy(3)
		}
		return m, nil
	case tea.PasteMsg:
		if m.modalOpen() {
			return m, m.updateModal(msg)
		}
		if t := m.activeTab(); m.paneFocus && t != nil && t.term != nil {
			t.term.HandlePaste(msg.Content)
			return m, m.frame()
		}
		return m, m.input.update(msg)
	case tea.KeyPressMsg:
		if m.modalOpen() && msg.String() == "ctrl+c" {
			m.denyAllAndInterrupt()
			return m, nil
		}
		if m.modalOpen() && m.scrollBehind(msg.String()) {
			return m, nil
		}
		if m.modalOpen() {
			return m, m.updateModal(msg)
		}
		if m.paneFocus && m.activeTab() != nil {
			return m, m.paneKey(msg)
		}
		return m, m.onKey(msg)
	}
	return m, m.input.update(msg)
}

func (m *Model) now() time.Time { return m.cfg.Now() }

func (m *Model) say(s string) {
	m.flash, m.flashAt = s, m.now()
}

// onEvent turns one session event into component updates. The
// conversation draws every event itself (Apply); the panel and the status
// line take what concerns them.
func (m *Model) onEvent(ev agent.Event) {
	switch ev.Kind {
	case agent.EventToolUse:
		m.panel.ToolUse(ev.Call.ID, ev.Call.Name, ev.Call.Input)
	case agent.EventToolResult:
		m.panel.SetResult(ev.Call.ID, ev.Result.Text, ev.Result.IsError)
	case agent.EventStage:
		m.panel.Observe(*ev.Stage)
	case agent.EventUsage:
		m.usage = ev.Usage
	case agent.EventNotification:
		m.onNotification(ev.Text)
		return
	}
	m.conv.Apply(ev)
}

// onKey handles keys when no modal is open.
func (m *Model) onKey(k tea.KeyPressMsg) tea.Cmd {
	if m.showHelp && m.helpKey(k.String()) {
		return nil
	}
	switch k.String() {
	case "ctrl+c":
		if m.busy() {
			m.interrupt()
			m.quitAt = m.now()
			m.say("Interrupted. Press Ctrl-C again to quit.")
			return nil
		}
		if !m.quitAt.IsZero() && m.now().Sub(m.quitAt) < quitWindow {
			return m.quit()
		}
		m.quitAt = m.now()
		m.say("Press Ctrl-C again to quit.")
		return nil
	case "esc":
		if m.showHelp {
			m.showHelp = false
			return nil
		}
		if m.busy() {
			m.interrupt()
			m.say("Interrupted.")
		}
		return nil
	case "shift+tab":
		m.cycleMode()
		return nil
	case "ctrl+t":
		m.togglePanel()
		return nil
	case "pgup":
		m.conv.ScrollBy(-(m.convHeight() - 2))
		return nil
	case "pgdown":
		m.conv.ScrollBy(m.convHeight() - 2)
		return nil
	case "ctrl+p":
		if !m.conv.HasSelection() {
			// The first ctrl+p selects the newest call, wherever the
			// conversation was scrolled to.
			m.conv.ScrollToBottom()
		}
		m.conv.SelectPrev()
		return nil
	case "ctrl+n":
		m.conv.SelectNext()
		return nil
	case "ctrl+o":
		m.conv.ToggleExpand()
		return nil
	case "ctrl+v":
		return m.openSelected()
	case CopyKey:
		return m.copySelection()
	case MouseKey:
		m.toggleMouse()
		return nil
	case "f1":
		m.showHelp, m.helpScroll = !m.showHelp, 0
		return nil
	case ptyview.LeaveKey:
		m.toggleFocus()
		return m.frame()
	case "f2":
		m.cycleTab()
		return m.frame()
	case "f3":
		if m.activeTab() != nil {
			m.zoom = !m.zoom
		}
		return nil
	case "f4":
		m.closeTab()
		return nil
	case "tab":
		if m.input.complete() {
			return nil
		}
		if m.running && strings.TrimSpace(m.input.value()) != "" {
			m.enqueue()
			return nil
		}
		return nil
	case "up":
		if m.input.browse(-1) {
			return nil
		}
	case "down":
		if m.input.browse(1) {
			return nil
		}
	case "enter":
		if m.conv.HasSelection() && strings.TrimSpace(m.input.value()) == "" {
			return m.openSelected()
		}
		return m.submit()
	}
	return m.input.update(k)
}

func (m *Model) enqueue() {
	text := strings.TrimSpace(m.input.value())
	m.queued = append(m.queued, text)
	m.input.remember(text)
	m.input.reset()
	m.say(fmt.Sprintf("Queued (%d waiting); it is sent when the agent finishes.", len(m.queued)))
}

// submit acts on Enter: a command, a direct shell call, or a prompt.
func (m *Model) submit() tea.Cmd {
	text := strings.TrimSpace(m.input.value())
	if text == "" {
		return nil
	}
	if c := m.input.completions(); len(c) > 0 && c[0].name != text && !m.isCommand(text) {
		m.input.complete()
		return nil
	}
	switch {
	case strings.HasPrefix(text, "/"):
		m.input.remember(text)
		m.input.reset()
		return m.command(text)
	case strings.HasPrefix(text, "!"):
		m.input.remember(text)
		m.input.reset()
		return m.direct(strings.TrimSpace(text[1:]))
	}
	if m.running {
		m.enqueue()
		return nil
	}
	m.input.remember(text)
	m.input.reset()
	return m.startPrompt(text)
}

func (m *Model) isCommand(text string) bool {
	name, _, _ := strings.Cut(text, " ")
	for _, c := range slashCommands {
		if c.name == name {
			return true
		}
	}
	return m.input.hasCustom(name)
}

// startPrompt runs the loop for one message in the background; its events
// arrive through the bridge, its end as promptDoneMsg.
func (m *Model) startPrompt(text string) tea.Cmd {
	m.conv.AddUser(text)
	m.conv.ScrollToBottom()
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel, m.running, m.started = cancel, true, m.now()
	sess := m.cfg.Agent
	return tea.Batch(func() tea.Msg {
		sess.Prompt(ctx, text)
		return nil
	}, m.tick())
}

// interrupt stops the running turn and the person's running `!` commands.
func (m *Model) interrupt() {
	if m.cancel != nil {
		m.cancel()
	}
	m.stopDirects()
}

func (m *Model) promptDone() tea.Cmd {
	m.running = false
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
	if len(m.queued) > 0 {
		next := m.queued[0]
		m.queued = m.queued[1:]
		if name, _, _ := strings.Cut(next, " "); strings.HasPrefix(name, "/") {
			// A custom command queued while the agent ran runs as one.
			if cmd, ok := m.runCustom(name, next); ok {
				return cmd
			}
		}
		return m.startPrompt(next)
	}
	return nil
}

// cycleMode is Shift+Tab: default -> acceptEdits -> plan -> default. Other
// modes are reached with /mode.
func (m *Model) cycleMode() {
	next := map[permission.Mode]permission.Mode{
		permission.ModeDefault:     permission.ModeAcceptEdits,
		permission.ModeAcceptEdits: permission.ModePlan,
		permission.ModePlan:        permission.ModeDefault,
	}[m.cfg.Mode.Get()]
	if next == "" {
		next = permission.ModeDefault
	}
	m.setMode(next)
}

func (m *Model) setMode(mode permission.Mode) {
	if m.cfg.RefuseMode != nil {
		if why := m.cfg.RefuseMode(mode); why != "" {
			m.say(why)
			return
		}
	}
	m.cfg.Mode.Set(mode)
	if m.cfg.OnModeChange != nil {
		m.cfg.OnModeChange(mode)
	}
	m.say("Permission mode: " + string(mode))
}

// quit ends the program; main closes the session (SessionEnd, tasks).
func (m *Model) quit() tea.Cmd {
	m.interrupt()
	for d, ch := range m.replies {
		ch <- agent.ApprovalReply{By: "person", Feedback: "Workbench is quitting"}
		delete(m.replies, d)
	}
	for d, ch := range m.questions {
		ch <- questionReply{err: askuser.ErrDeclined}
		delete(m.questions, d)
	}
	for _, t := range m.tabs {
		t.close()
	}
	m.cfg.Bridge.Close()
	return tea.Quit
}

func (m *Model) replayHistory(h []provider.Message, person []agent.PersonCommand) {
	for i, msg := range h {
		person = m.replayPerson(person, i)
		for _, b := range msg.Blocks {
			switch {
			case msg.Role == provider.RoleUser && b.Type == provider.BlockText && isNews(b.Text):
				m.conv.AddNews(newsText(b.Text))
			case msg.Role == provider.RoleUser && b.Type == provider.BlockText:
				m.conv.AddUser(firstLines(b.Text, 20))
			case b.Type == provider.BlockText:
				m.conv.AddAssistant(b.Text)
			case b.Type == provider.BlockToolUse:
				m.conv.AddToolUse(b.ToolUseID, b.ToolName, b.Input)
			case b.Type == provider.BlockToolResult:
				m.conv.SetToolResult(b.ToolUseID, resultOf(b), 0)
			}
		}
	}
	m.replayPerson(person, len(h))
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		return strings.Join(lines[:n], "\n") + "\n…"
	}
	return s
}
