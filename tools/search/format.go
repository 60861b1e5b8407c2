package search

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

const (
	// maxLineBytes cuts long lines (minified code, data files) so that one
	// line cannot fill a page.
	maxLineBytes = 1000
	cutMarker    = " [... line truncated]"
	noMatches    = "No matches found"
)

// page says what a rendered result holds, for the result's Meta.
type page struct {
	Engine string `json:"engine"`
	// Fallback says why ripgrep was not used although it was found.
	Fallback string `json:"fallback,omitempty"`
	Mode     string `json:"mode"`
	Files    int    `json:"files"`
	Total    int    `json:"total"`
	Offset   int    `json:"offset"`
	Shown    int    `json:"shown"`
	// Partial says the search stopped at its memory bound (maxCollect).
	Partial bool `json:"partial,omitempty"`
	// Hidden counts the files left out because Read rules hide them.
	Hidden int `json:"hidden,omitempty"`
}

// comparePaths orders paths as a depth-first walk with sorted directory
// listings would: element by element, so "a/b" comes before "a.txt".
func comparePaths(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		ca, cb := a[i], b[i]
		if ca == cb {
			continue
		}
		if ca == '/' {
			return -1
		}
		if cb == '/' {
			return 1
		}
		if ca < cb {
			return -1
		}
		return 1
	}
	return len(a) - len(b)
}

// render sorts the files, applies offset and head_limit to the entries
// (files, or lines in content mode) and formats the page. partial adds a
// notice that the search stopped before the end.
func render(q *query, files []fileHits, partial bool) (string, page) {
	slices.SortFunc(files, func(a, b fileHits) int { return comparePaths(a.path, b.path) })
	pg := page{Mode: string(q.mode), Files: len(files), Offset: q.offset, Partial: partial}
	text := renderPage(q, files, &pg)
	if partial {
		text += fmt.Sprintf("\n\n[The search stopped after %d MiB of results, so they are incomplete; narrow it with a more specific pattern, path, glob or type.]", q.maxCollect>>20)
	}
	return text, pg
}

func renderPage(q *query, files []fileHits, pg *page) string {
	unit := "files"
	if q.mode == modeContent {
		unit = "lines"
		for _, f := range files {
			pg.Total += len(f.lines)
		}
	} else {
		pg.Total = len(files)
	}
	if pg.Total == 0 {
		return noMatches
	}
	from, to := min(q.offset, pg.Total), pg.Total
	if q.headLimit > 0 {
		to = min(pg.Total, from+q.headLimit)
	}
	pg.Shown = to - from
	if from == to {
		return fmt.Sprintf("No results at offset=%d: there are %d %s in total.", q.offset, pg.Total, unit)
	}

	var b strings.Builder
	switch q.mode {
	case modeFiles:
		for _, f := range files[from:to] {
			b.WriteString(f.path)
			b.WriteByte('\n')
		}
	case modeCount:
		for _, f := range files[from:to] {
			b.WriteString(f.path)
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(f.count))
			b.WriteByte('\n')
		}
	case modeContent:
		writeLines(&b, q, files, from, to)
	}
	out := strings.TrimSuffix(b.String(), "\n")
	if to < pg.Total {
		out += fmt.Sprintf("\n\n[%d more %s not shown; continue with offset=%d]", pg.Total-to, unit, to)
	}
	return out
}

// writeLines formats content lines from..to (counted across files) as
// path:num:text for matches and path-num-text for context, with "--"
// between groups that are not adjacent when context was asked for.
func writeLines(b *strings.Builder, q *query, files []fileHits, from, to int) {
	grouped := q.before > 0 || q.after > 0
	idx := 0
	var prevFile *fileHits
	prevNum := 0
	for fi := range files {
		f := &files[fi]
		if idx+len(f.lines) <= from {
			idx += len(f.lines)
			continue
		}
		for _, l := range f.lines {
			if idx >= to {
				return
			}
			if idx >= from {
				if grouped && prevFile != nil && (prevFile != f || l.num != prevNum+1) {
					b.WriteString("--\n")
				}
				sep := byte('-')
				if l.match {
					sep = ':'
				}
				b.WriteString(f.path)
				b.WriteByte(sep)
				if q.lineNumbers {
					b.WriteString(strconv.Itoa(l.num))
					b.WriteByte(sep)
				}
				writeText(b, f.data[l.start:l.end])
				b.WriteByte('\n')
				prevFile, prevNum = f, l.num
			}
			idx++
		}
	}
}

// writeText writes a line without a trailing carriage return, cut at
// maxLineBytes on a rune boundary.
func writeText(b *strings.Builder, text []byte) {
	text = bytes.TrimSuffix(text, []byte{'\r'})
	if len(text) <= maxLineBytes {
		b.Write(text)
		return
	}
	cut := maxLineBytes
	for cut > maxLineBytes-utf8.UTFMax && !utf8.RuneStart(text[cut]) {
		cut--
	}
	b.Write(text[:cut])
	b.WriteString(cutMarker)
}
