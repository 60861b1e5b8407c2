package approval

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/theme"
)

// commandPart is one simple command of a command line, as rules see it.
type commandPart struct {
	text    string
	covered bool // an allow rule already covers it
	broken  bool // the line does not parse; text is the whole line
	line    int  // which of the commands it comes from
}

// commandParts splits command lines into the parts rules are checked
// against, marking those covered already. A line that does not parse is one
// uncovered part: no rule can vouch for what it does.
func commandParts(commands []string, covered func(string) bool) []commandPart {
	var out []commandPart
	for i, c := range commands {
		parts, err := permission.SplitCommand(c)
		if err != nil {
			out = append(out, commandPart{text: c, broken: true, line: i})
			continue
		}
		for _, p := range parts {
			out = append(out, commandPart{text: p, covered: covered != nil && covered(p), line: i})
		}
	}
	return out
}

// commandReview shows a shell command whole, then, when it is made of
// several parts, each part with whether it needs approval: a person
// approving `git status && rm -rf build` must see that only the second part
// is new. The parts that need approval are also its pins, so they stay on
// screen however long the command is.
type commandReview struct {
	commands    []string
	parts       []commandPart
	writes      []string // files the redirections write (fileWrites)
	description string
	background  bool
	unsandboxed bool
}

func newCommandReview(req agent.ApprovalRequest, t permission.Target, opts Options) commandReview {
	var writes []string
	for _, c := range t.Commands {
		writes = append(writes, fileWrites(c)...)
	}
	return commandReview{
		commands:    t.Commands,
		parts:       commandParts(t.Commands, opts.Covered),
		writes:      writes,
		description: inputString(req.Input, "description"),
		background:  inputBool(req.Input, "run_in_background"),
		unsandboxed: inputBool(req.Input, "dangerouslyDisableSandbox"),
	}
}

// Column widths of the parts list.
const (
	partMarkWidth  = 2  // "▶ " or "✓ "
	partLabelWidth = 16 // "needs approval" and a gap
)

// partKey is the pin key of the i-th part.
func partKey(i int) string { return fmt.Sprintf("part %d", i) }

// broken reports whether some line does not parse, so it has no parts a
// person could check one by one.
func (c commandReview) broken() bool {
	for _, p := range c.parts {
		if p.broken {
			return true
		}
	}
	return false
}

// title names what the command runs and how big it is, so the first line a
// person reads is about the whole command, not its first line: "Bash wants
// to run echo, touch · 65 lines".
func (c commandReview) title(tool string, width int) string {
	size := commandSize(c.commands)
	if size != "" {
		size = " · " + size
	}
	lead := tool + " wants to run "
	if c.broken() {
		return lead + "a command that does not parse" + size
	}
	progs := programs(c.parts)
	if len(progs) == 0 {
		return lead + "a command" + size
	}
	// Leave programs out from the end, saying how many, rather than cut a
	// name in the middle.
	for k := len(progs); k >= 1; k-- {
		names := strings.Join(progs[:k], ", ")
		if k < len(progs) {
			names += fmt.Sprintf(" and %d more", len(progs)-k)
		}
		t := lead + names + size
		if k == 1 || ansi.StringWidth(visible(t)) <= width {
			return t
		}
	}
	return lead + size
}

// longLine is the length from which a one-line command's size is given in
// characters: shorter ones are read at a glance.
const longLine = 200

// commandSize is "65 lines", or "2,300 characters" for a long one-liner,
// or "" for a short one-liner.
func commandSize(commands []string) string {
	lines, chars := 0, 0
	for _, c := range commands {
		c = strings.TrimSuffix(c, "\n")
		lines += strings.Count(c, "\n") + 1
		chars += len([]rune(c))
	}
	switch {
	case lines > 1:
		return fmt.Sprintf("%s lines", thousands(lines))
	case chars >= longLine:
		return fmt.Sprintf("%s characters", thousands(chars))
	}
	return ""
}

// countLine says how many parts the command has and how many need
// approval: "2 commands; 2 need approval".
func (c commandReview) countLine() string {
	if c.broken() {
		return theme.Warn.Render("The command does not parse as shell: all of it needs approval")
	}
	need := 0
	for _, p := range c.parts {
		if !p.covered {
			need++
		}
	}
	line := fmt.Sprintf("%d %s; %d %s approval",
		len(c.parts), plural(len(c.parts), "command", "commands"), need, plural(need, "needs", "need"))
	if n := len(c.writes); n > 0 {
		line += fmt.Sprintf("; %d %s written", n, plural(n, "file", "files"))
	}
	return theme.Bold.Render(line)
}

// writeKey is the pin key of the i-th file a redirection writes.
func writeKey(i int) string { return fmt.Sprintf("write %d", i) }

// writeLine is a written file on one line, as pinned.
func writeLine(target string, width int) string {
	return truncate(theme.Warn.Render("✎ ")+theme.Dim.Render("writes ")+theme.Bold.Render(oneLine(target)), width)
}

func (c commandReview) pins(width int) pinned {
	p := pinned{
		head: []string{truncate(c.countLine(), width)},
		more: "need approval",
		all:  "Every command that needs approval",
	}
	for i, part := range c.parts {
		switch {
		case part.broken:
			p.all = "The whole command (it does not parse as shell)"
			p.items = append(p.items, pin{key: partKey(i), partial: true,
				lines: []string{pinnedPart(part.text, width)},
				wait:  theme.Warn.Render(truncate("⋯ all of it is below · y/s/a wait: scroll or p", width)),
				full:  c.commandLines(c.commands[part.line], width, true).lines})
		case !part.covered:
			p.items = append(p.items, pin{key: partKey(i),
				lines: []string{pinnedPart(part.text, width)},
				full:  listedPart(part.text, width)})
		}
	}
	for i, target := range c.writes {
		line := writeLine(target, width)
		p.items = append(p.items, pin{key: writeKey(i), lines: []string{line},
			full: wrapText("✎ writes "+target, width)})
	}
	return p
}

// oneLine shows text on one line, its line breaks as ↵.
func oneLine(s string) string {
	return strings.Join(splitLines(visible(s)), " ↵ ")
}

// pinnedPart is a part on one line: its line breaks shown as ↵, cut with
// an ellipsis when it is wider than the dialog.
func pinnedPart(text string, width int) string {
	var b strings.Builder
	b.WriteString(theme.Warn.Render("▶ "))
	for i, l := range splitLines(text) {
		if i > 0 {
			b.WriteString(theme.Dim.Render(" ↵ "))
		}
		b.WriteString(theme.Bold.Render(visible(l)))
	}
	return truncate(b.String(), width)
}

// listedPart is a part in full for the list of every part (p): marked as
// pinned, wrapped, never cut.
func listedPart(text string, width int) []string {
	lines := wrapText(text, max(1, width-partMarkWidth))
	for i, l := range lines {
		head := "  "
		if i == 0 {
			head = theme.Warn.Render("▶ ")
		}
		lines[i] = head + theme.Bold.Render(l)
	}
	return lines
}

// foldable reports whether the command has blank runs, wide gaps or
// here-documents folded into markers (x shows them).
func (c commandReview) foldable() bool {
	for _, cmd := range c.commands {
		for _, s := range foldCommand(cmd, false) {
			if s.marker != "" {
				return true
			}
		}
		if strings.Contains(visible(cmd), strings.Repeat(" ", gapFoldWidth)) {
			return true
		}
	}
	return false
}

func (c commandReview) render(width int, sh shape) body {
	var b body
	add := func(lines ...string) { b.lines = append(b.lines, lines...) }
	if c.description != "" {
		for _, l := range wrapText(c.description, width) {
			add(theme.Dim.Render(l))
		}
	}
	for i, cmd := range c.commands {
		from := len(b.lines)
		add(c.commandLines(cmd, width, sh.expanded).lines...)
		for j, p := range c.parts {
			if p.broken && p.line == i {
				b.anchor(partKey(j), from, len(b.lines))
			}
		}
	}
	if c.background {
		add(theme.Dim.Render(truncate("runs in the background", width)))
	}
	if c.unsandboxed {
		add(theme.Warn.Render(truncate("runs OUTSIDE the sandbox: it can write wherever you can and reach the network", width)))
	}
	if c.listParts(width, sh) {
		add("")
		for i, p := range c.parts {
			from := len(b.lines)
			add(c.renderPart(p, width)...)
			if !p.covered {
				b.anchor(partKey(i), from, len(b.lines))
			}
		}
		for i, target := range c.writes {
			from := len(b.lines)
			for _, l := range wrapText("✎ writes "+target, width) {
				add(theme.Warn.Render(l))
			}
			b.anchor(writeKey(i), from, len(b.lines))
		}
	}
	if c.broken() {
		add("")
		for _, l := range wrapText("This command does not parse as shell, so it cannot be split into parts and no rule can cover it.", width) {
			add(theme.Err.Render(l))
		}
	}
	return b
}

// listParts reports whether the body lists the parts: when some pin is not
// whole in the fixed part, when some part is already allowed (which the
// pins leave out), or when a pinned line cannot show a part whole (cut, or
// on several lines).
func (c commandReview) listParts(width int, sh shape) bool {
	if c.broken() || len(c.parts)+len(c.writes) == 0 {
		return false
	}
	if sh.repeat {
		return true
	}
	for _, p := range c.parts {
		if p.covered || strings.Contains(p.text, "\n") ||
			ansi.StringWidth(visible(p.text))+partMarkWidth > width {
			return true
		}
	}
	return false
}

// commandLines renders one command line as the body shows it: "$ " before
// the first line, wrapped, never cut; folded unless expanded.
func (c commandReview) commandLines(cmd string, width int, expanded bool) body {
	var b body
	textW := max(1, width-2)
	first := true
	for _, s := range foldCommand(cmd, expanded) {
		head := "  "
		if first {
			head = theme.Dim.Render("$ ")
		}
		first = false
		if s.marker != "" {
			b.lines = append(b.lines, head+theme.Dim.Render(truncate(s.marker, textW)))
			continue
		}
		for i, l := range wrapCode(s.text, textW, !expanded) {
			if i > 0 {
				head = "  "
			}
			b.lines = append(b.lines, head+theme.Bold.Render(l))
		}
	}
	return b
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

// thousands writes n with thousands separators, as sizes are read.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
