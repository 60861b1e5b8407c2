package pty

import (
	"fmt"
	"strings"
	"testing"
)

// screenful is rows lines of text 76 columns wide in a few colours and
// attributes, the cursor on the row after them.
func screenful(rows int) string {
	var b strings.Builder
	for i := range rows {
		fmt.Fprintf(&b, "\x1b[%dm%02d %s\x1b[0m\r\n", []int{0, 31, 1, 7, 4, 42}[i%6], i, strings.Repeat(string(rune('a'+i%26)), 73))
	}
	return b.String()
}

// A screen made smaller and then as large as before shows what it showed,
// cell for cell, with the cursor and the pen where they were.
func TestFeederKeepsTheScreenThroughAResizeRoundTrip(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name             string
		lines            int
		small, large     [2]int // rows, cols
		through          [][2]int
		wantRowsAtTheEnd int
	}{
		{"narrower", 10, [2]int{21, 30}, [2]int{21, 80}, nil, 10},
		// The cursor is below the smaller screen: rows slide off the top
		// and come back.
		{"narrower and shorter with the cursor at the bottom", 23, [2]int{17, 30}, [2]int{24, 80}, nil, 23},
		{"shorter only", 20, [2]int{12, 80}, [2]int{24, 80}, nil, 20},
		{"through two smaller sizes", 20, [2]int{15, 40}, [2]int{24, 80}, [][2]int{{10, 20}}, 20},
	}
	for _, c := range cases {
		for _, fast := range []bool{true, false} {
			ref := newTestTerm(c.large[0], c.large[1], fast)
			term := newTestTerm(c.large[0], c.large[1], fast)
			in := screenful(c.lines) + "\x1b[32m$ "
			ref.feed(in)
			term.feed(in)
			term.f.resize(c.small[0], c.small[1])
			for _, s := range c.through {
				term.f.resize(s[0], s[1])
			}
			term.f.resize(c.large[0], c.large[1])
			if err := sameScreen(ref.vt, term.vt); err != nil {
				t.Errorf("%s (fast %v): %v", c.name, fast, err)
			}
			// The pen is the program's: what it prints next is green.
			ref.feed("x")
			term.feed("x")
			if err := sameScreen(ref.vt, term.vt); err != nil {
				t.Errorf("%s (fast %v), printing after: %v", c.name, fast, err)
			}
		}
	}
}

// What the program drew at the smaller size wins over the kept copy.
func TestFeederKeepsOnlyWhatTheProgramDidNotRedraw(t *testing.T) {
	t.Parallel()
	term := newTestTerm(10, 80, false)
	term.feed(screenful(5) + "\x1b7")
	term.f.resize(10, 30)
	// The prompt row is redrawn at the new width, row 1 is erased.
	term.feed("\r\x1b[K$ ls\x1b[2;1H\x1b[2K")
	term.f.resize(10, 80)
	want := []string{"00 " + strings.Repeat("a", 73), "", "02 " + strings.Repeat("c", 73), "03 " + strings.Repeat("d", 73),
		"04 " + strings.Repeat("e", 73), "$ ls"}
	for i, w := range want {
		if got := term.line(i); got != w {
			t.Errorf("row %d reads %q, want %q", i, got, w)
		}
	}
	// The program's saved cursor (ESC 7 at row 5) is still its own.
	term.feed("\x1b8X")
	if got := term.line(5); got != "X ls" {
		t.Errorf("after ESC 8 row 5 reads %q, want %q", got, "X ls")
	}
}

// A screen that scrolled or was cleared while small keeps nothing of the
// old one, and the alternate screen is never kept.
func TestFeederForgetsAScreenThatMovedOn(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, between string }{
		{"scrolled a screenful", strings.Repeat("new\r\n", 12)},
		{"cleared", "\x1b[2J\x1b[H$ "},
		{"on the alternate screen", "\x1b[?1049h\x1b[Hfull screen"},
	}
	for _, c := range cases {
		term := newTestTerm(10, 80, false)
		before := screenful(5)
		if c.name == "on the alternate screen" {
			before = "\x1b[?1049h" + before
			c.between = "\x1b[Hfull screen"
		}
		term.feed(before)
		term.f.resize(10, 30)
		term.feed(c.between)
		term.f.resize(10, 80)
		for r := range 10 {
			if got := term.line(r); len(got) > 30 {
				t.Errorf("%s: row %d came back as %q", c.name, r, got)
			}
		}
	}
}

// The round trip a pane makes when the keyboard leaves it for the input and
// comes back at 80 columns: 80x21 while focused, 30x17 in the side column.
// bash redraws its prompt at each size; its earlier output stays whole.
func TestSessionKeepsOutputThroughAFocusRoundTrip(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	s := interactiveBash(t, m, 21, 80)
	line := strings.Repeat("0", 75) + "X" // 76 columns
	if _, err := s.Write([]byte("printf '%075dX\\n' 0\r")); err != nil {
		t.Fatal(err)
	}
	waitScreen(t, s, "the line", func(sc *Screen) bool { return sc.Line(1) == line && sc.Line(2) == "wb$" })
	if err := s.Resize(17, 30); err != nil {
		t.Fatal(err)
	}
	waitScreen(t, s, "the narrow screen", func(sc *Screen) bool { return sc.Line(1) == line[:30] })
	if err := s.Resize(21, 80); err != nil {
		t.Fatal(err)
	}
	sc := waitScreen(t, s, "the line whole again", func(sc *Screen) bool { return sc.Line(1) == line })
	if _, err := s.Write([]byte("echo after\r")); err != nil {
		t.Fatal(err)
	}
	sc = waitScreen(t, s, "the next command", func(sc *Screen) bool { return strings.Contains(sc.Text(), "\nafter\nwb$") })
	if sc.Line(1) != line {
		t.Errorf("row 1 reads %q after the next command, want the whole line", sc.Line(1))
	}
}
