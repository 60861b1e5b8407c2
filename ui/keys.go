package ui

import (
	"charm.land/bubbles/v2/key"

	"github.com/seed92b641c3/workbench/ptyview"
)

// keyMap is every binding of the main screen; the help view is generated
// from it, so what is documented is what works.
type keyMap struct {
	Send        key.Binding
	Newline     key.Binding
	Queue       key.Binding
	Interrupt   key.Binding
	Quit        key.Binding
	CycleMode   key.Binding
	TogglePanel key.Binding
	ScrollUp    key.Binding
	ScrollDown  key.Binding
	PrevTool    key.Binding
	NextTool    key.Binding
	Expand      key.Binding
	OpenOutput  key.Binding
	Copy        key.Binding
	Mouse       key.Binding
	Help        key.Binding
	History     key.Binding
	CycleTabs   key.Binding
	ZoomTab     key.Binding
	CloseTab    key.Binding
	PaneFocus   key.Binding
	// Stop is Esc as the help page names it: what it interrupts or closes.
	Stop key.Binding
}

func defaultKeys() keyMap {
	return keyMap{
		Send:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Newline:     key.NewBinding(key.WithKeys("shift+enter", "alt+enter", "ctrl+j"), key.WithHelp("shift+enter", "new line")),
		Queue:       key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "queue a message")),
		Interrupt:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "interrupt the turn")),
		Quit:        key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c ×2", "quit")),
		CycleMode:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "cycle mode")),
		TogglePanel: key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "pipeline panel")),
		ScrollUp:    key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll up")),
		ScrollDown:  key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll down")),
		PrevTool:    key.NewBinding(key.WithKeys("ctrl+p"), key.WithHelp("ctrl+p", "older tool call")),
		NextTool:    key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "newer tool call")),
		Expand:      key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "expand output")),
		OpenOutput:  key.NewBinding(key.WithKeys("ctrl+v"), key.WithHelp("ctrl+v", "view the output")),
		Copy:        key.NewBinding(key.WithKeys(CopyKey), key.WithHelp(CopyKey, "copy output")),
		Mouse:       key.NewBinding(key.WithKeys(MouseKey), key.WithHelp(MouseKey, "mouse on/off")),
		Help:        key.NewBinding(key.WithKeys("f1"), key.WithHelp("f1", "help")),
		History:     key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "input history")),
		CycleTabs:   key.NewBinding(key.WithKeys("f2"), key.WithHelp("f2", "panel and tabs")),
		ZoomTab:     key.NewBinding(key.WithKeys("f3"), key.WithHelp("f3", "zoom the tab")),
		CloseTab:    key.NewBinding(key.WithKeys("f4"), key.WithHelp("f4", "close the tab")),
		Stop:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "interrupt, close")),
		PaneFocus:   key.NewBinding(key.WithKeys(ptyview.LeaveKey), key.WithHelp(ptyview.LeaveKey, "keyboard to pane")),
	}
}

// ShortHelp is the input's hint line while nothing runs; F1 comes third,
// so it is on screen at 60 columns.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Send, k.Newline, k.Help, k.CycleMode, k.TogglePanel, k.Expand, k.Quit}
}

// CompleteHelp is the input's hint line while commands are listed under
// it: Tab (and Enter on a partial name) completes, Enter runs a whole one.
func (k keyMap) CompleteHelp() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "complete or run")),
		k.Help,
	}
}

// BusyHelp is the input's hint line while the agent works: what stops it
// first, and that Enter now queues; F1 stays in reach of 80 columns.
func (k keyMap) BusyHelp() []key.Binding {
	queue := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "queue a message"))
	return []key.Binding{k.Interrupt, queue, k.Help, k.CycleMode, k.TogglePanel, k.Quit}
}

// DirectHelp is the input's hint line while only the person's own
// `!command` runs: Esc stops it, and Enter still sends (nothing is queued
// behind a command of the person's).
func (k keyMap) DirectHelp() []key.Binding {
	stop := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop the command"))
	return []key.Binding{stop, k.Send, k.Help, k.CycleMode, k.TogglePanel, k.Quit}
}

// FullHelp is every key of the help page (F1, /help), in reading order.
func (k keyMap) FullHelp() []key.Binding {
	return []key.Binding{
		k.Send, k.Newline, k.Queue, k.History, k.Stop, k.Quit, k.CycleMode,
		k.TogglePanel, k.ScrollUp, k.ScrollDown, k.PrevTool, k.NextTool, k.Expand, k.OpenOutput,
		k.Copy, k.Mouse, k.CycleTabs, k.ZoomTab, k.CloseTab, k.PaneFocus, k.Help,
	}
}

// FocusHelp is the hint line for whatever has the keyboard when it is not
// the input: a dialog, the help page, a pane or the viewer. Nil means the
// input has it (ShortHelp).
func (k keyMap) FocusHelp(dialog, helpPage, pane bool) []key.Binding {
	hint := func(keys, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys), key.WithHelp(keys, desc))
	}
	switch {
	case dialog:
		return []key.Binding{hint("ctrl+c", "deny and interrupt"), hint("shift+pgup/pgdn", "scroll the conversation")}
	case helpPage:
		return []key.Binding{hint("esc", "close"), hint("↑/↓ pgup/pgdn", "scroll")}
	case pane:
		return []key.Binding{hint(ptyview.LeaveKey, "back to the input"), k.CycleTabs, k.ZoomTab, k.CloseTab}
	}
	return nil
}
