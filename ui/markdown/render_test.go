package markdown

import (
	"fmt"
	"os"
	"strings"
	"testing"

	xansi "github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed92b641c3/workbench/theme"
)

// plainLines renders and strips the styles, checking the width promise.
func plainLines(t testing.TB, src string, width int) []string {
	t.Helper()
	lines := Render(src, width)
	for i, l := range lines {
		if w := xansi.StringWidth(l); w > width {
			t.Fatalf("line %d is %d cells, wider than %d: %q", i, w, width, xansi.Strip(l))
		}
		lines[i] = xansi.Strip(l)
	}
	return lines
}

func TestBlocksRenderAsAPersonReadsThem(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, src string
		width     int
		want      string
	}{
		{"paragraphs are wrapped and one blank line apart", "one two three four five six\n\nseven", 12,
			"one two\nthree four\nfive six\n\nseven"},
		{"a soft break is a space, a hard break a new line", "a\nb  \nc\\\nd", 20, "a b\nc\nd"},
		{"headings keep their level's marks", "# One\n\n### Three", 20, "# One\n\n### Three"},
		{"a long heading wraps under its text", "## alpha beta gamma", 12, "## alpha\n   beta\n   gamma"},
		{"inline markup leaves its text", "*em* **strong** ~~gone~~ `code`", 40, "em strong gone code"},
		{"a link shows its address after its text", "[docs](https://x.dev/d)", 40, "docs (https://x.dev/d)"},
		{"a link whose text is its address shows it once", "<https://x.dev> and https://y.dev", 40, "https://x.dev and https://y.dev"},
		{"an image is its alt text and address", "![a cat](cat.png)", 40, "[image: a cat] (cat.png)"},
		{"escapes and entities are what they say", `\*x\* &amp; &copy; &#65;`, 40, "*x* & © A"},
		{"bullets change with depth", "- a\n  - b\n    - c", 20, "• a\n  ◦ b\n    ▪ c"},
		{"ordered lists keep their start and align", "9. nine\n1. ten", 20, " 9. nine\n10. ten"},
		{"tasks show their box", "- [ ] open\n- [x] done", 20, "[ ] open\n[x] done"},
		{"a loose list item's paragraphs are indented under its text", "1. first\n\n   more\n\n2. second", 20,
			"1. first\n\n   more\n\n2. second"},
		{"quotes have a bar, nested quotes two", "> a\n>\n> > b", 20, "│ a\n│\n│ │ b"},
		{"a thematic break is a rule across", "a\n\n---\n\nb", 5, "a\n\n─────\n\nb"},
		{"code is indented and folded, not wrapped", "```\nabc def ghi\n```", 8, "  abc de\n  f ghi"},
		{"tabs in code go to the next stop", "```\n\tx\ty\n```", 20, "      x   y"},
		{"indented code", "    x := 1", 20, "  x := 1"},
		{"html is literal text", "<div>\n  <b>x</b>\n</div>\n\nan <i>inline</i> tag", 30, "<div>\n  <b>x</b>\n</div>\n\nan <i>inline</i> tag"},
		{"a table aligns its columns", "| a | bb |\n|:-:|--:|\n| xyz | 1 |", 30, " a  │ bb\n────┼───\nxyz │  1"},
		{"a table too wide wraps its widest column", "| k | v |\n|---|---|\n| x | one two three |", 11,
			"k │ v\n──┼────────\nx │ one two\n  │ three"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := strings.Join(plainLines(t, c.src, c.width), "\n")
			if got != c.want {
				t.Errorf("Render(%q, %d) =\n%s\nwant\n%s", c.src, c.width, got, c.want)
			}
		})
	}
}

// No character of the input that would act on the terminal or hide
// reaches the output: each is a marked escape, and the only sequences
// left are the renderer's own styles.
func TestH16_RenderShowsControlAndInvisibleCharacters(t *testing.T) {
	t.Parallel()
	src := "a\x1b[2Jb \u202Eevil\u200B `c\x1b]0;t\x07` [l\u202E](http://x\x1b[31m)\n\n```sh\nrm \u200B-rf \x1b[8m/\n```\n\n| \u202E | x\x07 |\n|---|---|\n| \u2066 | y |"
	out := strings.Join(Render(src, 60), "\n")
	for _, raw := range []string{"\u202E", "\u200B", "\u2066", "\x07"} {
		if strings.Contains(out, raw) {
			t.Errorf("the output holds %q raw: %q", raw, out)
		}
	}
	for _, want := range []string{markOn + `\x1b` + markOff, markOn + "<U+202E>" + markOff, markOn + "<U+200B>" + markOff, markOn + `\x07` + markOff, markOn + "<U+2066>" + markOff} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q: %q", want, out)
		}
	}
	checkOnlySGR(t, out)
}

// checkOnlySGR fails if out holds a control character other than a
// newline, or an escape sequence other than a style (SGR).
func checkOnlySGR(t testing.TB, out string) {
	t.Helper()
	for i := 0; i < len(out); i++ {
		c := out[i]
		if c == '\x1b' && i+1 < len(out) && out[i+1] == '[' {
			j := i + 2
			for j < len(out) && (out[j] >= '0' && out[j] <= '9' || out[j] == ';') {
				j++
			}
			if j < len(out) && out[j] == 'm' {
				i = j
				continue
			}
		}
		if c < 0x20 && c != '\n' || c == 0x7f {
			t.Fatalf("the output holds %#x at byte %d: %q", c, i, out)
		}
	}
}

func TestGitHubExtensions(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, src, want string }{
		{"one or two tildes strike, three do not", "~~a~~ ~b~ ~~~c~~~", "a b ~~~c~~~"},
		{"a bare address is a link, the full stop after it is not", "see https://go.dev/doc.", "see https://go.dev/doc."},
		{"an address in parentheses keeps them outside", "(www.x.org)", "(www.x.org)"},
		{"a task box needs a space after it", "- [x]y\n- [X] z", "• [x]y\n[x] z"},
		{"a table after a paragraph's lines", "intro\n| a | b |\n|---|---|\n| 1 | 2 |", "intro\n\na │ b\n──┼──\n1 │ 2"},
		{"an escaped pipe is text, in code too", "| a | b |\n|---|---|\n| 1 \\| 2 | `x\\|y` |", "a     │ b\n──────┼────\n1 | 2 │ x|y"},
		{"a header and delimiter of different counts are no table", "| a | b |\n|---|\n| c | d |", "| a | b | |---| | c | d |"},
		{"rows are cut or filled to the header", "| a | b |\n|---|---|\n| 1 |\n| 2 | 3 | 4 |", "a │ b\n──┼──\n1 │\n2 │ 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := strings.Join(plainLines(t, c.src, 40), "\n"); got != c.want {
				t.Errorf("Render(%q) =\n%s\nwant\n%s", c.src, got, c.want)
			}
		})
	}
	// Strikethrough, a bare link and a task box are drawn, not just parsed.
	out := strings.Join(Render("~~a~~ https://x.org\n\n- [x] done", 40), "\n")
	for _, want := range []string{"\x1b[9ma", attr{}.with(theme.Markdown().Link).sgr() + "https://x.org", attr{}.with(theme.Markdown().TaskDone).sgr() + "[x]"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q: %q", want, out)
		}
	}
}

// TestReply keeps a reply with every kind of block, as a person sees it
// at 60 and at 34 columns, and once with its escape sequences in each
// palette, so a change to the layout or the colours shows up in review.
func TestReply(t *testing.T) {
	src, err := os.ReadFile("testdata/reply.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{60, 34} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			golden.RequireEqual(t, strings.Join(plainLines(t, string(src), w), "\n")+"\n")
		})
	}
	defer theme.Use(theme.Current())
	for _, p := range []theme.Palette{theme.Dark, theme.Light} {
		theme.Use(p)
		t.Run(p.Name, func(t *testing.T) {
			golden.RequireEqual(t, strings.Join(Render(string(src), 60), "\n")+"\n")
		})
	}
}
