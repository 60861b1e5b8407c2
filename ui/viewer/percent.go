package viewer

import "github.com/seed92b641c3/workbench/ui/format"

// shownPercent is how far through the file the bottom of the screen is:
// by lines once the line index has reached the end (so a file of short
// lines and a few long ones reads as the person counts it), by bytes
// until then. 100% only when the last line is on screen.
func (v *Viewer) shownPercent() int {
	if v.shownEnd >= v.size {
		return 100
	}
	if total, ok := v.totalLines(); ok && total > 0 {
		if done, ok := v.lineAt(v.shownEnd); ok {
			return min(format.Percent(done, total), 99)
		}
	}
	return min(format.Percent(v.shownEnd, v.size), 99)
}
