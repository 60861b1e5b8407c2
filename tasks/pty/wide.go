package pty

import "unicode/utf8"

// vt10x gives every character one cell, while a terminal gives a wide
// character (CJK, most emoji) two. A program that places text by column
// after wide characters on the same row (an editor, a table, a status
// bar) would then find its text one cell to the left per wide character.
// The feeder therefore follows every wide character with wideTail, which
// takes the second cell in the emulator as it does on a real terminal;
// cells holding it come back as continuation cells (Cell.Cont) that
// renderers skip and Screen.Line leaves out.
//
// One case stays off: a wide character printed in the last column wraps to
// the next row on a real terminal, while the emulator puts it in the last
// column and its tail on the next row, which then draws as a blank.

// wideTail marks the second cell of a wide character. It is a Unicode
// noncharacter, which programs do not print.
const wideTail = '\U0010FFFE'

// widen returns text with wideTail after every wide character, built in
// buf, and true; or false when text holds no wide character (the usual
// case costs one scan).
func widen(text []byte, buf []byte) ([]byte, bool) {
	i := 0
	for i < len(text) && text[i] < 0xe1 { // wide characters start at U+1100
		i++
	}
	if i == len(text) {
		return nil, false
	}
	out := append(buf[:0], text[:i]...)
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		out = append(out, text[i:i+size]...)
		i += size
		if r != utf8.RuneError && widthRules.RuneWidth(r) == 2 {
			out = utf8.AppendRune(out, wideTail)
		}
	}
	return out, true
}
