package ui

import "charm.land/bubbles/v2/key"

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
}

func defaultKeys() keyMap {
	return keyMap{
		Send:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Newline:     key.NewBinding(key.WithKeys("shift+enter", "alt+enter", "ctrl+j"), key.WithHelp("shift+enter", "new line")),
		Queue:       key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "queue while the agent works")),
		Interrupt:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "interrupt the turn")),
		Quit:        key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c ×2", "quit")),
		CycleMode:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "cycle mode")),
		TogglePanel: key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "pipeline panel")),
		ScrollUp:    key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll up")),
		ScrollDown:  key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll down")),
		PrevTool:    key.NewBinding(key.WithKeys("ctrl+p"), key.WithHelp("ctrl+p", "previous tool call")),
		NextTool:    key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "next tool call")),
		Expand:      key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "expand output")),
		OpenOutput:  key.NewBinding(key.WithKeys("ctrl+v"), key.WithHelp("ctrl+v", "view full output")),
		Copy:        key.NewBinding(key.WithKeys(CopyKey), key.WithHelp(CopyKey, "copy output or answer")),
		Mouse:       key.NewBinding(key.WithKeys(MouseKey), key.WithHelp(MouseKey, "mouse off: drag selects")),
		Help:        key.NewBinding(key.WithKeys("f1"), key.WithHelp("f1", "help")),
	}
}

// ShortHelp is the one-line help under the input.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Send, k.Newline, k.Interrupt, k.CycleMode, k.TogglePanel, k.Expand, k.Quit}
}

// FullHelp is the /help page.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Send, k.Newline, k.Queue, k.Interrupt, k.Quit},
		{k.CycleMode, k.TogglePanel, k.ScrollUp, k.ScrollDown},
		{k.PrevTool, k.NextTool, k.Expand, k.OpenOutput, k.Copy, k.Mouse, k.Help},
	}
}
