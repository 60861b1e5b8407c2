package viewer

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/ui/safetext"
)

// safeName is a file name as the header shows it: control, bidi and
// zero-width characters as marked escapes (a name must not read as another
// one), and a name wider than room cut at the front with "…", since the
// end of a path says most.
func safeName(name string, room int) string {
	if ansi.StringWidth(safetext.Escape(name)) <= room {
		return safetext.Mark(name)
	}
	for i := range name {
		if rest := name[i:]; i > 0 && ansi.StringWidth(safetext.Escape(rest)) <= room-1 {
			return "…" + safetext.Mark(rest)
		}
	}
	return "…"
}
