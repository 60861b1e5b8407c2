package ptytools

import (
	"strings"
	"unicode/utf8"
)

// submitted follows a shell's input line over typed bytes, to find the
// command lines a shell_send call submits (H5). The line starts as pending
// (what earlier calls typed without submitting), grows with each printable
// character, loses one on backspace, is discarded by ctrl+c and ctrl+u,
// and is submitted by CR or LF. Escape sequences (arrows, function keys,
// bracketed-paste markers) move within the line and add nothing to it.
//
// It cannot see what the program did with earlier input (a pager ate the
// "q", say), so it errs towards checking more: a line it reports may carry
// leftovers, which can only make a call ask, never allow.
func submitted(pending string, typed []byte) (lines []string, rest string) {
	cur := []rune(pending)
	submit := func() {
		if line := strings.TrimSpace(string(cur)); line != "" {
			lines = append(lines, line)
		}
		cur = cur[:0]
	}
	for i := 0; i < len(typed); {
		c := typed[i]
		switch {
		case c == '\r' || c == '\n':
			submit()
		case c == 0x03: // ctrl+c
			cur = cur[:0]
		case c == 0x7f || c == 0x08:
			if len(cur) > 0 {
				cur = cur[:len(cur)-1]
			}
		case c == 0x1b:
			i = skipKeySequence(typed, i)
			continue
		case c == '\t':
			cur = append(cur, '\t')
		case c < 0x20:
		default:
			r, size := utf8.DecodeRune(typed[i:])
			if r != utf8.RuneError || size > 1 {
				cur = append(cur, r)
			}
			i += size
			continue
		}
		i++
	}
	return lines, string(cur)
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
