package approval

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// tabWidth is how many spaces a tab in reviewed text becomes, so columns
// line up and width arithmetic stays exact.
const tabWidth = 4

// visible makes text from the model or a file safe to show: control
// characters (escape sequences included) and bidirectional overrides are
// printed as visible codes instead of being interpreted by the terminal.
// Without this a command could hide part of itself from the person asked
// to approve it (an ESC sequence that erases the line, or a right-to-left
// override that reorders it).
func visible(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteString(strings.Repeat(" ", tabWidth))
		case r == '\r':
			// Line endings are not content a reviewer needs to see; a
			// lone CR in the middle of a line is shown.
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		case isBidiControl(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isBidiControl reports the characters that reorder how text is displayed
// (the "Trojan Source" set), which must never act inside reviewed text.
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) ||
		r == 0x200e || r == 0x200f || r == 0x061c
}

// splitLines splits text into lines without their line endings; a final
// line ending does not make an extra empty line.
func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// wrapText wraps plain (unstyled) text to width, breaking at spaces where
// it can and inside long words where it must: reviewed text is never cut
// off, because what is hidden cannot be reviewed.
func wrapText(s string, width int) []string {
	if width < 1 {
		width = 1
	}
	var out []string
	for _, l := range splitLines(s) {
		l = visible(l)
		if l == "" {
			out = append(out, "")
			continue
		}
		out = append(out, strings.Split(ansi.Wrap(l, width, ""), "\n")...)
	}
	return out
}

// hardWrap cuts plain text into pieces of exactly width cells (the last
// may be shorter), for code, where word breaks mean nothing.
func hardWrap(s string, width int) []string {
	if width < 1 {
		width = 1
	}
	if s == "" {
		return []string{""}
	}
	return strings.Split(ansi.Hardwrap(s, width, true), "\n")
}

// pad fills s with spaces to width cells, so a background colour spans
// the whole row.
func pad(s string, width int) string {
	if w := ansi.StringWidth(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

// truncate shortens a line that is not reviewed content (a title, a help
// line) to width cells.
func truncate(s string, width int) string {
	return ansi.Truncate(s, width, "…")
}
