package highlight

import (
	"strings"
	"testing"
)

// FuzzHighlight feeds any text in every language: the highlighter must not
// panic, and the spans of each line must be the line, nothing lost or
// added, since the renderer draws exactly the spans.
func FuzzHighlight(f *testing.F) {
	for _, seed := range []string{
		"func main() {\n\ts := `x\n`\n}", "/* open", "\"unterminated \\", "'", "$", "${", "@", "#",
		"<a href='x", "<!--", "&amp", "--[[", "[[", "'''", "1e+", "0x", "\x00\xff\xfe", "日本語 'é' \"ü\"",
		"+++ a\n--- b\n@@", "$ ls\noutput", "=begin\n=end",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, l := range languages {
			h := New(strings.Fields(l.names)[0])
			for line := range strings.SplitSeq(src, "\n") {
				spans := h.Line(line)
				if got := join(spans); got != line {
					t.Fatalf("%s: spans %q do not join to the line %q", l.names, got, line)
				}
				for _, s := range spans {
					if s.Text == "" {
						t.Fatalf("%s: an empty span in %q", l.names, line)
					}
				}
			}
		}
	})
}
