package markdown

import (
	"strings"
	"testing"

	xansi "github.com/charmbracelet/x/ansi"
)

// FuzzRender renders any text at several widths: it must not panic, no
// line may be wider than the width, and nothing but the renderer's own
// styles may reach the terminal.
func FuzzRender(f *testing.F) {
	for _, seed := range []string{
		"# h\n\n*a* **b** ~~c~~ `d` [e](f) ![g](h) <i>j</i>\n\n> q\n\n- [ ] t\n  1. n\n\n---",
		"```go\nfunc\t() {}\n```", "| a | b |\n|:-|-:|\n| 1 | 2 |", "\x1b[31mred\u202e\u200b\x00\r\n&#27;&#0;",
		"www.x.y https://a.b/(c)", "<div>\n\ttab\n</div>", "1. a\n\n   b\n\n   ```\n   c\n   ```",
		"漢字かな😀 " + strings.Repeat("supercalifragilistic", 4),
	} {
		f.Add(seed, 40)
	}
	f.Fuzz(func(t *testing.T, src string, width int) {
		width = minWidth + abs(width)%120
		out := Render(src, width)
		for i, l := range out {
			if w := xansi.StringWidth(l); w > width {
				t.Fatalf("line %d is %d cells at width %d: %q", i, w, width, l)
			}
		}
		checkOnlySGR(t, strings.Join(out, "\n"))
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
