package conversation

import (
	"strings"

	"github.com/seed92b641c3/workbench/ui/markdown"
)

// tabWidth is how many spaces a tab becomes. Terminals put a tab at the next
// multiple of 8, which width counting cannot know, so tabs are expanded
// before anything is measured. It is the Markdown renderer's, so a reply's
// code reads the same streaming and finished.
const tabWidth = markdown.TabWidth

// markdownRenderer renders the finished blocks of replies. It holds nothing: the
// renderer reads the current theme on each call. It stays a type so the
// view has one place to ask and Restyle one thing to replace.
type markdownRenderer struct{}

func newMarkdown() *markdownRenderer { return &markdownRenderer{} }

// render turns Markdown into lines no wider than width, without leading or
// trailing blank lines. Every character of the model's text that could act
// on the terminal or hide is shown as a marked escape by the renderer
// itself (ui/markdown draws input text only through safetext).
func (m *markdownRenderer) render(src string, width int) []string {
	if strings.TrimSpace(src) == "" {
		return nil
	}
	return markdown.Render(src, width)
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
