package approval

import (
	"strings"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/ui/markdown"
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
	// The plan is model text like any other: the renderer shows every
	// character that could act on the terminal or hide as a marked
	// escape, as the conversation does. The plan is set in by a margin,
	// so the document reads apart from the dialog's own lines.
	lines := markdown.Render(p.text, max(width-len(planMargin), 1))
	for i, l := range lines {
		if l != "" {
			lines[i] = planMargin + l
		}
	}
	return lines
}

// planMargin indents the plan under the dialog's title and reason.
const planMargin = "  "
