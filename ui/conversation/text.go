package conversation

import (
	"strings"
	"unicode"

	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/ui/safetext"
)

// sanitize makes text from outside (tool output, model text) safe to
// measure and draw: escape sequences are removed, tabs expanded, a carriage
// return keeps only what was written after it (a progress bar's last
// state), and other control characters are dropped. Escape sequences in tool
// output could otherwise move the cursor or recolour the whole screen.
// Bidi controls and zero-width characters are shown as marked escapes
// (safetext.Mark), so a command, file name or output line cannot read
// differently from what it is. Every piece of text from outside that the
// conversation draws comes through here, except finished Markdown, which
// the Markdown renderer marks the same way as it lays it out
// (ui/markdown, through safetext).
func sanitize(s string) string {
	if s == "" {
		return s
	}
	if strings.ContainsRune(s, '\x1b') {
		s = xansi.Strip(s)
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	clean := true
	for _, r := range s {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			clean = false
			break
		}
	}
	if clean {
		return safetext.Mark(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for line := range strings.SplitAfterSeq(s, "\n") {
		if i := strings.LastIndexByte(strings.TrimRight(line, "\r\n"), '\r'); i >= 0 {
			line = line[i+1:]
		}
		for _, r := range line {
			switch {
			case r == '\n':
				b.WriteByte('\n')
			case r == '\t':
				b.WriteString(strings.Repeat(" ", tabWidth))
			case unicode.IsControl(r):
			default:
				b.WriteRune(r)
			}
		}
	}
	return safetext.Mark(b.String())
}

// sanitizeName makes text that names what a call does (its command, its
// path) safe to draw, with nothing left out: unlike sanitize, a carriage
// return, a backspace or an escape sequence is shown as an escape (\r,
// \x08, \x1b) as the approval dialog shows it, since what a CR would hide
// in a command is what the command does. Tabs become spaces.
func sanitizeName(s string) string {
	return safetext.Mark(strings.ReplaceAll(s, "\t", " "))
}

// wrapPlain wraps text to width, puts indent before every line and styles
// each line on its own, so a line can be drawn without the lines around it.
// The text must be sanitized.
func wrapPlain(text string, width int, indent string, style lipgloss.Style) []string {
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		out = appendWrapped(out, line, width, indent, style)
	}
	return out
}

// appendWrapped appends one source line, wrapped, to out.
func appendWrapped(out []string, line string, width int, indent string, style lipgloss.Style) []string {
	avail := max(width-lipgloss.Width(indent), 1)
	if line == "" {
		return append(out, indent)
	}
	if xansi.StringWidth(line) <= avail {
		return append(out, indent+style.Render(line))
	}
	for part := range strings.SplitSeq(xansi.Wrap(line, avail, ""), "\n") {
		out = append(out, indent+style.Render(part))
	}
	return out
}

// clip cuts a single line to width cells, marking the cut with an
// ellipsis.
func clip(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if xansi.StringWidth(s) <= width {
		return s
	}
	return xansi.Truncate(s, width, "…")
}

// oneLine folds runs of whitespace, newlines included, into single spaces,
// for a summary that must fit on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
