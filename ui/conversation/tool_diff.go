package conversation

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	xansi "github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/ui/format"
	"github.com/seed92b641c3/workbench/ui/safetext"
)

const (
	// diffCollapsedRows is how many rows of a diff a collapsed Edit shows:
	// a small change whole, the start of a large one.
	diffCollapsedRows = 6
	// diffCollapsedContext is how many unchanged lines stay around each
	// change in the collapsed view, so the few rows it has go to the change.
	diffCollapsedContext = 1
)

// diffKind is what a row of a diff is.
type diffKind byte

const (
	diffSame diffKind = ' '
	diffAdd  diffKind = '+'
	diffDel  diffKind = '-'
	diffGap  diffKind = '~' // lines left out between two hunks
)

// diffRow is one row of a diff as the conversation draws it.
type diffRow struct {
	kind diffKind
	num  int    // the line's number, in the new file (in the old for a removed line); 0 when unknown
	text string // safe to draw: tabs expanded, invisible characters marked
}

// editDiff is the change an Edit or MultiEdit made, ready to draw.
type editDiff struct {
	rows           []diffRow
	added, removed int
	numW           int // digits of the largest line number; 0 draws no numbers
}

// editRenderer shows an Edit's or MultiEdit's change as a coloured diff.
// The diff is the one the tool wrote into its result's Meta, taken from
// the file as it was and is, with real line numbers. A result without
// one (a resumed session keeps no Meta, a file too large to diff) is
// shown as the diff of the input's old and new strings, without line
// numbers, which are unknown then.
type editRenderer struct{}

// Body implements toolRenderer: the text the model received, for a result
// that has no diff to show.
func (editRenderer) Body(_ json.RawMessage, res tools.Result) string { return res.Text }

// Diff returns the change to draw, or nil for an error or a result that
// changed nothing that can be shown.
func (editRenderer) Diff(input json.RawMessage, res tools.Result) *editDiff {
	if res.IsError {
		return nil
	}
	if d := metaDiff(res); d != nil {
		return d
	}
	return diffOfInput(input)
}

// metaDiff is the diff a writing tool put in its result's Meta, or nil.
func metaDiff(res tools.Result) *editDiff {
	var meta struct {
		Diff string `json:"diff"`
	}
	if len(res.Meta) > 0 && json.Unmarshal(res.Meta, &meta) == nil && meta.Diff != "" {
		if d := parseUnified(meta.Diff); len(d.rows) > 0 {
			return d
		}
	}
	return nil
}

// writeRenderer shows a Write's change as Edit's is shown: the tool's diff
// of the file as it was against what the Write left (a new file's lines
// all added). A resumed call has no Meta: a Write that created its file
// shows its content as added, numbered from 1; one that overwrote a file
// shows the tool's own line, since what the file held before is not
// known then.
type writeRenderer struct{}

// Body implements toolRenderer: the tool's line, for a result without a
// diff to show (an unchanged file, a resumed overwrite).
func (writeRenderer) Body(_ json.RawMessage, res tools.Result) string { return res.Text }

// Diff implements diffSource.
func (writeRenderer) Diff(input json.RawMessage, res tools.Result) *editDiff {
	if res.IsError {
		return nil
	}
	if d := metaDiff(res); d != nil {
		return d
	}
	if !strings.HasPrefix(res.Text, writeCreated) {
		return nil
	}
	var in struct {
		Content string `json:"content"`
	}
	if json.Unmarshal(input, &in) != nil || in.Content == "" || len(in.Content) > maxWriteDiffBytes {
		return nil
	}
	if d := parseUnified(udiff.Unified("", "", "", in.Content)); len(d.rows) > 0 {
		return d
	}
	return nil
}

const (
	// writeCreated starts the result of a Write that made a new file
	// (tools/files), the one case a resumed Write's change is known.
	writeCreated = "Created "
	// maxWriteDiffBytes bounds the content a resumed Write is diffed
	// from, as the tool bounds the diff it records.
	maxWriteDiffBytes = 1 << 20
)

// diffSource is a renderer that draws its result as a diff.
type diffSource interface {
	Diff(input json.RawMessage, res tools.Result) *editDiff
}

// parseUnified reads a unified diff (file headers, "@@ -a,b +c,d @@" hunk
// headers, and lines marked ' ', '-' or '+') into rows. The file headers
// are left out: the call's own line names the file.
func parseUnified(text string) *editDiff {
	d := &editDiff{}
	inHunk := false
	old, cur := 0, 0
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if strings.HasPrefix(line, "@@") {
			o, n, ok := hunkStart(line)
			if !ok {
				continue
			}
			if inHunk {
				d.rows = append(d.rows, diffRow{kind: diffGap})
			}
			inHunk, old, cur = true, o, n
			continue
		}
		if !inHunk || line == "" {
			continue
		}
		body := diffText(line[1:])
		switch line[0] {
		case ' ':
			d.rows = append(d.rows, diffRow{kind: diffSame, num: cur, text: body})
			old++
			cur++
		case '-':
			d.rows = append(d.rows, diffRow{kind: diffDel, num: old, text: body})
			d.removed++
			old++
		case '+':
			d.rows = append(d.rows, diffRow{kind: diffAdd, num: cur, text: body})
			d.added++
			cur++
		}
	}
	// old and cur are one past the last line each side numbered.
	d.numW = len(strconv.Itoa(max(old, cur, 2) - 1))
	return d
}

// hunkStart reads the first old and new line numbers of a hunk header.
func hunkStart(h string) (old, cur int, ok bool) {
	var oldPart, newPart string
	if _, err := fmt.Sscanf(h, "@@ %s %s @@", &oldPart, &newPart); err != nil {
		return 0, 0, false
	}
	o, err1 := strconv.Atoi(strings.SplitN(strings.TrimPrefix(oldPart, "-"), ",", 2)[0])
	n, err2 := strconv.Atoi(strings.SplitN(strings.TrimPrefix(newPart, "+"), ",", 2)[0])
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	// An empty side is numbered from the line before, as diff -u writes it.
	return max(o, 1), max(n, 1), true
}

// diffOfInput diffs each replacement of an Edit or MultiEdit input, the
// edits one after another with a gap between them; nil when the input has
// none that changes anything.
func diffOfInput(input json.RawMessage) *editDiff {
	type replacement struct {
		Old string `json:"old_string"`
		New string `json:"new_string"`
	}
	var in struct {
		replacement
		Edits []replacement `json:"edits"`
	}
	if json.Unmarshal(input, &in) != nil {
		return nil
	}
	edits := in.Edits
	if len(edits) == 0 {
		edits = []replacement{in.replacement}
	}
	d := &editDiff{}
	for _, e := range edits {
		u, err := udiff.ToUnifiedDiff("", "", e.Old, udiff.Lines(e.Old, e.New), diffCollapsedContext)
		if err != nil {
			continue
		}
		for _, h := range u.Hunks {
			if len(d.rows) > 0 {
				d.rows = append(d.rows, diffRow{kind: diffGap})
			}
			for _, l := range h.Lines {
				row := diffRow{kind: diffSame, text: diffText(strings.TrimSuffix(l.Content, "\n"))}
				switch l.Kind {
				case udiff.Delete:
					row.kind = diffDel
					d.removed++
				case udiff.Insert:
					row.kind = diffAdd
					d.added++
				}
				d.rows = append(d.rows, row)
			}
		}
	}
	if len(d.rows) == 0 {
		return nil
	}
	return d
}

// diffText makes a line of file content safe to draw. Unlike tool output,
// a carriage return inside a line is shown (as \r), never obeyed: the line
// is the file's content, and what follows a CR must not hide what is
// before it. The CR of a CRLF line ending is not content.
func diffText(s string) string {
	s = strings.TrimSuffix(s, "\r")
	return safetext.Mark(strings.ReplaceAll(s, "\t", strings.Repeat(" ", tabWidth)))
}

// collapsed is the rows a collapsed call shows: all of a small diff, or
// the first rows of the diff with less context around each change. shown
// is how many of the full diff's lines are among them.
func (d *editDiff) collapsed() (rows []diffRow, shown int) {
	if len(d.rows) <= diffCollapsedRows {
		return d.rows, d.lines()
	}
	near := make([]bool, len(d.rows))
	for i, r := range d.rows {
		if r.kind != diffAdd && r.kind != diffDel {
			continue
		}
		for j := max(0, i-diffCollapsedContext); j <= min(len(d.rows)-1, i+diffCollapsedContext); j++ {
			near[j] = true
		}
	}
	skipped := false
	for i, r := range d.rows {
		if len(rows) == diffCollapsedRows {
			break
		}
		if !near[i] || r.kind == diffGap {
			skipped = true
			continue
		}
		if skipped && len(rows) > 0 {
			// A gap is only worth its row when a row of the diff follows.
			if len(rows)+2 > diffCollapsedRows {
				break
			}
			rows = append(rows, diffRow{kind: diffGap})
		}
		skipped = false
		rows = append(rows, r)
		shown++
	}
	return rows, shown
}

// lines is how many lines of the files the diff shows, gaps not counted.
func (d *editDiff) lines() int {
	n := 0
	for _, r := range d.rows {
		if r.kind != diffGap {
			n++
		}
	}
	return n
}

// summary is the line above the diff: how many lines went and came.
func (d *editDiff) summary() string {
	return theme.OK.Render("+"+format.Count(d.added)) + theme.Err.Render(" -"+format.Count(d.removed))
}

// draw lays rows out at width, each row's number in the gutter and its
// text after the sign; a wrapped row continues under its text (expanded)
// or is cut (collapsed). Added and removed rows carry their background to
// the end of the width, so a change reads as a band.
func (d *editDiff) draw(rows []diffRow, width int, wrap bool) []string {
	numW := d.numW
	var out []string
	for _, r := range rows {
		if r.kind == diffGap {
			out = append(out, theme.Dim.Render(clip(strings.Repeat(" ", numW)+" ⋯", width)))
			continue
		}
		num := ""
		if numW > 0 {
			num = fmt.Sprintf("%*d ", numW, r.num)
		}
		style := theme.Base
		switch r.kind {
		case diffAdd:
			style = theme.DiffAdd
		case diffDel:
			style = theme.DiffDel
		}
		textW := max(width-len(num)-2, 1)
		parts := []string{clip(r.text, textW)}
		if wrap {
			parts = wrapCells(r.text, textW)
		}
		for i, p := range parts {
			lead, sign := num, string(rune(r.kind))
			if i > 0 {
				lead, sign = strings.Repeat(" ", len(num)), "↪"
			}
			cell := sign + " " + p
			if r.kind != diffSame {
				cell = padCells(cell, textW+2)
			}
			out = append(out, theme.Dim.Render(lead)+style.Render(cell))
		}
	}
	return out
}

// wrapCells cuts a line into pieces of at most width cells, at any
// character: code is read as it is written, not reflowed at spaces.
func wrapCells(s string, width int) []string {
	if s == "" {
		return []string{""}
	}
	return strings.Split(xansi.Hardwrap(s, width, true), "\n")
}

// padCells fills s with spaces to width cells.
func padCells(s string, width int) string {
	if w := xansi.StringWidth(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}
