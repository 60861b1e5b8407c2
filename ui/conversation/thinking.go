package conversation

import (
	"fmt"
	"strings"

	"github.com/seed92b641c3/workbench/theme"
)

// thinkingSymbol marks a thinking block.
const thinkingSymbol = "∴"

// thinkingItem is the model's thinking. It is collapsed to one line by
// default, since it is long and mostly of interest when something went
// wrong; the person can select and expand it like a tool call.
type thinkingItem struct {
	text     strings.Builder
	done     bool
	expanded bool
}

func (t *thinkingItem) toggle() { t.expanded = !t.expanded }

func (t *thinkingItem) render(rc *renderCtx) []string {
	text := strings.TrimSpace(sanitize(t.text.String()))
	label := "Thinking"
	if !t.done {
		label = "Thinking…"
	}
	var hint string
	switch {
	case t.expanded && rc.hints.Expand != "":
		hint = fmt.Sprintf(" (%s to collapse)", rc.hints.Expand)
	case !t.expanded:
		hint = " · " + plural(lineCount(text), "line")
		if rc.hints.Expand != "" {
			hint += fmt.Sprintf(" (%s to expand)", rc.hints.Expand)
		}
	}
	style := theme.Dim
	if rc.selected {
		style = theme.Selected
	}
	head := clip(theme.Dim.Render(thinkingSymbol+" ")+style.Render(label)+theme.Dim.Render(hint), rc.width)
	if !t.expanded || text == "" {
		return []string{head}
	}
	return append([]string{head}, wrapPlain(text, rc.width, indent, theme.Dim)...)
}
