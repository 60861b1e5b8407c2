package approval

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/ui/format"
)

const (
	// maxDiffBytes is the largest file diffed in the dialog; past it the
	// diff costs more than it helps, and the edits are shown on their own.
	maxDiffBytes = 1 << 20
	// diffContext is how many unchanged lines surround each change.
	diffContext = 3
	// splitMinWidth is the dialog width (border included) from which the
	// diff is shown side by side: below it each side is too narrow to read.
	splitMinWidth = 140
	// splitGap is the columns between the sides of a split diff.
	splitGap = 3
)

// edit is one replacement of an Edit or MultiEdit input.
type edit struct {
	Old string `json:"old_string"`
	New string `json:"new_string"`
	All bool   `json:"replace_all"`
}

// fileReview shows what a file tool would do to the file as it is on disk:
// a coloured diff of the current content against the content after the
// input is applied, unified, or split when the dialog is wide.
type fileReview struct {
	shown  string // the path as the person thinks of it
	exists bool
	notes  []string // warnings shown above the diff
	hunks  []*udiff.Hunk
	labels []string // the line above each hunk
	// snippets is set when the hunks diff each edit's texts rather than
	// the file, so line numbers would be meaningless and are left out.
	snippets bool
	added    int
	removed  int
	numW     int // digits of the largest line number
	// write is set for a Write, whose size is the content's lines and
	// bytes; edits counts the replacements of an Edit or MultiEdit.
	write        bool
	lines, bytes int
	edits        int
	// laidOut is the diff at width laidOutW (diffLines).
	laidOut  []string
	laidOutW int
}

func newFileReview(req agent.ApprovalRequest, opts Options) *fileReview {
	path := inputString(req.Input, "file_path")
	f := &fileReview{shown: shownPath(path, opts.WorkDir), exists: true}
	var old string
	data, err := opts.ReadFile(absPath(path, opts.WorkDir))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f.exists = false
	case err != nil:
		f.note("The file could not be read (%v), so the diff is against an empty file.", err)
	case len(data) > maxDiffBytes:
		f.note("The file is %s, too large to diff here; only the edits are shown.", format.Bytes(int64(len(data))))
		f.countInput(req)
		f.diffEdits(req)
		return f
	default:
		old = string(data)
	}
	edits, write := editsOf(req)
	f.countInput(req)
	var updated string
	if write {
		updated = inputString(req.Input, "content")
	} else {
		var failed bool
		updated, failed = f.applyAll(old, edits)
		if failed {
			f.diffEdits(req)
			return f
		}
	}
	if strings.ContainsRune(old, 0) || strings.ContainsRune(updated, 0) {
		f.note("The content is binary; no diff is shown.")
		return f
	}
	f.diff(old, updated, "")
	return f
}

// countInput records the size of the input for the pinned size line.
func (f *fileReview) countInput(req agent.ApprovalRequest) {
	edits, write := editsOf(req)
	f.write, f.edits = write, len(edits)
	if write {
		content := inputString(req.Input, "content")
		f.bytes = len(content)
		if content != "" {
			f.lines = strings.Count(strings.TrimSuffix(content, "\n"), "\n") + 1
		}
	}
}

// editsOf returns the replacements of an Edit or MultiEdit input, or
// write=true for a Write.
func editsOf(req agent.ApprovalRequest) (edits []edit, write bool) {
	switch req.Tool {
	case "Write":
		return nil, true
	case "MultiEdit":
		var in struct {
			Edits []edit `json:"edits"`
		}
		_ = json.Unmarshal(rawOr(req.Input), &in)
		return in.Edits, false
	}
	var e edit
	_ = json.Unmarshal(rawOr(req.Input), &e)
	return []edit{e}, false
}

// applyAll applies the edits in order as the tool would, noting the first
// that would fail (the tool then refuses the whole call).
func (f *fileReview) applyAll(content string, edits []edit) (string, bool) {
	for i, e := range edits {
		next, err := applyEdit(content, e)
		if err != nil {
			which := "The edit"
			if len(edits) > 1 {
				which = fmt.Sprintf("Edit %d of %d", i+1, len(edits))
			}
			f.note("%s does not apply to the file on disk (%v), so the tool will refuse it; the replacements are shown on their own.", which, err)
			return "", true
		}
		content = next
	}
	return content, false
}

// applyEdit performs one replacement the way the Edit tool does: the texts
// take the file's line endings first, and an edit matching more than once
// needs replace_all.
func applyEdit(content string, e edit) (string, error) {
	if e.Old == "" {
		if content != "" {
			return "", errors.New("old_string is empty but the file is not")
		}
		return e.New, nil
	}
	from, to := e.Old, e.New
	if crlf := strings.Count(content, "\r\n"); crlf > 0 && crlf*2 >= strings.Count(content, "\n") {
		from = strings.ReplaceAll(strings.ReplaceAll(from, "\r\n", "\n"), "\n", "\r\n")
		to = strings.ReplaceAll(strings.ReplaceAll(to, "\r\n", "\n"), "\n", "\r\n")
		if !strings.Contains(content, from) {
			from, to = e.Old, e.New
		}
	}
	switch n := strings.Count(content, from); {
	case n == 0:
		return "", errors.New("old_string is not in the file")
	case n > 1 && !e.All:
		return "", fmt.Errorf("old_string occurs %d times and replace_all is not set", n)
	case e.All:
		return strings.ReplaceAll(content, from, to), nil
	}
	return strings.Replace(content, from, to, 1), nil
}

// diffEdits shows each replacement as a diff of its own texts, when the file
// cannot be diffed as a whole.
func (f *fileReview) diffEdits(req agent.ApprovalRequest) {
	f.snippets = true
	edits, write := editsOf(req)
	if write {
		f.diff("", inputString(req.Input, "content"), "new content")
		return
	}
	for i, e := range edits {
		label := "old_string → new_string"
		if len(edits) > 1 {
			label = fmt.Sprintf("edit %d of %d: old_string → new_string", i+1, len(edits))
		}
		f.diff(e.Old, e.New, label)
	}
}

func (f *fileReview) note(format string, args ...any) {
	f.notes = append(f.notes, fmt.Sprintf(format, args...))
}

// diff adds the hunks turning old into updated, each under label, or under
// its "@@ -a,b +c,d @@" position when label is empty.
func (f *fileReview) diff(old, updated, label string) {
	u, err := udiff.ToUnifiedDiff("old", "new", old, udiff.Lines(old, updated), diffContext)
	if err != nil {
		f.note("The diff could not be computed: %v.", err)
		return
	}
	for _, h := range u.Hunks {
		o, n := h.FromLine, h.ToLine
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Delete:
				f.removed++
				o++
			case udiff.Insert:
				f.added++
				n++
			default:
				o++
				n++
			}
		}
		if !f.snippets {
			f.numW = max(f.numW, len(fmt.Sprint(max(o, n))))
		}
		f.hunks = append(f.hunks, h)
		if label == "" {
			f.labels = append(f.labels, hunkHeader(h))
		} else {
			f.labels = append(f.labels, label)
		}
	}
}

// pathKey is the pin key of a file tool's path.
const pathKey = "path"

// pins are the path, in full, and the size of the change: a diff thousands
// of lines long must not push what file it writes out of sight.
func (f *fileReview) pins(width int) pinned {
	return pinned{items: []pin{{key: pathKey, lines: f.pathLines(width), full: f.pathLines(width)}},
		tail: []string{f.sizeLine(width)}, more: "lines of the path", all: "The whole path"}
}

// pathLines is the path wrapped, never cut, marked when the file is new.
func (f *fileReview) pathLines(width int) []string {
	head := f.shown
	if !f.exists {
		head += "  (new file)"
	}
	var out []string
	for _, l := range wrapText(head, width) {
		out = append(out, theme.Bold.Render(l))
	}
	return out
}

// sizeLine says how big the change is: the lines and bytes a Write
// writes, the number of edits, and the lines added and removed.
func (f *fileReview) sizeLine(width int) string {
	what := ""
	switch {
	case f.write:
		what = fmt.Sprintf("writes %s %s, %s · ", thousands(f.lines), plural(f.lines, "line", "lines"), byteSize(f.bytes))
	case f.edits > 0:
		what = fmt.Sprintf("%d %s · ", f.edits, plural(f.edits, "edit", "edits"))
	}
	return truncate(theme.Dim.Render(what)+theme.OK.Render(fmt.Sprintf("+%s", thousands(f.added)))+
		theme.Err.Render(fmt.Sprintf(" -%s", thousands(f.removed))), width)
}

func (f *fileReview) render(width int, sh shape) body {
	var b body
	if sh.repeat {
		b.lines = f.pathLines(width)
		b.anchor(pathKey, 0, len(b.lines))
	}
	b.lines = append(b.lines, f.diffLines(width)...)
	return b
}

// diffLines are the notes and the hunks at width, kept for the last width:
// a diff of thousands of lines is costly to lay out, and the body asks for
// it with and without the path above it.
func (f *fileReview) diffLines(width int) []string {
	if f.laidOut != nil && f.laidOutW == width {
		return f.laidOut
	}
	var out []string
	for _, n := range f.notes {
		for _, l := range wrapText(n, width) {
			out = append(out, theme.Warn.Render(l))
		}
	}
	if len(f.hunks) == 0 && len(f.notes) == 0 {
		out = append(out, theme.Dim.Render(truncate("The content would not change.", width)))
	}
	split := width+dialogFrame >= splitMinWidth
	for i, h := range f.hunks {
		out = append(out, theme.DiffHunk.Render(truncate(f.labels[i], width)))
		if split {
			out = append(out, f.renderSplit(h, width)...)
		} else {
			out = append(out, f.renderUnified(h, width)...)
		}
	}
	f.laidOut, f.laidOutW = out, width
	return out
}

// hunkHeader is the "@@ -a,b +c,d @@" line that says where a hunk is.
func hunkHeader(h *udiff.Hunk) string {
	var o, n int
	for _, l := range h.Lines {
		switch l.Kind {
		case udiff.Delete:
			o++
		case udiff.Insert:
			n++
		default:
			o++
			n++
		}
	}
	// As in diff -u, an empty side starts at the line before.
	from, to := h.FromLine, h.ToLine
	if o == 0 {
		from--
	}
	if n == 0 {
		to--
	}
	return fmt.Sprintf("@@ -%d,%d +%d,%d @@", from, o, to, n)
}

// diffCell is one side of a diff row: a line number (0 for none) and the
// line's text.
type diffCell struct {
	num  int
	kind udiff.OpKind
	text string
	none bool // no line on this side
}

func lineText(l udiff.Line) string {
	return visible(strings.TrimSuffix(strings.TrimSuffix(l.Content, "\n"), "\r"))
}

// styleOf returns the sign and style of a line kind.
func styleOf(k udiff.OpKind) (string, func(...string) string) {
	switch k {
	case udiff.Delete:
		return "-", theme.DiffDel.Render
	case udiff.Insert:
		return "+", theme.DiffAdd.Render
	}
	return " ", theme.Base.Render
}

// renderUnified lays a hunk out as one column: old and new line numbers,
// the sign, the text wrapped (never cut) to the width.
func (f *fileReview) renderUnified(h *udiff.Hunk, width int) []string {
	var out []string
	o, n := h.FromLine, h.ToLine
	gutter := 2*f.numW + 2
	if f.snippets {
		gutter = 0
	}
	textW := max(1, width-gutter-2)
	for _, l := range h.Lines {
		on, nn := "", ""
		switch l.Kind {
		case udiff.Delete:
			on = fmt.Sprint(o)
			o++
		case udiff.Insert:
			nn = fmt.Sprint(n)
			n++
		default:
			on, nn = fmt.Sprint(o), fmt.Sprint(n)
			o++
			n++
		}
		sign, st := styleOf(l.Kind)
		for i, piece := range hardWrap(lineText(l), textW) {
			nums := fmt.Sprintf("%*s %*s ", f.numW, on, f.numW, nn)
			s := sign
			if i > 0 {
				nums, s = strings.Repeat(" ", gutter), "↪"
			}
			if f.snippets {
				nums = ""
			}
			out = append(out, theme.Dim.Render(nums)+st(pad(s+" "+piece, textW+2)))
		}
	}
	return out
}

// renderSplit lays a hunk out side by side: the old file on the left, the
// new on the right, removed lines paired with the lines that replace them.
func (f *fileReview) renderSplit(h *udiff.Hunk, width int) []string {
	leftW := (width - splitGap) / 2
	rightW := width - splitGap - leftW
	var out []string
	for _, r := range pairLines(h) {
		l := f.cellLines(r[0], leftW)
		rt := f.cellLines(r[1], rightW)
		for len(l) < len(rt) {
			l = append(l, strings.Repeat(" ", leftW))
		}
		for len(rt) < len(l) {
			rt = append(rt, strings.Repeat(" ", rightW))
		}
		for i := range l {
			out = append(out, l[i]+theme.Dim.Render(" │ ")+rt[i])
		}
	}
	return out
}

// pairLines turns a hunk into rows of (old, new) cells.
func pairLines(h *udiff.Hunk) [][2]diffCell {
	var rows [][2]diffCell
	var dels, ins []diffCell
	flush := func() {
		for i := 0; i < max(len(dels), len(ins)); i++ {
			var row [2]diffCell
			row[0], row[1] = diffCell{none: true}, diffCell{none: true}
			if i < len(dels) {
				row[0] = dels[i]
			}
			if i < len(ins) {
				row[1] = ins[i]
			}
			rows = append(rows, row)
		}
		dels, ins = nil, nil
	}
	o, n := h.FromLine, h.ToLine
	for _, l := range h.Lines {
		switch l.Kind {
		case udiff.Delete:
			dels = append(dels, diffCell{num: o, kind: l.Kind, text: lineText(l)})
			o++
		case udiff.Insert:
			ins = append(ins, diffCell{num: n, kind: l.Kind, text: lineText(l)})
			n++
		default:
			flush()
			t := lineText(l)
			rows = append(rows, [2]diffCell{{num: o, kind: l.Kind, text: t}, {num: n, kind: l.Kind, text: t}})
			o++
			n++
		}
	}
	flush()
	return rows
}

// cellLines renders one side of a split row to exactly width cells per line.
func (f *fileReview) cellLines(c diffCell, width int) []string {
	if c.none {
		return []string{strings.Repeat(" ", width)}
	}
	gutter := f.numW + 1
	if f.snippets {
		gutter = 0
	}
	textW := max(1, width-gutter-2)
	sign, st := styleOf(c.kind)
	var out []string
	for i, piece := range hardWrap(c.text, textW) {
		num, s := fmt.Sprintf("%*d ", f.numW, c.num), sign
		if i > 0 {
			num, s = strings.Repeat(" ", gutter), "↪"
		}
		if f.snippets {
			num = ""
		}
		out = append(out, theme.Dim.Render(num)+st(pad(s+" "+piece, textW+2)))
	}
	return out
}
