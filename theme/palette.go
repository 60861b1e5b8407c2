package theme

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Palette is one set of colours for the whole UI. There are two, Dark and
// Light, because no single set of colours reads on both a black and a white
// terminal: a grey that is quiet on black is invisible on white, and a
// yellow that warns on black cannot be read on white.
//
// Body text has no colour of its own: it is drawn in the terminal's own
// foreground, the one pair of colours the person is sure to be able to
// read, and no palette forces a background behind text. Only marks that
// are a colour pair by nature (a selection, a diff line) carry one.
type Palette struct {
	// Name is "dark" or "light", as the theme setting spells it.
	Name string
	// Backgrounds are typical terminal backgrounds the palette is made
	// for (plain black or white first, then common themes). The contrast
	// test holds every text colour to WCAG AA against each of them.
	Backgrounds []color.Color

	Accent     color.Color // focus, titles, key hints
	Muted      color.Color // secondary text, durations
	Subtle     color.Color // borders, separators (not text)
	Success    color.Color // ok, allowed, approved
	Warning    color.Color // ask, pending approval
	Danger     color.Color // error, denied, blocked
	Info       color.Color // running, tool names
	SelectedFg color.Color // the selected line's text ...
	SelectedBg color.Color // ... on its own background
	Added      color.Color // diff: added lines ...
	AddedBg    color.Color // ... on their own background
	Removed    color.Color // diff: removed lines ...
	RemovedBg  color.Color // ... on their own background
}

// Dark is the palette for a dark terminal background.
var Dark = Palette{
	Name:        "dark",
	Backgrounds: colors("#000000", "#1E1E1E", "#282C34"),
	Accent:      lipgloss.Color("#A78BFA"),
	Muted:       lipgloss.Color("#A1A1AA"),
	Subtle:      lipgloss.Color("#7C7C85"),
	Success:     lipgloss.Color("#4ADE80"),
	Warning:     lipgloss.Color("#FACC15"),
	Danger:      lipgloss.Color("#F87171"),
	Info:        lipgloss.Color("#60A5FA"),
	SelectedFg:  lipgloss.Color("#FFFFFF"),
	SelectedBg:  lipgloss.Color("#5B3CC4"),
	Added:       lipgloss.Color("#22C55E"),
	AddedBg:     lipgloss.Color("#12361F"),
	Removed:     lipgloss.Color("#EF4444"),
	RemovedBg:   lipgloss.Color("#2A0F0F"),
}

// Light is the palette for a light terminal background.
var Light = Palette{
	Name:        "light",
	Backgrounds: colors("#FFFFFF", "#FDF6E3", "#EEEEEE"),
	Accent:      lipgloss.Color("#5B3CC4"),
	Muted:       lipgloss.Color("#5F5F66"),
	Subtle:      lipgloss.Color("#808088"),
	Success:     lipgloss.Color("#116329"),
	Warning:     lipgloss.Color("#8A5A00"),
	Danger:      lipgloss.Color("#B91C1C"),
	Info:        lipgloss.Color("#0550AE"),
	SelectedFg:  lipgloss.Color("#FFFFFF"),
	SelectedBg:  lipgloss.Color("#5B3CC4"),
	Added:       lipgloss.Color("#116329"),
	AddedBg:     lipgloss.Color("#DAFBE1"),
	Removed:     lipgloss.Color("#A40E26"),
	RemovedBg:   lipgloss.Color("#FFEBE9"),
}

func colors(hex ...string) []color.Color {
	out := make([]color.Color, len(hex))
	for i, h := range hex {
		out[i] = lipgloss.Color(h)
	}
	return out
}

// Names are the values of the theme setting and --theme.
var Names = []string{"auto", "dark", "light"}

// ByName returns the palette a theme name chooses; ok is false for "auto"
// and for unknown names, which the caller resolves or reports.
func ByName(name string) (p Palette, ok bool) {
	switch name {
	case "dark":
		return Dark, true
	case "light":
		return Light, true
	}
	return Palette{}, false
}

// Valid reports whether name is a theme setting value.
func Valid(name string) bool {
	return name == "auto" || name == "dark" || name == "light"
}
