package approval

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// choiceKeys are the keys of the approval dialog while a choice is being
// made. The help line is generated from them, so a key and its hint cannot
// disagree.
type choiceKeys struct {
	Yes      key.Binding
	Session  key.Binding
	Always   key.Binding
	No       key.Binding
	Edit     key.Binding
	Deny     key.Binding
	Next     key.Binding
	Prev     key.Binding
	Confirm  key.Binding
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
	List     key.Binding
	Expand   key.Binding
}

func newChoiceKeys() choiceKeys {
	return choiceKeys{
		Yes:      key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")),
		Session:  key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "session")),
		Always:   key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "always")),
		No:       key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "no")),
		Edit:     key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit")),
		Deny:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "deny, stop")),
		Next:     key.NewBinding(key.WithKeys("right", "tab", "l"), key.WithHelp("←/→", "choose")),
		Prev:     key.NewBinding(key.WithKeys("left", "shift+tab", "h")),
		Confirm:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "confirm")),
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", "scroll")),
		Down:     key.NewBinding(key.WithKeys("down", "j")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup/pgdn", "page")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d", "space")),
		Top:      key.NewBinding(key.WithKeys("home", "g")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G")),
		List:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "list all")),
		Expand:   key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "expand")),
	}
}

// feedbackKeys are the keys while the "tell the agent why" line is open.
type feedbackKeys struct {
	Send key.Binding
	Back key.Binding
}

func newFeedbackKeys() feedbackKeys {
	return feedbackKeys{
		Send: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send and deny")),
		Back: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	}
}

// editKeys are the keys while the input is being edited.
type editKeys struct {
	Save key.Binding
	Back key.Binding
}

func newEditKeys() editKeys {
	return editKeys{
		Save: key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "approve edited input")),
		Back: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "discard edit")),
	}
}

// questionKeys are the keys of the question dialog.
type questionKeys struct {
	Up      key.Binding
	Down    key.Binding
	Toggle  key.Binding
	Confirm key.Binding
	Next    key.Binding
	Prev    key.Binding
	Decline key.Binding
}

func newQuestionKeys() questionKeys {
	return questionKeys{
		Up:      key.NewBinding(key.WithKeys("up"), key.WithHelp("↑/↓", "move")),
		Down:    key.NewBinding(key.WithKeys("down")),
		Toggle:  key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "toggle")),
		Confirm: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "answer")),
		Next:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next question")),
		Prev:    key.NewBinding(key.WithKeys("shift+tab")),
		Decline: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "decline")),
	}
}

// matches reports whether a key press is one of b's keys.
func matches(msg tea.KeyPressMsg, b key.Binding) bool {
	return key.Matches(msg, b)
}

// HelpKeys are the approval dialog's answers as the help page (F1) lists
// them, with the difference between the two denials spelled out: Esc
// stops the turn so the person can say what to do instead, n lets the
// agent go on. The dialog's own hint line is generated from choiceKeys.
func HelpKeys() []key.Binding {
	k := newChoiceKeys()
	hint := func(b key.Binding, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, desc))
	}
	return []key.Binding{
		hint(k.Yes, "yes, run it"),
		hint(k.Session, "yes for this session"),
		hint(k.Always, "always (saved in settings)"),
		hint(k.No, "no, tell why; the agent goes on"),
		hint(k.Deny, "no, and stop the turn"),
		hint(k.Edit, "edit the input, then approve"),
	}
}
