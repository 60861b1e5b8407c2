package files

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// replacement is one old → new substitution, as Edit and each MultiEdit
// item describe it.
type replacement struct {
	Old string `json:"old_string"`
	New string `json:"new_string"`
	All bool   `json:"replace_all"`
}

// applied says where a replacement landed in the new content.
type applied struct {
	count int // occurrences replaced
	start int // byte offset of the first replaced text in the new content
	size  int // length of the text that replaced it
}

// usesCRLF reports whether text ends its lines with CRLF (most of them, for
// a file with mixed endings).
func usesCRLF(text string) bool {
	crlf := strings.Count(text, "\r\n")
	return crlf > 0 && crlf*2 >= strings.Count(text, "\n")
}

// withEOL rewrites s's line endings as LF, or CRLF when crlf is set.
func withEOL(s string, crlf bool) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if crlf {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	return s
}

// apply performs r on content. Models write line breaks as LF whatever the
// file uses, so old_string and new_string are first given the file's line
// ending; if that finds nothing (a file with mixed endings), they are tried
// as written. The error is a sentence for the model, without the file name.
func apply(content string, r replacement) (string, applied, error) {
	if r.Old == r.New {
		return "", applied{}, errors.New("old_string and new_string are the same, so there is nothing to change")
	}
	if r.Old == "" {
		if content != "" {
			return "", applied{}, errors.New("old_string is empty but the file is not; an empty old_string only creates a file or fills an empty one")
		}
		return r.New, applied{count: 1, size: len(r.New)}, nil
	}
	crlf := usesCRLF(content)
	from, to := withEOL(r.Old, crlf), withEOL(r.New, crlf)
	n := strings.Count(content, from)
	if n == 0 && from != r.Old {
		from, to = r.Old, r.New
		n = strings.Count(content, from)
	}
	switch {
	case n == 0:
		msg := "old_string was not found in the file"
		if line, ok := looseMatch(content, r.Old); ok {
			msg += fmt.Sprintf(". Text matching it apart from whitespace starts at line %d: check indentation, tabs and line breaks, and copy old_string exactly from a fresh Read", line)
		} else {
			msg += "; Read the file again and copy the text exactly"
		}
		return "", applied{}, errors.New(msg)
	case n > 1 && !r.All:
		return "", applied{}, fmt.Errorf("old_string occurs %d times in the file; include more surrounding lines to pick one, or set replace_all to true to change all %d", n, n)
	}
	start := strings.Index(content, from)
	if r.All {
		return strings.ReplaceAll(content, from, to), applied{count: n, start: start, size: len(to)}, nil
	}
	return content[:start] + to + content[start+len(from):], applied{count: 1, start: start, size: len(to)}, nil
}

// maxLooseBytes bounds the files searched for a whitespace-insensitive
// match: the search keeps an offset per byte, and the hint is only a hint.
const maxLooseBytes = 8 << 20

// looseMatch looks for old in content with all whitespace ignored and
// returns the 1-based line where such a match starts.
func looseMatch(content, old string) (int, bool) {
	squeezedOld := squeeze(old, nil)
	if squeezedOld == "" || len(content) > maxLooseBytes {
		return 0, false
	}
	var at []int
	squeezed := squeeze(content, &at)
	i := strings.Index(squeezed, squeezedOld)
	if i < 0 {
		return 0, false
	}
	return 1 + strings.Count(content[:at[i]], "\n"), true
}

// squeeze drops whitespace from s. When at is not nil it receives, for each
// byte kept, its offset in s.
func squeeze(s string, at *[]int) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsSpace(r) {
			continue
		}
		if at != nil {
			for k := range len(string(r)) {
				*at = append(*at, i+k)
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// snippetContext is how many unchanged lines are shown around a change.
const snippetContext = 2

// snippetMaxLines bounds a snippet, so a large replacement does not echo
// the whole file back.
const snippetMaxLines = 16

// snippetLineBytes cuts long lines in a snippet; it is a reminder of the
// change, not a copy of it.
const snippetLineBytes = 200

// snippet shows the lines of content around [start, start+size), numbered
// as Read numbers them, so the model can check the result without a Read.
func snippet(content string, start, size int) string {
	first := strings.Count(content[:start], "\n") // 0-based line of the change
	last := first + strings.Count(content[start:start+size], "\n")
	lines := strings.Split(content, "\n")
	if strings.HasSuffix(content, "\n") {
		lines = lines[:len(lines)-1]
	}
	from := max(0, first-snippetContext)
	to := min(len(lines)-1, last+snippetContext)
	var b strings.Builder
	for i := from; i <= to; i++ {
		if i-from == snippetMaxLines {
			fmt.Fprintf(&b, "   ...\t(%d more lines)\n", to-i+1)
			break
		}
		line := strings.TrimSuffix(lines[i], "\r")
		if len(line) > snippetLineBytes {
			line = cutToRunes(line, snippetLineBytes) + " ..."
		}
		fmt.Fprintf(&b, "%6d\t%s\n", i+1, line)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
