package ui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/seed92b641c3/workbench/theme"
)

// applyThemeSetting puts an explicit theme ("dark", "light") in place
// before the first frame. For "auto" (or no setting) it keeps the palette
// the host guessed (theme.Use before New, from COLORFGBG say) until the
// terminal reports its background.
func (m *Model) applyThemeSetting() {
	if p, ok := theme.ByName(m.cfg.Theme); ok {
		m.usePalette(p)
	}
	m.help.Styles = helpStyles()
}

// themeAuto reports whether the palette follows the terminal's background.
func (m *Model) themeAuto() bool {
	_, explicit := theme.ByName(m.cfg.Theme)
	return !explicit
}

// requestBackground asks the terminal for its background colour when the
// theme follows it; the answer arrives as a tea.BackgroundColorMsg.
func (m *Model) requestBackground() tea.Cmd {
	if !m.themeAuto() {
		return nil
	}
	return tea.RequestBackgroundColor
}

// onBackground chooses the palette for the background the terminal
// reported, unless a theme was set explicitly.
func (m *Model) onBackground(msg tea.BackgroundColorMsg) {
	if !m.themeAuto() {
		return
	}
	if msg.IsDark() {
		m.usePalette(theme.Dark)
	} else {
		m.usePalette(theme.Light)
	}
}

// usePalette switches the theme and makes every component that caches
// rendered text draw again in the new colours.
func (m *Model) usePalette(p theme.Palette) {
	if theme.Current().Name == p.Name {
		return
	}
	theme.Use(p)
	m.conv.Restyle()
	m.panel.Restyle()
	m.input.ta.SetStyles(inputStyles())
	m.help.Styles = helpStyles()
}

// helpStyles are the key hints' styles in the current palette (the help
// component's defaults are fixed greys made for a dark background).
func helpStyles() help.Styles {
	key := theme.Dim.Bold(true)
	return help.Styles{
		Ellipsis: theme.Dim, ShortKey: key, ShortDesc: theme.Dim, ShortSeparator: theme.Dim,
		FullKey: key, FullDesc: theme.Dim, FullSeparator: theme.Dim,
	}
}

// inputStyles are the input's styles in the current palette. The
// textarea's own defaults paint the cursor line black (or white), a
// background forced behind the person's text; these set none: the text is
// the terminal's, the prompt and placeholder take the palette's colours,
// and the cursor is a steady block in the terminal's foreground (a
// blinking one redraws the whole screen twice a second while nothing
// happens: idle cost, issue 15).
func inputStyles() textarea.Styles {
	s := textarea.DefaultStyles(theme.Current().Name == "dark")
	for _, st := range []*textarea.StyleState{&s.Focused, &s.Blurred} {
		*st = textarea.StyleState{
			Base:        lipgloss.NewStyle(),
			Text:        lipgloss.NewStyle(),
			CursorLine:  lipgloss.NewStyle(),
			LineNumber:  theme.Dim,
			EndOfBuffer: theme.Dim,
			Placeholder: theme.Dim,
			Prompt:      theme.Title,
			Selection:   theme.Selected,
		}
	}
	s.Blurred.Text = theme.Dim
	s.Blurred.CursorLine = theme.Dim
	s.Blurred.Prompt = theme.Dim
	s.Cursor.Color = lipgloss.NoColor{}
	s.Cursor.Blink = false
	return s
}
