// Package safetext makes text that the model, a program or a file produced
// safe to show a person: every character that would act on the terminal, or
// that changes how the text around it reads without being seen itself, is
// replaced by a visible escape. Without this a command could hide part of
// itself from the person asked to approve it: an ESC sequence that erases
// the line, a right-to-left override that reorders it (the "Trojan Source"
// class, CVE-2021-42574), a zero-width space inside a file name.
//
// Every part of the UI that shows such text (the approval dialog, the
// conversation, the viewer, the pipeline panel, pane titles) uses the same
// rules from here, so a character shown as an escape in one place is never
// shown raw in another.
package safetext

import (
	"fmt"
	"strings"
	"unicode"
)

// Escape returns s with control characters written as \xNN (a carriage
// return as \r) and invisible characters (bidi controls, zero-width and
// other format characters) written as <U+XXXX>. Newlines and tabs are kept:
// the caller lays out lines and columns.
func Escape(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if e, ok := escapeOf(r); ok {
			b.WriteString(e)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Reverse video on and off. The escapes are switched off with their own
// code rather than a full reset, so the colour and weight of the text
// around them carry on after an escape.
const (
	markOn  = "\x1b[7m"
	markOff = "\x1b[27m"
)

// Mark is Escape with every run of escapes drawn in reverse video, so an
// escape cannot be mistaken for text that happens to read "<U+202E>". The
// result contains SGR sequences: measure it with an ANSI-aware width.
func Mark(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	on := false
	for _, r := range s {
		e, ok := escapeOf(r)
		switch {
		case ok && !on:
			b.WriteString(markOn)
			on = true
		case !ok && on:
			b.WriteString(markOff)
			on = false
		}
		if ok {
			b.WriteString(e)
		} else {
			b.WriteRune(r)
		}
	}
	if on {
		b.WriteString(markOff)
	}
	return b.String()
}

// Found returns the escapes Escape writes for s, each once, in the order
// they first appear: what a warning that s hides something names.
func Found(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range s {
		if e, ok := escapeOf(r); ok && !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}

// Invisible reports whether r changes how text reads without being seen:
// the bidi controls (U+202A-U+202E, U+2066-U+2069, the marks U+200E, U+200F,
// U+061C), the zero-width characters (U+200B-U+200D, U+2060, U+FEFF), every
// other format character (Unicode category Cf: soft hyphen, tag characters,
// invisible operators), the line and paragraph separators, and the blank
// fillers that are letters to a parser but show as nothing.
func Invisible(r rune) bool {
	switch r {
	case 0x034f, // combining grapheme joiner
		0x115f, 0x1160, 0x3164, 0xffa0, // Hangul fillers
		0x17b4, 0x17b5, // Khmer inherent vowels
		0x2028, 0x2029: // line and paragraph separators
		return true
	}
	return r > 0x7f && unicode.Is(unicode.Cf, r)
}

// escapeOf returns the escape shown for r, if r needs one.
func escapeOf(r rune) (string, bool) {
	switch {
	case r == '\n' || r == '\t':
		return "", false
	case r == '\r':
		return `\r`, true
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		return fmt.Sprintf(`\x%02x`, r), true
	case Invisible(r):
		return fmt.Sprintf("<U+%04X>", r), true
	}
	return "", false
}

// clean reports whether s has nothing to escape, which is almost always
// the case, so the common path allocates nothing.
func clean(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && (r < 0xa0 || Invisible(r)) {
			return false
		}
	}
	return true
}
