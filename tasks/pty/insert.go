package pty

import "unicode/utf8"

// Insert mode (IRM, ESC[4h ... ESC[4l). vt10x records the mode but prints
// over the cell under the cursor, so a program that inserts text by
// turning the mode on and printing (vttest's VT102 screens, some curses
// programs on terminals without ICH) would lose the end of the row. On a
// VT102 each character printed in insert mode first moves the cursor's
// cell and everything right of it one column right, dropping the last
// column; that is ICH 1 (ESC[@) followed by the character, which is what
// the feeder sends instead. A character that would wrap wraps first
// (vt10x's own wrap: carriage return and line feed), then inserts on the
// new row, as xterm and tmux do.

// setModes follows the ANSI modes (ESC[...h, ESC[...l) the feeder applies
// itself.
func (f *feeder) setModes(set bool, args []int) {
	for _, a := range args {
		if a == 4 {
			f.insert = set
		}
	}
}

// insertText feeds plain text in insert mode: every character becomes
// ICH 1 and the character. CR and LF pass as they are.
func (f *feeder) insertText(text []byte) {
	col := f.cursorColumn()
	out := f.ins[:0]
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\r':
			col.x, col.wrapNext = 0, false
			out = append(out, c)
			i++
			continue
		case c == '\n':
			if col.crlf {
				col.x = 0
			}
			col.wrapNext = false
			out = append(out, c)
			i++
			continue
		}
		size := 1
		if c >= utf8.RuneSelf {
			var r rune
			if r, size = utf8.DecodeRune(text[i:]); r == utf8.RuneError && size == 1 {
				out = append(out, c) // vt10x skips it
				i++
				continue
			}
		}
		if col.wrap && col.wrapNext {
			out = append(out, '\r', '\n')
			col.x, col.wrapNext = 0, false
		}
		out = append(out, 0x1b, '[', '@')
		out = append(out, text[i:i+size]...)
		col.put()
		i += size
	}
	f.ins = out
	f.emit(out)
}
