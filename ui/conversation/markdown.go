package conversation

import (
	"strings"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"
	xansi "github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/ui/safetext"
)

// maxRenderers bounds the glamour renderers kept at once. A renderer is
// built per width and building one is costly, but a terminal being dragged
// wider passes through many widths that never come back.
const maxRenderers = 4

// tabWidth is how many spaces a tab becomes. Terminals put a tab at the next
// multiple of 8, which width counting cannot know, so tabs are expanded
// before anything is measured.
const tabWidth = 4

// markdown renders Markdown to lines of a given width. It keeps one glamour
// renderer per recent width, because glamour parses its style sheet and
// sets up chroma each time a renderer is built.
type markdown struct {
	style     ansi.StyleConfig
	renderers map[int]*glamour.TermRenderer
	order     []int // widths, oldest first, for eviction
}

func newMarkdown() *markdown {
	st := theme.Glamour()
	// The conversation owns the spacing between items and the left edge, so
	// the document's own margin and surrounding blank lines are dropped.
	st.Document.Margin = nil
	st.Document.BlockPrefix = ""
	st.Document.BlockSuffix = ""
	return &markdown{style: st, renderers: map[int]*glamour.TermRenderer{}}
}

func (m *markdown) renderer(width int) *glamour.TermRenderer {
	if r, ok := m.renderers[width]; ok {
		return r
	}
	r, err := glamour.NewTermRenderer(glamour.WithStyles(m.style), glamour.WithWordWrap(width))
	if err != nil {
		return nil
	}
	if len(m.order) >= maxRenderers {
		delete(m.renderers, m.order[0])
		m.order = m.order[1:]
	}
	m.renderers[width] = r
	m.order = append(m.order, width)
	return r
}

// render turns Markdown into lines no wider than width, without leading or
// trailing blank lines. When glamour fails the text is shown plainly rather
// than lost.
func (m *markdown) render(src string, width int) []string {
	src = prepareMarkdown(src)
	if strings.TrimSpace(src) == "" {
		return nil
	}
	r := m.renderer(width)
	if r == nil {
		return wrapPlain(sanitize(src), width, "", theme.Base)
	}
	out, err := r.Render(src)
	if err != nil {
		return wrapPlain(sanitize(src), width, "", theme.Base)
	}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		// Marked after rendering, not before: glamour would style the
		// escapes' own sequences as text, and in a code block chroma would
		// split them apart.
		lines[i] = safetext.MarkStyled(trimPad(l))
	}
	lines = trimBlank(lines)
	return fitLines(lines, width)
}

// trimPad removes the spaces glamour pads every line to the full width
// with. Each padding space comes with its own colour sequence, so a padded
// line is several times the size of its text, and the conversation would
// send all of it to the terminal on every redraw. Padding drawn with a
// background colour is kept, since it is visible.
func trimPad(s string) string {
	for {
		t := s
		reset := ""
		for _, r := range []string{"\x1b[m", "\x1b[0m"} {
			if strings.HasSuffix(t, r) {
				t, reset = t[:len(t)-len(r)], r
				break
			}
		}
		n := len(t)
		for n > 0 && t[n-1] == ' ' {
			n--
		}
		if n == len(t) {
			return s
		}
		t = t[:n]
		if reset == "" {
			return t
		}
		// The spaces must be a styled run of their own, opened right
		// before them, or removing the reset would leak their style.
		if !strings.HasSuffix(t, "m") {
			return s
		}
		i := strings.LastIndex(t, "\x1b[")
		if i < 0 || !isSGR(t[i+2:len(t)-1]) || hasBackground(t[i+2:len(t)-1]) {
			return s
		}
		s = t[:i]
	}
}

// isSGR reports whether params are the parameters of a style sequence.
func isSGR(params string) bool {
	for i := 0; i < len(params); i++ {
		if (params[i] < '0' || params[i] > '9') && params[i] != ';' {
			return false
		}
	}
	return true
}

// hasBackground reports whether style parameters set a background colour.
func hasBackground(params string) bool {
	p := strings.Split(params, ";")
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case "48":
			return true
		case "38", "58":
			// Skip the colour's arguments: 5;n or 2;r;g;b.
			if i+1 < len(p) && p[i+1] == "5" {
				i += 2
			} else if i+1 < len(p) && p[i+1] == "2" {
				i += 4
			}
		case "7":
			return true // reverse video shows the foreground as background
		default:
			// 40-47 and 100-107 are the basic and bright backgrounds.
			if (len(p[i]) == 2 && p[i][0] == '4' || len(p[i]) == 3 && p[i][:2] == "10") &&
				p[i][len(p[i])-1] >= '0' && p[i][len(p[i])-1] <= '7' {
				return true
			}
		}
	}
	return false
}

// prepareMarkdown expands tabs and labels unlabelled code fences as plain
// text. Without a label chroma tries every lexer to guess the language,
// which costs around ten milliseconds per block and often guesses wrong.
func prepareMarkdown(src string) string {
	src = strings.ReplaceAll(src, "\t", strings.Repeat(" ", tabWidth))
	if !strings.Contains(src, "```") && !strings.Contains(src, "~~~") {
		return src
	}
	var b strings.Builder
	b.Grow(len(src) + 16)
	var f fence
	for line := range strings.SplitAfterSeq(src, "\n") {
		body := strings.TrimRight(line, "\n")
		if f.open {
			if f.closes(body) {
				f.open = false
			}
			b.WriteString(line)
			continue
		}
		if g, ok := opensFence(body); ok {
			f = g
			if g.info == "" {
				b.WriteString(body)
				b.WriteString("text")
				b.WriteString(line[len(body):])
				continue
			}
		}
		b.WriteString(line)
	}
	return b.String()
}

// fence is an open fenced code block: its marker character and length, so
// only a matching line closes it.
type fence struct {
	open bool
	char byte
	n    int
	info string
}

// opensFence reports whether a line opens a fenced code block.
func opensFence(line string) (fence, bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return fence{}, false
	}
	c := t[0]
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	if n < 3 {
		return fence{}, false
	}
	info := strings.TrimSpace(t[n:])
	if c == '`' && strings.Contains(info, "`") {
		return fence{}, false
	}
	return fence{open: true, char: c, n: n, info: info}, true
}

// closes reports whether a line closes the fence.
func (f fence) closes(line string) bool {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return false
	}
	t = strings.TrimRight(t, " ")
	if len(t) < f.n {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] != f.char {
			return false
		}
	}
	return true
}

// trimBlank drops blank lines (after stripping styles) at both ends.
func trimBlank(lines []string) []string {
	for len(lines) > 0 && isBlank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && isBlank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func isBlank(line string) bool {
	return strings.TrimSpace(xansi.Strip(line)) == ""
}

// fitLines hard-wraps any line wider than width. Glamour keeps long words
// and table rows whole, and a line wider than the view would break the
// layout of everything beside it.
func fitLines(lines []string, width int) []string {
	var out []string
	for i, l := range lines {
		if xansi.StringWidth(l) <= width {
			if out != nil {
				out = append(out, l)
			}
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(lines)+4), lines[:i]...)
		}
		out = append(out, strings.Split(xansi.Hardwrap(l, width, true), "\n")...)
	}
	if out == nil {
		return lines
	}
	return out
}
