package ptyview

import (
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/seed92b641c3/workbench/tasks/pty"
)

// LeaveKey is the key that gives the keyboard back to the UI while a pane
// has it. It is never sent to the program: ctrl+] is what telnet and many
// multiplexers reserve for the same purpose, and few programs need it.
const LeaveKey = "ctrl+]"

// LeaveHint tells the person how to get out of a focused pane. The root
// shows it whenever a pane has the keyboard, so nobody is ever trapped in a
// program that swallows every other key.
const LeaveHint = LeaveKey + " to leave"

// Action is what the root must do after a key, beyond what the pane did
// itself. Returning a value instead of a tea.Cmd keeps the pane testable
// as a plain function.
type Action struct {
	// Unfocus: the person pressed LeaveKey; the pane has already blurred
	// itself and the root gives the keyboard back to the input.
	Unfocus bool
}

// HandleKey sends a key press to the program when the pane has the
// keyboard. Every key but LeaveKey is consumed, including Tab and Esc,
// which belong to the program while it has the keyboard; keys that have no
// terminal encoding (media keys, F13 and up) are swallowed. An unfocused
// pane consumes nothing, so the root can pass every key through it.
func (p *Pane) HandleKey(msg tea.KeyPressMsg) (consumed bool, action Action) {
	if !p.focused {
		return false, Action{}
	}
	k := tea.Key(msg)
	if isLeaveKey(k) {
		p.Blur()
		return true, Action{Unfocus: true}
	}
	if b := EncodeKey(k, p.s.Modes().AppCursor); len(b) > 0 {
		p.send(b)
	}
	return true, Action{}
}

// HandlePaste sends pasted text to the program: inside the bracketed-paste
// markers when the program turned that mode on, so a shell does not run
// pasted lines one by one, as typed text otherwise. It reports whether the
// pane took the paste (only a focused pane does).
func (p *Pane) HandlePaste(text string) bool {
	if !p.focused {
		return false
	}
	if text != "" {
		p.send(pty.PasteBytes(text, p.s.Modes().BracketedPaste))
	}
	return true
}

// IsLeaveKey reports whether a key press is LeaveKey, so the root can use
// the same key to give a pane the keyboard as the pane uses to give it back.
func IsLeaveKey(msg tea.KeyPressMsg) bool { return isLeaveKey(tea.Key(msg)) }

// isLeaveKey recognises ctrl+], which a legacy terminal delivers as the
// byte 0x1d and bubbletea decodes to ']' with ctrl.
func isLeaveKey(k tea.Key) bool {
	return k.Code == ']' && k.Mod&(tea.ModCtrl|tea.ModAlt|tea.ModShift) == tea.ModCtrl
}

// namedKeys are the keys that have a name in tasks/pty's xterm tables and
// take xterm's modifier parameter there (ESC [ 1 ; 5 A for ctrl+up).
var namedKeys = map[rune]string{
	tea.KeyUp: "up", tea.KeyDown: "down", tea.KeyRight: "right", tea.KeyLeft: "left",
	tea.KeyHome: "home", tea.KeyEnd: "end", tea.KeyPgUp: "pageup", tea.KeyPgDown: "pagedown",
	tea.KeyInsert: "insert", tea.KeyDelete: "delete",
	tea.KeyKpUp: "up", tea.KeyKpDown: "down", tea.KeyKpRight: "right", tea.KeyKpLeft: "left",
	tea.KeyKpHome: "home", tea.KeyKpEnd: "end", tea.KeyKpPgUp: "pageup", tea.KeyKpPgDown: "pagedown",
	tea.KeyKpInsert: "insert", tea.KeyKpDelete: "delete",
	tea.KeyF1: "f1", tea.KeyF2: "f2", tea.KeyF3: "f3", tea.KeyF4: "f4",
	tea.KeyF5: "f5", tea.KeyF6: "f6", tea.KeyF7: "f7", tea.KeyF8: "f8",
	tea.KeyF9: "f9", tea.KeyF10: "f10", tea.KeyF11: "f11", tea.KeyF12: "f12",
}

// keypadText is what the keypad's character keys type (a terminal in
// normal keypad mode sends the characters).
var keypadText = map[rune]byte{
	tea.KeyKp0: '0', tea.KeyKp1: '1', tea.KeyKp2: '2', tea.KeyKp3: '3', tea.KeyKp4: '4',
	tea.KeyKp5: '5', tea.KeyKp6: '6', tea.KeyKp7: '7', tea.KeyKp8: '8', tea.KeyKp9: '9',
	tea.KeyKpEqual: '=', tea.KeyKpMultiply: '*', tea.KeyKpPlus: '+', tea.KeyKpComma: ',',
	tea.KeyKpMinus: '-', tea.KeyKpDecimal: '.', tea.KeyKpDivide: '/', tea.KeyKpSep: ',',
}

// ctrlPunct are the control codes xterm sends for ctrl with a symbol or
// digit key (ctrl+2 is NUL, ctrl+3 ESC, ... ctrl+8 DEL).
var ctrlPunct = map[rune]byte{
	'@': 0x00, ' ': 0x00, '2': 0x00,
	'[': 0x1b, '3': 0x1b,
	'\\': 0x1c, '4': 0x1c,
	']': 0x1d, '5': 0x1d,
	'^': 0x1e, '6': 0x1e, '~': 0x1e,
	'_': 0x1f, '7': 0x1f, '/': 0x1f, '-': 0x1f,
	'?': 0x7f, '8': 0x7f,
}

// EncodeKey returns the bytes an xterm sends for a key, nil when the key
// has none. appCursor is the program's application cursor mode
// (pty.Modes.AppCursor): with it on, the arrows, Home and End send ESC O A
// instead of ESC [ A, which is what less and vim ask for. Alt (and Meta)
// prefix the key with ESC; the named keys take xterm's modifier parameter
// (shift+up is ESC [ 1 ; 2 A). It is a plain function so the whole table
// can be tested without a program, and used by anything that replays keys.
func EncodeKey(k tea.Key, appCursor bool) []byte {
	mods := k.Mod & (tea.ModShift | tea.ModAlt | tea.ModCtrl | tea.ModMeta)
	alt := mods&(tea.ModAlt|tea.ModMeta) != 0
	ctrl := mods&tea.ModCtrl != 0
	shift := mods&tea.ModShift != 0

	if name, ok := namedKeys[k.Code]; ok {
		b, err := pty.KeyBytesMode(modPrefix(shift, alt, ctrl)+name, appCursor)
		if err != nil {
			return nil
		}
		return b
	}

	var out []byte
	if alt {
		out = append(out, 0x1b)
	}
	switch k.Code {
	case tea.KeyEnter, tea.KeyKpEnter:
		return append(out, '\r')
	case tea.KeyTab:
		if shift {
			return append(out, "\x1b[Z"...)
		}
		return append(out, '\t')
	case tea.KeyBackspace:
		if ctrl {
			return append(out, 0x08)
		}
		return append(out, 0x7f)
	case tea.KeyEscape:
		return append(out, 0x1b)
	case tea.KeySpace:
		if ctrl {
			return append(out, 0x00)
		}
		return append(out, ' ')
	}
	if c, ok := keypadText[k.Code]; ok {
		return append(out, c)
	}
	if k.Code == tea.KeyExtended {
		return append(out, k.Text...) // several characters at once (an input method)
	}
	if k.Code > unicode.MaxRune {
		return nil // media keys, F13 and up, modifier keys alone: no bytes
	}
	if ctrl {
		if c, ok := ctrlCode(k.Code); ok {
			return append(out, c)
		}
	}
	text := k.Text
	if text == "" || ctrl {
		r := k.Code
		if shift {
			if k.ShiftedCode != 0 {
				r = k.ShiftedCode
			} else {
				r = unicode.ToUpper(r)
			}
		}
		if r < 0x20 || r == 0x7f || !utf8.ValidRune(r) {
			return nil
		}
		return utf8.AppendRune(out, r)
	}
	return append(out, text...)
}

// ctrlCode is the control code of ctrl with a letter or symbol key.
func ctrlCode(r rune) (byte, bool) {
	if r >= 'A' && r <= 'Z' {
		r += 'a' - 'A'
	}
	if r >= 'a' && r <= 'z' {
		return byte(r-'a') + 1, true
	}
	c, ok := ctrlPunct[r]
	return c, ok
}

// modPrefix spells modifiers the way pty.KeyBytes reads them.
func modPrefix(shift, alt, ctrl bool) string {
	s := ""
	if ctrl {
		s += "ctrl+"
	}
	if alt {
		s += "alt+"
	}
	if shift {
		s += "shift+"
	}
	return s
}
