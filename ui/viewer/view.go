package viewer

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/theme"
)

// Match styles: every match on screen is reversed, the current one takes
// the selection colour so n and N can be followed by eye.
var (
	matchStyle   = lipgloss.NewStyle().Reverse(true)
	currentStyle = theme.Selected
)

// Screen layout: two header lines and a footer around the text, dropped
// on a screen too small to hold them and some text.
const (
	headerLines  = 2
	footerLines  = 1
	minForHeader = 5 // below this height only the text and the footer are drawn
)

// View draws the viewer in exactly height lines of at most width cells:
// the file's name, size and line count; its provenance and sha256 check;
// the text; and a footer with the position, the mode, progress and key
// hints. It reads the rows it draws (a bounded window, see the package
// doc) and remembers the size and what it drew, which paging and search
// use.
func (v *Viewer) View(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	var lines []string
	body := height - footerLines
	if height >= minForHeader {
		body -= headerLines
		lines = append(lines, v.titleLine(width), v.provenanceLine(width))
	}
	if body > 0 {
		lines = append(lines, v.body(width, body)...)
	}
	lines = append(lines, v.footer(width))
	return strings.Join(lines, "\n")
}

// titleLine is the file's name, size and line count.
func (v *Viewer) titleLine(width int) string {
	info := " · " + humanBytes(v.size)
	if total, ok := v.totalLines(); ok {
		info += " · " + thousands(total) + plural(total, " line", " lines")
	} else if v.size > 0 {
		info += fmt.Sprintf(" · counting lines… %d%%", v.idx.scanned*100/v.size)
	}
	return fit(theme.Title.Render(safeName(v.name, width-ansi.StringWidth(info)))+theme.Dim.Render(info), width)
}

// provenanceLine is the sha256 verdict first (it must not be cut off),
// then the tool, call and time the file was written by.
func (v *Viewer) provenanceLine(width int) string {
	verdict, bad := v.prov.verdict()
	style := theme.Dim
	switch {
	case bad:
		style = theme.Err
	case v.prov.state == hashMatch:
		style = theme.OK
	}
	line := style.Render(verdict)
	if r := v.prov.rec; r != nil {
		var parts []string
		if r.Tool != "" {
			parts = append(parts, theme.ToolName.Render(r.Tool))
		}
		if r.CallID != "" {
			parts = append(parts, "call "+r.CallID)
		}
		if !r.Time.IsZero() {
			parts = append(parts, r.Time.Format("2006-01-02 15:04:05"))
		}
		// The recorded line count is left out: the title line has the
		// file's, and the record counts a final newline as one more line.
		parts = append(parts, "recorded "+humanBytes(r.Bytes))
		line += theme.Dim.Render(" · ") + strings.Join(parts, theme.Dim.Render(" · "))
	}
	return fit(line, width)
}

// body draws the rows from the top of the screen.
func (v *Viewer) body(width, height int) []string {
	if v.width != width {
		v.subMemo.row = -1
	}
	v.width, v.bodyH = width, height
	if v.follow {
		v.top, v.topSub = v.bottom(height)
	}
	v.maxCols = 0
	out := make([]string, 0, height)
	sub, r := v.topSub, v.top
	for ; len(out) < height && r < v.size; sub = 0 {
		styled, end := v.rowText(r, true)
		marks := v.marks(r)
		v.maxCols = max(v.maxCols, ansi.StringWidth(styled))
		if v.wrap {
			subs := wrapRow(styled, width)
			sub = min(sub, len(subs)-1)
			col := 0
			for _, l := range subs[:sub] {
				col += ansi.StringWidth(l)
			}
			for ; sub < len(subs) && len(out) < height; sub++ {
				w := ansi.StringWidth(subs[sub])
				out = append(out, fit(paint(subs[sub], clip(marks, col, col+width)), width))
				col += w
			}
		} else {
			line := ansi.Cut(styled, v.xoff, v.xoff+width)
			out = append(out, fit(paint(line, clip(marks, v.xoff, v.xoff+width)), width))
		}
		r = end
	}
	v.shownEnd = r
	for len(out) < height {
		out = append(out, "")
	}
	return out
}

// marks are the columns of the search matches in row r, painted in their
// styles.
func (v *Viewer) marks(r int64) []paintRange {
	s := &v.search
	if s.re == nil {
		return nil
	}
	vis, _ := v.rowText(r, false)
	var out []paintRange
	col, prev := 0, 0
	for _, m := range s.matches(vis) {
		col += ansi.StringWidth(vis[prev:m[0]])
		c0 := col
		col += ansi.StringWidth(vis[m[0]:m[1]])
		prev = m[1]
		style := matchStyle
		if s.found && s.cur.row == r && s.cur.start == m[0] {
			style = currentStyle
		}
		out = append(out, paintRange{c0, col, style})
	}
	return out
}

// clip keeps the parts of ranges inside the columns [lo, hi), shifted so
// lo is column 0.
func clip(ranges []paintRange, lo, hi int) []paintRange {
	var out []paintRange
	for _, r := range ranges {
		a, b := max(r.a, lo), min(r.b, hi)
		if a < b {
			out = append(out, paintRange{a - lo, b - lo, r.style})
		}
	}
	return out
}

// colsOf turns bytes [start, end) of a visible text into columns.
func colsOf(vis string, start, end int) (int, int) {
	start, end = min(start, len(vis)), min(end, len(vis))
	c0 := ansi.StringWidth(vis[:start])
	return c0, c0 + ansi.StringWidth(vis[start:end])
}

// subAt returns which of a wrapped row's lines holds column col.
func subAt(lines []string, col int) int {
	for i, l := range lines {
		w := ansi.StringWidth(l)
		if col < w {
			return i
		}
		col -= w
	}
	return max(0, len(lines)-1)
}

// footer is the prompt, or what is going on (a search, a message), and the
// position in the file.
func (v *Viewer) footer(width int) string {
	right := theme.StatusBar.Render(v.position())
	var left string
	switch {
	case v.mode != browsing:
		v.input.SetWidth(max(1, width-ansi.StringWidth(right)-3))
		left = v.input.View()
	case v.search.active:
		left = theme.Warn.Render(fmt.Sprintf("searching for %q… %d%% · esc stops", v.search.pattern, v.searchProgress()))
	case v.gotoLine > 0:
		left = theme.Warn.Render(fmt.Sprintf("going to line %s… counting lines %d%% · esc stops",
			thousands(v.gotoLine), v.idx.scanned*100/max(1, v.size)))
	case v.msg != "":
		style := theme.Dim
		if v.msgBad {
			style = theme.Err
		}
		left = style.Render(v.msg)
	case v.err != nil:
		left = theme.Err.Render("read error: " + v.err.Error())
	}
	room := width - ansi.StringWidth(right) - 1
	if left == "" {
		left = theme.StatusBar.Render(v.keys.hintLine(room))
	}
	if room < 1 {
		return fit(right, width)
	}
	if ansi.StringWidth(left) > room {
		left = ansi.Truncate(left, room, "…") // a cut message must not read as a whole one
	}
	left = fit(left, room)
	gap := width - ansi.StringWidth(left) - ansi.StringWidth(right)
	return fit(left+strings.Repeat(" ", max(1, gap))+right, width)
}

// position is where the screen is: the top line's number, the line count,
// how far through the file the bottom of the screen is, and the modes.
func (v *Viewer) position() string {
	var b strings.Builder
	if n, ok := v.lineAt(v.top); ok {
		b.WriteString("line " + thousands(n+1))
	} else {
		b.WriteString("line ?")
	}
	if total, ok := v.totalLines(); ok {
		b.WriteString(" of " + thousands(total))
	}
	if v.size > 0 {
		fmt.Fprintf(&b, " · %d%%", v.shownPercent())
	}
	if v.wrap {
		b.WriteString(" · wrap")
	} else if v.xoff > 0 {
		fmt.Fprintf(&b, " · col %d", v.xoff+1)
	}
	if v.follow {
		b.WriteString(" · follow")
	}
	return b.String()
}

// onScreen reports whether any of row r is on screen.
func (v *Viewer) onScreen(r int64) bool {
	for _, d := range v.screenRows() {
		if d.row == r {
			return true
		}
	}
	return false
}

// shown reports whether line sub of row r is on screen.
func (v *Viewer) shown(r int64, sub int) bool {
	for _, d := range v.screenRows() {
		if d.row == r {
			return sub >= d.from && sub < d.to
		}
	}
	return false
}

// screenRows lists the rows the screen shows at the current position (and
// with wrap, which of their lines), as the next View will draw them.
func (v *Viewer) screenRows() []screenRow {
	var out []screenRow
	lines, sub := 0, v.topSub
	for r := v.top; lines < v.bodyH && r < v.size; sub = 0 {
		n := 1
		if v.wrap {
			n = v.subCount(r)
		}
		to := min(n, sub+v.bodyH-lines)
		out = append(out, screenRow{r, sub, to})
		lines += to - sub
		r = v.rowEnd(r)
	}
	return out
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
