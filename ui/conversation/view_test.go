package conversation

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed92b641c3/workbench/tools"
)

func TestEmptyView(t *testing.T) {
	t.Parallel()
	t.Run("an empty conversation is blank lines of the full height", func(t *testing.T) {
		v := newView(40, 5)
		if got := screen(t, v); got != "\n\n\n\n" {
			t.Fatalf("empty view = %q", got)
		}
		if !v.AtBottom() {
			t.Fatal("an empty view should count as at the bottom")
		}
	})
	t.Run("a view without a size draws nothing", func(t *testing.T) {
		v := New()
		v.AddUser("hello")
		if got := v.View(); got != "" {
			t.Fatalf("View with no size = %q", got)
		}
	})
}

func TestStreamedAnswer(t *testing.T) {
	t.Parallel()
	v := newView(60, 24)
	v.AddUser("What does the build do?")
	// Stop in the middle of the code block: the paragraph and the list
	// are finished and rendered, the code is the open tail.
	cut := strings.Index(answer, "}\n```")
	for _, d := range deltas(answer[:cut], 7) {
		v.AppendAssistantDelta(d)
		screen(t, v)
	}
	t.Run("streaming", func(t *testing.T) {
		golden.RequireEqual(t, screen(t, v))
	})
	for _, d := range deltas(answer[cut:], 7) {
		v.AppendAssistantDelta(d)
		screen(t, v)
	}
	v.FinishAssistant()
	t.Run("finished", func(t *testing.T) {
		golden.RequireEqual(t, screen(t, v))
	})
}

// TestColours keeps one golden with the escape sequences, so a change to
// how items are styled shows up in review.
func TestColours(t *testing.T) {
	t.Parallel()
	v := newView(60, 20)
	v.AddUser("Status?")
	v.AppendAssistantDelta("Running **git status**.")
	v.AddToolUse("1", "Bash", bashInput("git status"))
	v.SetToolResult("1", tools.Result{Text: "On branch main\nnothing to commit"}, 120*time.Millisecond)
	v.AddToolUse("2", "Bash", bashInput("false"))
	v.SetToolResult("2", tools.Result{Text: "exit status 1", IsError: true}, 10*time.Millisecond)
	v.AddThinking("considering")
	v.AddNotice("hook: formatted")
	v.AddError("rate limited")
	golden.RequireEqual(t, v.View())
}

func TestStreamingInPiecesDrawsLikeOneDelta(t *testing.T) {
	t.Parallel()
	text := answer + "\n\n- a list item\n\n  continued in the same item\n- another\n\n" +
		"~~~\nplain fenced\n\n\nwith blank lines\n~~~\nTrailing paragraph that is still being wri"
	for _, size := range []int{1, 3, 16} {
		whole := newView(50, 40)
		whole.AppendAssistantDelta(text)
		pieces := newView(50, 40)
		for _, d := range deltas(text, size) {
			pieces.AppendAssistantDelta(d)
			pieces.View()
		}
		if got, want := screen(t, pieces), screen(t, whole); got != want {
			t.Fatalf("deltas of %d bytes draw\n%s\nbut one delta draws\n%s", size, got, want)
		}
	}
}

func TestNarrowWidth(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("supercalifragilistic", 5)
	cases := []struct {
		name string
		add  func(v *View)
	}{
		{"a long word in a user message is broken", func(v *View) { v.AddUser(long) }},
		{"wide characters wrap by cells", func(v *View) { v.AddUser(strings.Repeat("漢字かな😀", 12)) }},
		{"a long word in a reply is broken", func(v *View) { v.AddAssistant("See " + long + " and https://example.com/" + long) }},
		{"a wide table is cut to fit", func(v *View) {
			v.AddAssistant("| a | b | c |\n|---|---|---|\n| " + long + " | " + long + " | x |")
		}},
		{"a long heading is wrapped", func(v *View) { v.AddAssistant("# " + long) }},
		{"a long code line is wrapped", func(v *View) { v.AddAssistant("```go\nx := \"" + long + "\"\n```") }},
		{"a streaming tail wraps", func(v *View) { v.AppendAssistantDelta("```\n" + long + "\n" + long) }},
		{"a long command is clipped in the header", func(v *View) {
			v.AddToolUse("1", "Bash", bashInput("echo "+long))
			v.SetToolResult("1", tools.Result{Text: long + "\n" + long}, time.Second)
		}},
		{"expanded output wraps", func(v *View) {
			v.AddToolUse("1", "Bash", bashInput("cat"))
			v.SetToolResult("1", tools.Result{Text: strings.Repeat(long+"\n", 6)}, time.Second)
			v.ToggleExpand()
		}},
		{"a long tool name still fits", func(v *View) { v.AddToolUse("1", "mcp__"+long, []byte(`{"q":1}`)) }},
		{"a spill path is wrapped", func(v *View) {
			v.AddToolUse("1", "Bash", bashInput("make"))
			v.SetToolResult("1", tools.Result{Text: "x", Spill: &tools.Spill{Path: "/" + long + "/out.txt", Bytes: 1 << 30, Lines: 1e7}}, time.Minute)
		}},
		{"a notice and an error wrap", func(v *View) { v.AddNotice(long); v.AddError(long) }},
		{"expanded thinking wraps", func(v *View) { v.AddThinking(long); v.ToggleExpand() }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			v := newView(40, 30)
			c.add(v)
			screen(t, v) // checks every line's width
			v.SetSize(23, 30)
			screen(t, v)
		})
	}
	t.Run("the narrow conversation", func(t *testing.T) {
		t.Parallel()
		v := newView(40, 40)
		fill(v, 6)
		golden.RequireEqual(t, screen(t, v))
	})
}

func TestResizeRerendersForTheNewWidth(t *testing.T) {
	t.Parallel()
	v := newView(80, 10)
	v.AddAssistant(strings.Repeat("word ", 30))
	wide := screen(t, v)
	v.SetSize(30, 10)
	narrow := screen(t, v)
	if strings.Count(strings.TrimSpace(narrow), "\n") <= strings.Count(strings.TrimSpace(wide), "\n") {
		t.Fatalf("narrowing did not rewrap:\n%s\n--\n%s", wide, narrow)
	}
}

func TestOnlyVisibleItemsRender(t *testing.T) {
	t.Parallel()
	v := newView(120, 40)
	fill(v, 3000)
	v.View()
	rendered := 0
	for i := range v.entries {
		if v.entries[i].width != 0 {
			rendered++
		}
	}
	if rendered == 0 || rendered > 20 {
		t.Fatalf("%d of %d items rendered for one screen", rendered, v.Len())
	}
}

func TestSanitize(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, in, want string }{
		{"colour codes are removed", "\x1b[31mred\x1b[0m", "red"},
		{"a carriage return keeps the last state of a line", "10%\r50%\r100%\nnext", "100%\nnext"},
		{"windows line ends become newlines", "a\r\nb", "a\nb"},
		{"tabs become spaces", "a\tb", "a    b"},
		{"other control characters are dropped", "a\x07b\x00c", "abc"},
		{"plain text is unchanged", "héllo wörld", "héllo wörld"},
	}
	for _, c := range cases {
		if got := sanitize(c.in); got != c.want {
			t.Errorf("%s: sanitize(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

func TestWhitespaceReplyLeavesNothing(t *testing.T) {
	t.Parallel()
	v := newView(40, 4)
	v.AddUser("hi")
	v.AppendAssistantDelta("\n\n")
	v.AddToolUse("1", "Bash", bashInput("ls"))
	if v.Len() != 2 {
		t.Fatalf("a blank reply was kept: %d items", v.Len())
	}
	if got := screen(t, v); got != "› hi\n\n● Bash(ls)\n" {
		t.Fatalf("screen = %q", got)
	}
}

func TestClearEmptiesTheConversation(t *testing.T) {
	t.Parallel()
	v := newView(40, 3)
	fill(v, 10)
	v.SelectPrev()
	v.Clear()
	if v.Len() != 0 || screen(t, v) != "\n\n" {
		t.Fatal("Clear left items behind")
	}
	if _, _, ok := v.Selected(); ok {
		t.Fatal("Clear left a selection")
	}
}

func TestAFinishedReplyLooksLikeOneAddedWhole(t *testing.T) {
	t.Parallel()
	text := answer + "\n\n- a\n\n  still a\n- b\n\n> quoted\n\n| x | y |\n|---|---|\n| 1 | 2 |"
	streamed := newView(70, 60)
	for _, d := range deltas(text, 5) {
		streamed.AppendAssistantDelta(d)
		streamed.View()
	}
	streamed.FinishAssistant()
	whole := newView(70, 60)
	whole.AddAssistant(text)
	if got, want := screen(t, streamed), screen(t, whole); got != want {
		t.Fatalf("streamed and finished:\n%s\nadded whole:\n%s", got, want)
	}
	if streamed.Len() < 5 {
		t.Fatalf("the reply was not split into blocks: %d entries", streamed.Len())
	}
}

// TestRenderedLinesAreNotPadded: no line of a rendered reply ends in
// spaces. The conversation sends every visible line to the terminal on
// each redraw, and a line padded to the full width (as the old renderer
// padded, each space with its own colour) is several times its text.
func TestRenderedLinesAreNotPadded(t *testing.T) {
	t.Parallel()
	md := newMarkdown()
	text := answer + "\n\n| a | b |\n|:-:|--:|\n| x | yy |\n\n> quote\n\n- [ ] task\n\n---"
	for _, l := range md.render(text, 50) {
		if strings.HasSuffix(ansi.Strip(l), " ") {
			t.Errorf("a padded line: %q", l)
		}
	}
}

// TestInlineCodeIsColouredNotPadded: inline code in an answer is marked by
// its colour alone, with no space each side (a padding that fills a
// background reads as double spaces where there is no background).
func TestInlineCodeIsColouredNotPadded(t *testing.T) {
	t.Parallel()
	v := newView(60, 6)
	v.AddAssistant("It prints `hi` and exits.")
	if s := screen(t, v); !strings.Contains(s, "It prints hi and exits.") {
		t.Fatalf("inline code is padded:\n%s", s)
	}
	raw := v.View()
	i := strings.Index(raw, "hi")
	if i < 0 || !strings.Contains(raw[max(0, i-30):i], "\x1b[") {
		t.Errorf("inline code is not coloured: %q", raw)
	}
}
