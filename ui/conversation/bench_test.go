package conversation

import (
	"fmt"
	"strings"
	"testing"
)

// benchView measures View after n items, with everything on screen already
// rendered once: the cost of a frame that only redraws, as when the person
// types in the input below the conversation.
func benchView(b *testing.B, n int) {
	v := newView(120, 40)
	fill(v, n)
	v.View()
	v.View()
	for b.Loop() {
		v.View()
	}
}

func BenchmarkView100(b *testing.B)   { benchView(b, 100) }
func BenchmarkView10000(b *testing.B) { benchView(b, 10000) }

// benchScroll measures a frame while paging through history: each page
// brings items on screen that may never have been rendered.
func benchScroll(b *testing.B, n int) {
	v := newView(120, 40)
	fill(v, n)
	v.View()
	up := true
	for i := 0; b.Loop(); i++ {
		if i%10 == 0 {
			up = !up
		}
		if up {
			v.PageUp()
		} else {
			v.PageDown()
		}
		v.View()
	}
}

func BenchmarkScroll100(b *testing.B)   { benchScroll(b, 100) }
func BenchmarkScroll10000(b *testing.B) { benchScroll(b, 10000) }

// longAnswer is a long Markdown reply: prose, lists and code, about 40 KB.
func longAnswer() string {
	var s strings.Builder
	for i := range 60 {
		fmt.Fprintf(&s, "## Part %d\n\nThis part explains **step %d** in detail, with `inline code`, a [link](https://example.com/%d) and enough words to wrap across a line or two at this width.\n\n", i, i, i)
		s.WriteString("- first point\n- second point with more words\n- third\n\n")
		if i%3 == 0 {
			s.WriteString("```go\nfunc step() error {\n\tif err := run(); err != nil {\n\t\treturn fmt.Errorf(\"step: %w\", err)\n\t}\n\treturn nil\n}\n```\n\n")
		}
	}
	return s.String()
}

// BenchmarkStreamDelta measures one delta of a long streaming reply and
// the frame after it: the cost of keeping up with the model.
func BenchmarkStreamDelta(b *testing.B) {
	parts := deltas(longAnswer(), 16)
	start := func() *View {
		v := newView(120, 40)
		fill(v, 100)
		v.AddUser("Explain the whole build.")
		v.View()
		return v
	}
	v := start()
	i := 0
	for b.Loop() {
		if i == len(parts) {
			b.StopTimer()
			v, i = start(), 0
			b.StartTimer()
		}
		v.AppendAssistantDelta(parts[i])
		v.View()
		i++
	}
}

// BenchmarkRenderLongReply renders every block of a long reply once, at two
// widths, as a resize or a restored session does: the cost of the Markdown
// renderer itself, without the view around it.
func BenchmarkRenderLongReply(b *testing.B) {
	blocks := splitBlocks(longAnswer())
	md := newMarkdown()
	for b.Loop() {
		for _, w := range []int{100, 80} {
			for _, s := range blocks {
				md.render(s, w)
			}
		}
	}
}
