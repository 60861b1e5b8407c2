package conversation

import (
	"charm.land/lipgloss/v2"

	"github.com/seed92b641c3/workbench/theme"
)

// renderCtx is what an item needs to draw itself.
type renderCtx struct {
	width    int
	md       *markdownRenderer
	hints    KeyHints
	selected bool
}

// item is one entry of the conversation. render returns its lines, each at
// most rc.width cells wide; the view caches them until the item changes or
// the width does, so render may be as slow as it needs to be.
type item interface {
	render(rc *renderCtx) []string
}

// expandable is an item the person can select and open up.
type expandable interface {
	item
	toggle()
}

// entry is an item with its render cache.
type entry struct {
	item  item
	lines []string
	width int // the width lines were rendered for; 0 when stale
}

func (e *entry) invalidate() { e.width = 0 }

// Prefixes that start the first line of an item, and the indent of the
// lines after it, so text lines up under the first character.
const (
	userPrefix = "› "
	indent     = "  "
)

// userItem is a message the person sent.
type userItem struct{ text string }

func (u *userItem) render(rc *renderCtx) []string {
	lines := wrapPlain(u.text, rc.width, indent, theme.UserMsg)
	if len(lines) > 0 {
		lines[0] = theme.Title.Render(userPrefix) + lines[0][len(indent):]
	}
	return lines
}

// noteItem is a line for the person that is not part of the dialogue: a
// hook's message, a retry, a task notification, or an error.
type noteItem struct {
	text   string
	prefix string
	// style returns the theme's style when the note is drawn, so a note
	// follows a change of palette.
	style func() lipgloss.Style
}

func (n *noteItem) render(rc *renderCtx) []string {
	style := n.style()
	lines := wrapPlain(n.text, rc.width, indent, style)
	if len(lines) > 0 && n.prefix != "" {
		lines[0] = style.Render(n.prefix) + lines[0][len(indent):]
	}
	return lines
}
