package ptytools

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// line is a shell's input line as far as shell_send can follow it (H5,
// H15): the text typed since the last submit and, once a key was typed
// that the tracker cannot replay exactly, why the text is not known. Only
// keys whose effect on a line with the cursor at its end is certain keep a
// line known: printable characters (added at the end), backspace (removes
// the last one), ctrl+c (discards the line) and the bracketed-paste markers.
// Inside a paste no control byte is certain: a shell in bracketed-paste
// mode inserts it as it is (a backspace there deletes nothing), one that is
// not reads it as a key.
// Everything else (ctrl+u, ctrl+a, ctrl+k, ctrl+w, ctrl+y, tab completion,
// arrows and history, home and end, alt+key, other escape sequences,
// control bytes sent as hex, bytes that are not UTF-8) may move the cursor
// or change the text in ways that depend on the shell, so the line becomes
// unknown, and a submitted unknown line asks in every mode.
type line struct {
	text    []rune
	unknown string
}

// submittedLine is one line a call submits: the text as far as it could be
// followed, and why it is not known exactly ("" when it is).
type submittedLine struct {
	text    string
	unknown string
}

// pasteStart and pasteEnd are the bracketed-paste markers pty.PasteBytes
// wraps a paste in; a shell that supports them inserts what is between them
// as typed, so they change nothing by themselves.
var (
	pasteStart = []byte("\x1b[200~")
	pasteEnd   = []byte("\x1b[201~")
)

// submitted follows the line over typed bytes and returns the lines they
// submit (by CR or LF) and the line left pending. It cannot see what a
// program did with earlier input (a pager ate the "q", say), so it errs
// towards checking more: a line it reports may carry leftovers, which can
// only make a call ask, never allow.
func submitted(pending line, typed []byte) (lines []submittedLine, rest line) {
	cur := line{text: append([]rune(nil), pending.text...), unknown: pending.unknown}
	inPaste := false
	for i := 0; i < len(typed); {
		c := typed[i]
		switch {
		case c == 0x1b && bytes.HasPrefix(typed[i:], pasteStart):
			inPaste = true
			i += len(pasteStart)
			continue
		case c == 0x1b && bytes.HasPrefix(typed[i:], pasteEnd):
			inPaste = false
			i += len(pasteEnd)
			continue
		case inPaste && (c < 0x20 || c == 0x7f) && c != '\r' && c != '\n':
			// A shell in bracketed-paste mode inserts it as it is; one
			// that is not reads it as a key. Either may be the case.
			cur.edited(fmt.Sprintf("the control byte %#02x inside a paste, which a shell inserts as it is or reads as a key", c))
		case c == '\r' || c == '\n':
			text := strings.TrimSpace(string(cur.text))
			if text != "" || cur.unknown != "" {
				lines = append(lines, submittedLine{text: text, unknown: cur.unknown})
			}
			cur = line{}
		case c == 0x03: // ctrl+c: the shell discards the line
			cur = line{}
		case c == 0x7f || c == 0x08: // backspace, ctrl+h
			if len(cur.text) > 0 {
				cur.text = cur.text[:len(cur.text)-1]
			}
		case c == 0x1b:
			end := skipKeySequence(typed, i)
			cur.edited(fmt.Sprintf("the key sequence %q", typed[i:end]))
			i = end
			continue
		case c < 0x20:
			cur.edited(controlName(c))
		default:
			r, size := utf8.DecodeRune(typed[i:])
			if r == utf8.RuneError && size <= 1 {
				cur.edited(fmt.Sprintf("the byte %#02x, which is not UTF-8 text", c))
			} else {
				cur.text = append(cur.text, r)
			}
			i += size
			continue
		}
		i++
	}
	return lines, cur
}

// edited marks the line unknown because of key, keeping the first reason.
func (l *line) edited(key string) {
	if l.unknown == "" {
		l.unknown = "the line was edited with " + key + ", which shell_send cannot replay exactly, so what the shell will run is not known"
	}
}

// controlName names a control byte as a person types it.
func controlName(c byte) string {
	if c == '\t' {
		return "tab (completion)"
	}
	return "ctrl+" + strings.ToLower(string(rune(c+0x40)))
}

// skipKeySequence returns the index after the key sequence at typed[i] (an
// ESC): CSI and SS3 sequences whole, ESC plus one character for alt+key.
func skipKeySequence(typed []byte, i int) int {
	i++
	if i >= len(typed) {
		return i
	}
	switch typed[i] {
	case '[':
		for i++; i < len(typed); i++ {
			if typed[i] >= 0x40 && typed[i] <= 0x7e {
				return i + 1
			}
		}
		return i
	case 'O':
		return min(i+2, len(typed))
	}
	// alt+key: ESC then the key. An alt+enter still submits in most
	// shells' eyes, so only printable keys are swallowed.
	if typed[i] == '\r' || typed[i] == '\n' {
		return i
	}
	_, size := utf8.DecodeRune(typed[i:])
	return i + size
}
