package markdown

import (
	"strconv"
	"strings"
	"sync"

	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/ui/highlight"
)

// attr is how a piece of text is drawn. The colour is kept as its RGB
// value, so attrs compare and can key the cache of their sequences.
type attr struct {
	rgb                                    uint32
	hasFg                                  bool
	bold, italic, underline, strike, faint bool
}

// with lays a theme mark over a: its colour replaces a's, its attributes
// add to a's (a strong word inside a link is bold and a link).
func (a attr) with(m theme.Mark) attr {
	if m.Color != nil {
		r, g, b, _ := m.Color.RGBA()
		a.rgb, a.hasFg = (r>>8)<<16|(g>>8)<<8|b>>8, true
	}
	a.bold = a.bold || m.Bold
	a.italic = a.italic || m.Italic
	a.underline = a.underline || m.Underline
	a.strike = a.strike || m.Strikethrough
	a.faint = a.faint || m.Faint
	return a
}

// sgrs caches the sequence of each attr: a reply uses a handful of them,
// thousands of times.
var sgrs sync.Map // attr -> string

// sgr is the sequence that sets a, from a reset state.
func (a attr) sgr() string {
	if s, ok := sgrs.Load(a); ok {
		return s.(string)
	}
	var p []string
	for _, f := range []struct {
		on   bool
		code string
	}{{a.bold, "1"}, {a.faint, "2"}, {a.italic, "3"}, {a.underline, "4"}, {a.strike, "9"}} {
		if f.on {
			p = append(p, f.code)
		}
	}
	if a.hasFg {
		p = append(p, "38", "2", strconv.Itoa(int(a.rgb>>16)), strconv.Itoa(int(a.rgb>>8&0xff)), strconv.Itoa(int(a.rgb&0xff)))
	}
	s := "\x1b[" + strings.Join(p, ";") + "m"
	sgrs.Store(a, s)
	return s
}

// The sequences the renderer writes besides an attr's: a reset at the end
// of every styled run, so each line stands alone; and reverse video around
// an escape shown for a character of the input, switched off with its own
// code so the surrounding style carries on (as safetext.Mark draws it).
const (
	reset   = "\x1b[m"
	markOn  = "\x1b[7m"
	markOff = "\x1b[27m"
)

// syntaxMark maps a highlighter kind to the theme's colour for it.
func syntaxMark(st *theme.SyntaxStyle, k highlight.Kind) theme.Mark {
	switch k {
	case highlight.Keyword:
		return st.Keyword
	case highlight.Type:
		return st.Type
	case highlight.Constant:
		return st.Constant
	case highlight.Function:
		return st.Function
	case highlight.String:
		return st.String
	case highlight.Number:
		return st.Number
	case highlight.Comment:
		return st.Comment
	case highlight.Meta:
		return st.Meta
	case highlight.Tag:
		return st.Tag
	case highlight.Attribute:
		return st.Attribute
	case highlight.Key:
		return st.Key
	case highlight.Added:
		return st.Added
	case highlight.Removed:
		return st.Removed
	case highlight.Hunk:
		return st.Hunk
	}
	return theme.Mark{}
}
