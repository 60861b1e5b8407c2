package pty

import (
	"fmt"
	"slices"
	"strings"
)

// Key tables. They are what an xterm sends, so that programs configured
// for TERM=xterm-256color understand them; a UI's key encoder reuses them
// through KeyBytes and KeyNames.

// plainKeys are keys whose bytes do not depend on a mode.
var plainKeys = map[string]string{
	"enter":     "\r",
	"return":    "\r",
	"tab":       "\t",
	"shift+tab": "\x1b[Z",
	"backtab":   "\x1b[Z",
	"esc":       "\x1b",
	"escape":    "\x1b",
	"backspace": "\x7f",
	"space":     " ",
	"pageup":    "\x1b[5~",
	"pgup":      "\x1b[5~",
	"pagedown":  "\x1b[6~",
	"pgdn":      "\x1b[6~",
	"delete":    "\x1b[3~",
	"del":       "\x1b[3~",
	"insert":    "\x1b[2~",
	"ins":       "\x1b[2~",
	"f1":        "\x1bOP",
	"f2":        "\x1bOQ",
	"f3":        "\x1bOR",
	"f4":        "\x1bOS",
	"f5":        "\x1b[15~",
	"f6":        "\x1b[17~",
	"f7":        "\x1b[18~",
	"f8":        "\x1b[19~",
	"f9":        "\x1b[20~",
	"f10":       "\x1b[21~",
	"f11":       "\x1b[23~",
	"f12":       "\x1b[24~",
}

// cursorKeys send CSI in normal mode and SS3 in application cursor mode;
// the letter is the same.
var cursorKeys = map[string]byte{
	"up": 'A', "down": 'B', "right": 'C', "left": 'D', "home": 'H', "end": 'F',
}

// modifiable are the keys that take xterm's modifier parameter
// (ESC [ 1 ; m X or ESC [ n ; m ~) with shift, alt and ctrl.
var modifiable = map[string]string{
	"up": "1;A", "down": "1;B", "right": "1;C", "left": "1;D", "home": "1;H", "end": "1;F",
	"pageup": "5;~", "pgup": "5;~", "pagedown": "6;~", "pgdn": "6;~",
	"delete": "3;~", "del": "3;~", "insert": "2;~", "ins": "2;~",
	"f1": "1;P", "f2": "1;Q", "f3": "1;R", "f4": "1;S",
	"f5": "15;~", "f6": "17;~", "f7": "18;~", "f8": "19;~",
	"f9": "20;~", "f10": "21;~", "f11": "23;~", "f12": "24;~",
}

// ctrlSymbols are the control codes named by a punctuation key.
var ctrlSymbols = map[string]byte{
	"@": 0, "space": 0, "[": 0x1b, "\\": 0x1c, "]": 0x1d, "^": 0x1e, "_": 0x1f, "?": 0x7f,
}

// KeyNames lists the key names KeyBytes accepts, in the order help shows
// them. Modifier prefixes (ctrl+, alt+, shift+) are described in the last
// entries.
func KeyNames() []string {
	return []string{
		"enter", "return", "tab", "shift+tab", "esc", "escape", "backspace", "space",
		"up", "down", "left", "right", "home", "end", "pageup", "pagedown",
		"delete", "insert",
		"f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12",
		"ctrl+a ... ctrl+z", "ctrl+@", "ctrl+[", "ctrl+\\", "ctrl+]", "ctrl+^", "ctrl+_",
		"alt+<key or character>",
		"ctrl+, alt+, shift+ on arrows, home, end, page keys, insert, delete, f1-f12",
	}
}

// KeyBytes returns the bytes a terminal sends for a named key, with the
// cursor keys in normal mode. Names are case-insensitive: "enter", "up",
// "ctrl+c", "alt+b", "ctrl+left", "f5". An unknown name is an error that
// lists the valid ones.
func KeyBytes(name string) ([]byte, error) {
	return KeyBytesMode(name, false)
}

// KeyBytesMode is KeyBytes for a terminal whose application cursor mode is
// appCursor (see Modes.AppCursor): less and vim turn it on, and then expect
// ESC O A for the up arrow.
func KeyBytesMode(name string, appCursor bool) ([]byte, error) {
	b, ok := keyBytes(strings.TrimSpace(name), appCursor)
	if !ok {
		return nil, fmt.Errorf("unknown key %q; valid keys: %s", name, strings.Join(KeyNames(), ", "))
	}
	return b, nil
}

func keyBytes(name string, appCursor bool) ([]byte, bool) {
	mods, base := splitModifiers(name)
	if len([]rune(base)) != 1 {
		base = strings.ToLower(base) // a single character keeps its case: alt+B is not alt+b
	}
	if mods == 0 {
		return namedKey(base, appCursor)
	}
	return modifiedKey(mods, base, appCursor)
}

// namedKey is a key without modifiers.
func namedKey(name string, appCursor bool) ([]byte, bool) {
	if s, ok := plainKeys[name]; ok {
		return []byte(s), true
	}
	if c, ok := cursorKeys[name]; ok {
		if appCursor {
			return []byte{0x1b, 'O', c}, true
		}
		return []byte{0x1b, '[', c}, true
	}
	return nil, false
}

// modifiedKey is a key with ctrl, alt or shift.
func modifiedKey(mods int, base string, appCursor bool) ([]byte, bool) {
	if base == "" {
		return nil, false
	}
	if tmpl, ok := modifiable[base]; ok {
		// xterm's modifier parameter: 1 + shift(1) + alt(2) + ctrl(4).
		i := strings.IndexByte(tmpl, ';')
		seq := "\x1b[" + tmpl[:i] + ";" + string(rune('1'+mods)) + tmpl[i+1:]
		return []byte(seq), true
	}
	if mods&modShift != 0 {
		if mods == modShift && base == "tab" {
			return []byte(plainKeys["shift+tab"]), true
		}
		return nil, false // shift with anything else is a character the caller types
	}
	var out []byte
	if mods&modAlt != 0 {
		out = append(out, 0x1b)
	}
	if mods&modCtrl != 0 {
		c, ok := ctrlByte(strings.ToLower(base))
		if !ok {
			return nil, false
		}
		return append(out, c), true
	}
	// alt+<key>: ESC, then the key or the character.
	if b, ok := namedKey(base, appCursor); ok {
		return append(out, b...), true
	}
	if r := []rune(base); len(r) == 1 && r[0] >= 0x20 && r[0] != 0x7f {
		return append(out, base...), true
	}
	return nil, false
}

// Modifier bits, in xterm's order.
const (
	modShift = 1 << iota
	modAlt
	modCtrl
)

// splitModifiers takes "ctrl+alt+x" apart; "alt++" is alt with the "+"
// character.
func splitModifiers(name string) (mods int, base string) {
	for {
		i := strings.IndexByte(name, '+')
		if i <= 0 || i == len(name)-1 {
			return mods, name
		}
		var bit int
		switch strings.ToLower(name[:i]) {
		case "ctrl", "control":
			bit = modCtrl
		case "alt", "meta", "option":
			bit = modAlt
		case "shift":
			bit = modShift
		default:
			return mods, name
		}
		if mods&bit != 0 {
			return 0, ""
		}
		mods |= bit
		name = name[i+1:]
	}
}

// ctrlByte is the control code of ctrl+<key>.
func ctrlByte(key string) (byte, bool) {
	if len(key) == 1 && key[0] >= 'a' && key[0] <= 'z' {
		return key[0] - 'a' + 1, true
	}
	c, ok := ctrlSymbols[key]
	return c, ok
}

// Bracketed-paste markers (mode 2004).
const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// PasteBytes returns text as a paste: inside the bracketed-paste markers
// when the program turned that mode on (so a shell does not run pasted
// lines one by one), as is otherwise (the markers would reach a program
// that does not expect them as typed garbage). The end marker is removed
// from text, so pasted text cannot end the paste early.
func PasteBytes(text string, bracketed bool) []byte {
	if !bracketed {
		return []byte(text)
	}
	text = strings.ReplaceAll(text, pasteEnd, "")
	return slices.Concat([]byte(pasteStart), []byte(text), []byte(pasteEnd))
}
