package ptyview

import (
	"strings"
)

// sgrState is the style a stream of SGR sequences leaves in effect. A
// log's colour may start on one line and end lines later; each line of a
// FilePane starts by restating this state, so any line can be drawn alone.
type sgrState struct {
	attrs  uint16 // sgrBold ... sgrStrike
	fg, bg string // the colour parameters as written ("31", "38;5;208"); "" is the default
}

// Attribute bits of sgrState, by SGR parameter.
const (
	sgrBold uint16 = 1 << iota
	sgrDim
	sgrItalic
	sgrUnderline
	sgrBlink
	sgrReverse
	sgrHidden
	sgrStrike
)

// sgrOn maps the parameters that set an attribute to its bit, sgrOff the
// ones that clear attributes.
var (
	sgrOn  = map[string]uint16{"1": sgrBold, "2": sgrDim, "3": sgrItalic, "4": sgrUnderline, "21": sgrUnderline, "5": sgrBlink, "6": sgrBlink, "7": sgrReverse, "8": sgrHidden, "9": sgrStrike}
	sgrOff = map[string]uint16{"22": sgrBold | sgrDim, "23": sgrItalic, "24": sgrUnderline, "25": sgrBlink, "27": sgrReverse, "28": sgrHidden, "29": sgrStrike}
)

// sgrParams lists the parameter of each attribute bit, in bit order.
var sgrParams = []string{"1", "2", "3", "4", "5", "7", "8", "9"}

func (s sgrState) zero() bool { return s.attrs == 0 && s.fg == "" && s.bg == "" }

// apply follows one SGR sequence; params is what stands between ESC [ and m.
func (s *sgrState) apply(params string) {
	if params == "" {
		*s = sgrState{}
		return
	}
	parts := strings.Split(params, ";")
	for i := 0; i < len(parts); i++ {
		p := parts[i]
		switch {
		case p == "" || p == "0":
			*s = sgrState{}
		case p == "38" || p == "48":
			// 38;5;n and 38;2;r;g;b take the next parameters with them.
			n := 0
			if i+1 < len(parts) {
				switch parts[i+1] {
				case "5":
					n = 2
				case "2":
					n = 4
				}
			}
			if n == 0 || i+n >= len(parts) {
				return // malformed: a terminal ignores the rest
			}
			c := strings.Join(parts[i:i+n+1], ";")
			if p == "38" {
				s.fg = c
			} else {
				s.bg = c
			}
			i += n
		case strings.HasPrefix(p, "38:"):
			s.fg = p
		case strings.HasPrefix(p, "48:"):
			s.bg = p
		case strings.HasPrefix(p, "4:"):
			if p == "4:0" {
				s.attrs &^= sgrUnderline
			} else {
				s.attrs |= sgrUnderline
			}
		case p == "39":
			s.fg = ""
		case p == "49":
			s.bg = ""
		case len(p) == 2 && (p[0] == '3' || p[0] == '9') && p[1] >= '0' && p[1] <= '7':
			s.fg = p
		case len(p) == 2 && p[0] == '4' && p[1] >= '0' && p[1] <= '7':
			s.bg = p
		case len(p) == 3 && p[:2] == "10" && p[2] >= '0' && p[2] <= '7':
			s.bg = p
		default:
			if bit, ok := sgrOn[p]; ok {
				s.attrs |= bit
			} else if bits, ok := sgrOff[p]; ok {
				s.attrs &^= bits
			}
		}
	}
}

// appendTo writes the sequence that sets s from the terminal's defaults,
// nothing when s is the default.
func (s sgrState) appendTo(b []byte) []byte {
	if s.zero() {
		return b
	}
	b = append(b, "\x1b[0"...)
	for i, p := range sgrParams {
		if s.attrs&(1<<i) != 0 {
			b = append(b, ';')
			b = append(b, p...)
		}
	}
	for _, c := range []string{s.fg, s.bg} {
		if c != "" {
			b = append(b, ';')
			b = append(b, c...)
		}
	}
	return append(b, 'm')
}
