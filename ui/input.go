package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/theme"
)

// Sizes of the input.
const (
	// inputScreenShare is the part of the screen's height the input grows
	// to before it scrolls: a pasted paragraph shows whole, and the
	// conversation keeps two thirds.
	inputScreenShare = 3
	// maxInputContent bounds what the input holds, in screen lines: far
	// more than a person types, enough for a pasted log.
	maxInputContent = 100_000
)

// slashCommand is one `/` command with the help shown while completing.
type slashCommand struct {
	name string
	help string
	// label is what the completion list shows, when not the name (an
	// argument: the session id rather than "/resume id").
	label string
}

// slashCommands are the commands the input completes, in the order shown.
var slashCommands = []slashCommand{
	{name: "/help", help: "keys and commands"},
	{name: "/mode", help: "permission mode: /mode [default|acceptEdits|plan|bypassPermissions|dontAsk|auto]"},
	{name: "/model", help: "the provider and model in use"},
	{name: "/clear", help: "start the conversation afresh (the transcript keeps it)"},
	{name: "/compact", help: "summarise the conversation to free the context window: /compact [instructions for the summary]"},
	{name: "/context", help: "what fills the context window, by part (an estimate)"},
	{name: "/rewind", help: "go back to before a prompt: the code, the conversation or both; /rewind undo takes it back"},
	{name: "/resume", help: "earlier sessions of this project: /resume lists them, /resume ID switches"},
	{name: "/tasks", help: "background tasks: /tasks, /tasks open ID, /tasks stop ID"},
	{name: "/shell", help: "open your own shell in a pane (ctrl+] moves the keyboard)"},
	{name: "/open", help: "open a file in the viewer: /open PATH"},
	{name: "/trace", help: "show or hide the pipeline panel"},
	{name: "/mcp", help: "MCP servers: /mcp, /mcp reconnect [NAME], /mcp trust"},
	{name: "/quit", help: "end the session and leave"},
}

// input is the multi-line editor with history and `/` completion.
type input struct {
	ta      textarea.Model
	history []string
	histPos int    // len(history) when not browsing
	draft   string // what was typed before browsing history
	width   int
	// args lists the arguments a command line can go on with, as whole
	// command lines ("/resume 2026...", "/tasks open task_1"), for
	// completion; those starting with what is typed are offered. It gets
	// the line typed so far. Nil means none.
	args func(line string) []slashCommand
	// custom are the person's own commands (custom.go), completed after
	// the built-ins.
	custom []slashCommand
}

// maxArgCompletions bounds the argument completions shown at once.
const maxArgCompletions = 8

func newInput() input {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = "› "
	// The mark shows where the message starts; the lines after it are
	// indented under it.
	ta.SetPromptFunc(2, func(p textarea.PromptInfo) string {
		if p.LineNumber == 0 {
			return "› "
		}
		return "  "
	})
	ta.Placeholder = "Ask the agent, !command to run a shell command, / for commands"
	ta.CharLimit = 0
	// The editor grows with its content (soft-wrapped lines too) from its
	// first line, up to a third of the screen (setSize), then scrolls.
	ta.DynamicHeight, ta.MinHeight, ta.MaxHeight = true, 1, 1
	ta.MaxContentHeight = maxInputContent
	ta.SetHeight(1)
	// No forced background, a steady cursor: see inputStyles.
	ta.SetStyles(inputStyles())
	ta.Focus()
	// Enter sends; the root handles it. Newlines come from Shift+Enter,
	// Alt+Enter and Ctrl+J.
	ta.KeyMap.InsertNewline.SetKeys("shift+enter", "alt+enter", "ctrl+j")
	return input{ta: ta}
}

// setSize fits the editor to a terminal w columns wide and h rows high.
func (in *input) setSize(w, h int) {
	in.width = w
	// A narrow terminal gets a placeholder that fits.
	if w < 70 {
		in.ta.Placeholder = "Message, !command or /command"
	} else {
		in.ta.Placeholder = "Ask the agent, !command to run a shell command, / for commands"
	}
	in.ta.MaxHeight = max(1, h/inputScreenShare)
	in.ta.SetWidth(w) // lays the height out again for the content
}

func (in *input) value() string { return in.ta.Value() }

func (in *input) reset() {
	in.ta.Reset()
	in.histPos = len(in.history)
}

func (in *input) setValue(s string) {
	in.ta.SetValue(s)
}

// remember adds a sent entry to the history.
func (in *input) remember(s string) {
	if s == "" || (len(in.history) > 0 && in.history[len(in.history)-1] == s) {
		in.histPos = len(in.history)
		return
	}
	in.history = append(in.history, s)
	in.histPos = len(in.history)
}

// browse moves through history with up/down when the cursor is on the
// first or last line; it reports whether it used the key.
func (in *input) browse(delta int) bool {
	if len(in.history) == 0 {
		return false
	}
	if delta < 0 && in.ta.Line() > 0 {
		return false
	}
	if delta > 0 && in.ta.Line() < in.ta.LineCount()-1 {
		return false
	}
	if in.histPos == len(in.history) {
		in.draft = in.ta.Value()
	}
	pos := in.histPos + delta
	if pos < 0 || pos > len(in.history) {
		return false
	}
	in.histPos = pos
	if pos == len(in.history) {
		in.setValue(in.draft)
	} else {
		in.setValue(in.history[pos])
	}
	return true
}

func (in *input) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	in.ta, cmd = in.ta.Update(msg)
	return cmd
}

// completions lists the slash commands matching what is typed, when the
// input is a lone `/word`, or a command's arguments matching what follows
// it (`/resume 2026`).
func (in *input) completions() []slashCommand {
	v := in.ta.Value()
	if !strings.HasPrefix(v, "/") || strings.ContainsRune(v, '\n') {
		return nil
	}
	if strings.ContainsRune(v, ' ') {
		if in.args == nil {
			return nil
		}
		var out []slashCommand
		for _, c := range in.args(v) {
			if strings.HasPrefix(c.name, v) && len(out) < maxArgCompletions {
				out = append(out, c)
			}
		}
		return out
	}
	var out []slashCommand
	for _, c := range append(slashCommands[:len(slashCommands):len(slashCommands)], in.custom...) {
		if strings.HasPrefix(c.name, v) {
			out = append(out, c)
		}
	}
	return out
}

// complete replaces a partial command with the first completion.
func (in *input) complete() bool {
	c := in.completions()
	if len(c) == 0 || c[0].name == in.ta.Value() {
		return false
	}
	if c[0].label != "" {
		in.setValue(c[0].name) // an argument: the line is complete, or a directory goes on
	} else {
		in.setValue(c[0].name + " ")
	}
	in.ta.CursorEnd()
	return true
}

// view renders the editor with its completion list above it.
func (in *input) view() string {
	box := lipgloss.NewStyle().BorderStyle(lipgloss.NormalBorder()).BorderTop(true).BorderForeground(theme.Subtle).Width(in.width)
	body := box.Render(in.ta.View())
	comps := in.completions()
	if len(comps) == 0 {
		return body
	}
	var lines []string
	for i, c := range comps {
		label := fmt.Sprintf("%-8s", c.name)
		if c.label != "" {
			label = c.label
		}
		name := theme.Dim.Render(label)
		if i == 0 {
			name = theme.KeyHint.Render(label)
		}
		line := "  " + name + "  " + theme.Dim.Render(c.help)
		lines = append(lines, ansi.Truncate(line, in.width, "…"))
	}
	return strings.Join(lines, "\n") + "\n" + body
}
