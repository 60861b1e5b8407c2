package approval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/ui/safetext"
)

// tabWidth is how many spaces a tab in reviewed text becomes, so columns
// line up and width arithmetic stays exact.
const tabWidth = 4

// visible makes text from the model or a file safe to show: tabs become
// spaces, and control characters (escape sequences included), bidi
// controls and zero-width characters are shown as marked escapes
// (safetext.Mark) instead of being interpreted by the terminal or hiding.
// Without this a command could hide part of itself from the person asked
// to approve it (an ESC sequence that erases the line, or a right-to-left
// override that reorders it).
func visible(s string) string {
	return safetext.Mark(strings.ReplaceAll(s, "\t", strings.Repeat(" ", tabWidth)))
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

// hiddenIn lists the escapes of the characters in a tool input that would
// hide or reorder text (safetext.Found over every string in it, keys
// included), so the dialog can warn before the person reads it.
func hiddenIn(in []byte) []string {
	var found []string
	seen := map[string]bool{}
	add := func(s string) {
		for _, e := range safetext.Found(s) {
			if !seen[e] {
				seen[e] = true
				found = append(found, e)
			}
		}
	}
	// Tokens come in input order, so the warning names what it finds in
	// the order the person will meet it.
	dec := json.NewDecoder(bytes.NewReader(in))
	for {
		t, err := dec.Token()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				add(string(in)) // not JSON: look at the bytes as they are
			}
			return found
		}
		if s, ok := t.(string); ok {
			add(s)
		}
	}
}

// maxNamedHidden is how many distinct hidden characters the warning names;
// past it the warning says how many more.
const maxNamedHidden = 4

// hiddenWarning is the warning for the hidden characters found.
func hiddenWarning(found []string) string {
	named := found[:min(len(found), maxNamedHidden)]
	s := "⚠ Invisible characters in the input, shown marked: " + strings.Join(named, " ")
	if n := len(found) - len(named); n > 0 {
		s += fmt.Sprintf(" and %d more", n)
	}
	return s
}

// wrapPath wraps a line that names a file path like wrapText, except that
// a word too long for the rest of the line (the path) is broken only after
// a "/", so no file or directory name is split ("proj-" above
// "f642065e816f/settings.json"); a single name wider than width is cut.
func wrapPath(s string, width int) []string {
	width = max(width, 1)
	var out []string
	line := ""
	flush := func() {
		if line != "" {
			out = append(out, line)
			line = ""
		}
	}
	for _, word := range strings.Fields(visible(s)) {
		sep := ""
		if line != "" {
			sep = " "
		}
		if ansi.StringWidth(line+sep+word) <= width {
			line += sep + word
			continue
		}
		if ansi.StringWidth(word) <= width {
			flush()
			line = word
			continue
		}
		for _, part := range strings.SplitAfter(word, "/") {
			if part == "" {
				continue
			}
			if ansi.StringWidth(line+sep+part) > width {
				flush()
				sep = ""
			}
			for ansi.StringWidth(part) > width {
				out = append(out, ansi.Truncate(part, width, ""))
				part = ansi.TruncateLeft(part, width, "")
			}
			line += sep + part
			sep = ""
		}
	}
	flush()
	return out
}
