package approval

import (
	"strings"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/ui/safetext"
)

// planReview shows the plan ExitPlanMode presents, rendered as Markdown:
// the plan is prose with lists and code, and is judged as a document.
type planReview struct{ text string }

func newPlanReview(req agent.ApprovalRequest) planReview {
	text := req.Decision.Message
	if strings.TrimSpace(text) == "" {
		text = inputString(req.Input, "plan")
	}
	return planReview{text: text}
}

// pins: a plan is a document to read, not a permission to scope.
func (p planReview) pins(int) pinned { return pinned{} }

func (p planReview) render(width int, _ shape) body {
	return body{lines: p.lines(width)}
}

func (p planReview) lines(width int) []string {
	if strings.TrimSpace(p.text) == "" {
		return []string{theme.Dim.Render("(the plan is empty)")}
	}
	r, err := glamour.NewTermRenderer(glamour.WithStyles(theme.Glamour()), glamour.WithWordWrap(width))
	if err != nil {
		return wrapText(p.text, width)
	}
	// Glamour passes escape sequences in the Markdown through; the plan is
	// model text like any other, so they are made visible first.
	out, err := r.Render(visibleKeepLines(p.text))
	if err != nil {
		return wrapText(p.text, width)
	}
	var lines []string
	for _, l := range strings.Split(strings.Trim(out, "\n"), "\n") {
		// Code blocks are not wrapped by glamour and can be wider than
		// the dialog; they are folded rather than cut.
		if ansi.StringWidth(l) > width {
			lines = append(lines, strings.Split(ansi.Hardwrap(l, width, true), "\n")...)
			continue
		}
		lines = append(lines, l)
	}
	// Glamour ends a document with blank margin lines.
	for len(lines) > 0 && strings.TrimSpace(ansi.Strip(lines[len(lines)-1])) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// visibleKeepLines escapes what would hide or reorder text line by line,
// keeping the line breaks the Markdown needs (tabs become spaces, as in
// visible). The escapes are
// plain text here: glamour would not pass styles inside Markdown through.
func visibleKeepLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.ReplaceAll(strings.TrimSuffix(l, "\r"), "\t", strings.Repeat(" ", tabWidth))
		lines[i] = safetext.Escape(l)
	}
	return strings.Join(lines, "\n")
}
