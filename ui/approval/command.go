package approval

import (
	"strings"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/theme"
)

// commandPart is one simple command of a command line, as rules see it.
type commandPart struct {
	text    string
	covered bool // an allow rule already covers it
	broken  bool // the line does not parse; text is the whole line
}

// commandParts splits command lines into the parts rules are checked
// against, marking those covered already. A line that does not parse is one
// uncovered part: no rule can vouch for what it does.
func commandParts(commands []string, covered func(string) bool) []commandPart {
	var out []commandPart
	for _, c := range commands {
		parts, err := permission.SplitCommand(c)
		if err != nil {
			out = append(out, commandPart{text: c, broken: true})
			continue
		}
		for _, p := range parts {
			out = append(out, commandPart{text: p, covered: covered != nil && covered(p)})
		}
	}
	return out
}

// commandReview shows a shell command whole, then, when it is made of
// several parts, each part with whether it needs approval: a person
// approving `git status && rm -rf build` must see that only the second part
// is new.
type commandReview struct {
	commands    []string
	parts       []commandPart
	description string
	background  bool
}

func newCommandReview(req agent.ApprovalRequest, t permission.Target, opts Options) commandReview {
	return commandReview{
		commands:    t.Commands,
		parts:       commandParts(t.Commands, opts.Covered),
		description: inputString(req.Input, "description"),
		background:  inputBool(req.Input, "run_in_background"),
	}
}

// Column widths of the parts list.
const (
	partMarkWidth  = 2  // "▶ " or "✓ "
	partLabelWidth = 16 // "needs approval" and a gap
)

func (c commandReview) render(width int) []string {
	var out []string
	if c.description != "" {
		for _, l := range wrapText(c.description, width) {
			out = append(out, theme.Dim.Render(l))
		}
	}
	for _, cmd := range c.commands {
		for i, l := range wrapText(cmd, max(1, width-2)) {
			head := "  "
			if i == 0 {
				head = theme.Dim.Render("$ ")
			}
			out = append(out, head+theme.Bold.Render(l))
		}
	}
	if c.background {
		out = append(out, theme.Dim.Render(truncate("runs in the background", width)))
	}
	if c.showParts() {
		out = append(out, "")
		for _, p := range c.parts {
			out = append(out, c.renderPart(p, width)...)
		}
	}
	for _, p := range c.parts {
		if p.broken {
			out = append(out, "")
			for _, l := range wrapText("This command does not parse as shell, so it cannot be split into parts and no rule can cover it.", width) {
				out = append(out, theme.Err.Render(l))
			}
			break
		}
	}
	return out
}

// showParts reports whether the parts list tells the person anything the
// command line does not: several parts, or one that differs from the line
// (a `bash -c` script, a leading VAR=x).
func (c commandReview) showParts() bool {
	if len(c.parts) > 1 {
		return true
	}
	return len(c.parts) == 1 && len(c.commands) == 1 && !c.parts[0].broken &&
		strings.TrimSpace(c.parts[0].text) != strings.TrimSpace(c.commands[0])
}

func (c commandReview) renderPart(p commandPart, width int) []string {
	mark, label, st := "▶ ", "needs approval", theme.Warn
	if p.covered {
		mark, label, st = "✓ ", "allowed", theme.Dim
	}
	indent := partMarkWidth + partLabelWidth
	lines := wrapText(p.text, max(1, width-indent))
	for i, l := range lines {
		head := strings.Repeat(" ", indent)
		if i == 0 {
			head = st.Render(mark + pad(label, partLabelWidth))
		}
		lines[i] = head + st.Render(l)
	}
	return lines
}
