package ui

import (
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// Keys typed before the program starts reach it through the terminal's
// line mode, which turns Enter into a line feed: read as Ctrl+J, it would
// add a line to the input instead of sending it, so a prompt typed and
// sent at once after `workbench` sat unsent. The host takes those bytes
// off the terminal as it leaves line mode (Config.TypedAhead) and the app
// plays them before any key read later, as the keys they were.

// replayTypedAhead hands the keys typed before the start to Update, in
// order, and returns what they asked for (a prompt sent, a command run).
// It runs in Init, before the program reads a key of its own.
//
// While the MCP servers' question is open the keys are held and played
// into the input once it closes: they were typed before the question was
// on screen, and a question that starts programs is never answered by
// keys typed before it was shown.
func (m *Model) replayTypedAhead() tea.Cmd {
	m.held = append(m.held, typedKeys(m.cfg.TypedAhead)...)
	m.cfg.TypedAhead = ""
	if m.mcpAsk != nil {
		return nil
	}
	return m.replayHeld()
}

// replayHeld plays the typed-ahead keys held back, in order.
func (m *Model) replayHeld() tea.Cmd {
	keys := m.held
	m.held = nil
	var cmds []tea.Cmd
	for _, k := range keys {
		_, cmd := m.Update(k)
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// typedKeys turns bytes typed in line mode into key presses: a line feed
// or carriage return is Enter (in line mode Ctrl+J and Enter are one
// byte), tab and backspace are those keys, text is text. Escape sequences
// (an arrow key pressed meanwhile) and other control bytes are dropped:
// what they meant depends on a screen that was not there yet.
func typedKeys(s string) []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\x1b':
			size = escapeLen(s[i:])
		case r == '\r' || r == '\n':
			out = append(out, tea.KeyPressMsg{Code: tea.KeyEnter})
		case r == '\t':
			out = append(out, tea.KeyPressMsg{Code: tea.KeyTab})
		case r == 0x7f || r == '\b':
			out = append(out, tea.KeyPressMsg{Code: tea.KeyBackspace})
		case r == utf8.RuneError && size <= 1, r < 0x20, r >= 0x80 && r <= 0x9f:
		default:
			out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
		}
		i += size
	}
	return out
}

// escapeLen is the length of the escape sequence at the start of s: CSI
// (ESC [ parameters final), SS3 (ESC O x), or ESC and one more character.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for j := 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1
			}
		}
		return len(s)
	case 'O':
		return min(3, len(s))
	}
	_, size := utf8.DecodeRuneInString(s[1:])
	return 1 + size
}
