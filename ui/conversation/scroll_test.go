package conversation

import (
	"fmt"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/tools"
)

// lastLine is the last non-blank line of a screen.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// users adds n one-line messages "m0" ... "m(n-1)"; each takes two lines
// on screen with its gap.
func users(v *View, n int) {
	for i := range n {
		v.AddUser(fmt.Sprintf("m%d", i))
	}
}

func TestScrollPinning(t *testing.T) {
	t.Parallel()
	t.Run("new content keeps the bottom visible", func(t *testing.T) {
		t.Parallel()
		v := newView(40, 5)
		users(v, 10)
		sofar := ""
		for _, d := range deltas(strings.Repeat("streaming words go here ", 20), 5) {
			v.AppendAssistantDelta(d)
			sofar += d
			got := screen(t, v)
			if !strings.HasSuffix(strings.TrimSpace(sofar), strings.TrimSpace(lastLine(got))) {
				t.Fatalf("the end of the reply is not on screen:\n%s", got)
			}
			if !v.AtBottom() {
				t.Fatal("AtBottom is false while pinned")
			}
		}
	})
	t.Run("a person who scrolled up is not pulled down", func(t *testing.T) {
		t.Parallel()
		v := newView(40, 5)
		users(v, 10)
		v.ScrollBy(-4)
		before := screen(t, v)
		if v.AtBottom() {
			t.Fatal("AtBottom after scrolling up")
		}
		for _, d := range deltas("a reply the person is not reading yet\n\nmore", 4) {
			v.AppendAssistantDelta(d)
		}
		if got := screen(t, v); got != before {
			t.Fatalf("the screen moved while scrolled up:\n%s\n-- was --\n%s", got, before)
		}
	})
	t.Run("scrolling back down pins the view again", func(t *testing.T) {
		t.Parallel()
		v := newView(40, 5)
		users(v, 10)
		v.ScrollBy(-4)
		v.ScrollBy(4)
		if !v.AtBottom() {
			t.Fatal("not at the bottom after scrolling back")
		}
		v.AddNotice("new")
		if got := lastLine(screen(t, v)); got != "· new" {
			t.Fatalf("last line %q, want the new notice", got)
		}
	})
	t.Run("sending a message pins the view", func(t *testing.T) {
		t.Parallel()
		v := newView(40, 5)
		users(v, 10)
		v.ScrollToTop()
		v.AddUser("latest")
		if got := lastLine(screen(t, v)); got != "› latest" {
			t.Fatalf("last line %q after sending", got)
		}
	})
	t.Run("scrolling stops at the top", func(t *testing.T) {
		t.Parallel()
		v := newView(40, 5)
		users(v, 10)
		v.ScrollBy(-1000)
		if got := strings.Split(screen(t, v), "\n")[0]; got != "› m0" {
			t.Fatalf("first line %q, want the first message", got)
		}
		v.ScrollBy(-1)
		if got := strings.Split(screen(t, v), "\n")[0]; got != "› m0" {
			t.Fatalf("first line %q after scrolling past the top", got)
		}
	})
	t.Run("scrolling by one line moves one line", func(t *testing.T) {
		t.Parallel()
		v := newView(40, 5)
		users(v, 10)
		v.ScrollToTop()
		v.ScrollBy(1)
		if got := strings.Split(screen(t, v), "\n")[:2]; got[0] != "" || got[1] != "› m1" {
			t.Fatalf("screen starts %q after one line down", got)
		}
		v.ScrollBy(1)
		if got := strings.Split(screen(t, v), "\n")[0]; got != "› m1" {
			t.Fatalf("screen starts %q after two lines down", got)
		}
	})
	t.Run("pages keep one line of context", func(t *testing.T) {
		t.Parallel()
		v := newView(40, 5)
		users(v, 20)
		v.ScrollToTop()
		first := strings.Split(screen(t, v), "\n")
		v.PageDown()
		second := strings.Split(screen(t, v), "\n")
		if second[0] != first[len(first)-1] {
			t.Fatalf("page down starts %q, want the old last line %q", second[0], first[len(first)-1])
		}
		v.PageUp()
		if got := strings.Split(screen(t, v), "\n"); got[0] != first[0] {
			t.Fatalf("page up went to %q, want %q", got[0], first[0])
		}
	})
	t.Run("content shorter than the screen starts at the top", func(t *testing.T) {
		t.Parallel()
		v := newView(40, 6)
		users(v, 2)
		if got := screen(t, v); got != "› m0\n\n› m1\n\n\n" {
			t.Fatalf("screen = %q", got)
		}
		v.ScrollBy(-3)
		if !v.AtBottom() {
			t.Fatal("a short conversation is always at the bottom")
		}
	})
	t.Run("collapsing output above the end does not leave a blank screen", func(t *testing.T) {
		t.Parallel()
		v := newView(40, 5)
		users(v, 2)
		v.AddToolUse("x", "Bash", bashInput("seq"))
		v.SetToolResult("x", tools.Result{Text: numbered(40)}, 0)
		v.SelectPrev()
		v.ToggleExpand()
		v.ScrollBy(30)
		v.ToggleExpand()
		if got := screen(t, v); strings.TrimSpace(got) == "" {
			t.Fatal("blank screen after collapsing")
		}
	})
}

func TestScrollAtScale(t *testing.T) {
	t.Parallel()
	v := newView(100, 30)
	fill(v, 5000)
	v.ScrollToTop()
	if got := strings.Split(screen(t, v), "\n")[0]; !strings.Contains(got, "Question 0") {
		t.Fatalf("top of a long conversation starts %q", got)
	}
	for range 50 {
		v.PageDown()
		screen(t, v)
	}
	v.ScrollToBottom()
	if got := screen(t, v); !strings.Contains(got, "line 4") {
		t.Fatalf("bottom of a long conversation:\n%s", got)
	}
}
