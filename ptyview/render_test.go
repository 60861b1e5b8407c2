package ptyview

import (
	"github.com/mattn/go-runewidth"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/seed92b641c3/workbench/tasks/pty"
)

// fakeGrid is a screen built by hand, one character per cell as vt10x
// stores them.
type fakeGrid struct {
	rows, cols    int
	cells         []pty.Cell
	crow, ccol    int
	cursorVisible bool
}

func newGrid(rows, cols int) *fakeGrid {
	g := &fakeGrid{rows: rows, cols: cols, cells: make([]pty.Cell, rows*cols), cursorVisible: true}
	for i := range g.cells {
		g.cells[i] = pty.Cell{Rune: ' ', FG: pty.ColorDefault, BG: pty.ColorDefault, Width: 1}
	}
	return g
}

func (g *fakeGrid) Size() (int, int)                 { return g.rows, g.cols }
func (g *fakeGrid) Cell(r, c int) pty.Cell           { return g.cells[r*g.cols+c] }
func (g *fakeGrid) Cursor() (int, int, bool)         { return g.crow, g.ccol, g.cursorVisible }
func (g *fakeGrid) at(r, c int) *pty.Cell            { return &g.cells[r*g.cols+c] }
func (g *fakeGrid) put(r, c int, s string, st style) { g.putN(r, c, s, st) }

// putN writes s from column c as the emulator holds it: one cell a
// character, and a continuation cell after a wide one.
func (g *fakeGrid) putN(r, c int, s string, st style) int {
	for _, ch := range s {
		if c >= g.cols {
			break
		}
		w := uint8(1)
		if ch >= 0xa0 {
			w = uint8(emulatorWidths.RuneWidth(ch))
		}
		*g.at(r, c) = pty.Cell{Rune: ch, FG: st.fg, BG: st.bg, Attr: st.attr, Width: w}
		c++
		if w == 2 && c < g.cols {
			*g.at(r, c) = pty.Cell{Rune: ' ', FG: st.fg, BG: st.bg, Attr: st.attr, Cont: true}
			c++
		}
	}
	return c
}

// emulatorWidths measures characters as the pty package does.
var emulatorWidths = &runewidth.Condition{EastAsianWidth: false}

func render(g grid, w, h int, cursor bool) string {
	var r renderer
	return r.render(g, w, h, cursor)
}

// checkFrame fails unless the frame has exactly h lines of exactly w cells.
func checkFrame(t *testing.T, frame string, w, h int) {
	t.Helper()
	lines := strings.Split(frame, "\n")
	if len(lines) != h {
		t.Fatalf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n != w {
			t.Fatalf("line %d is %d cells wide, want %d: %q", i, n, w, l)
		}
	}
}

func TestRenderGroupsRunsOfEqualStyle(t *testing.T) {
	t.Parallel()
	g := newGrid(3, 40)
	red := style{fg: 1, bg: pty.ColorDefault}
	g.put(0, 0, "plain text all in one style", plainStyle)
	g.put(1, 0, "red red red", red)
	g.put(1, 12, "blue on yellow", style{fg: 12, bg: 3, attr: pty.AttrBold})
	frame := render(g, 40, 3, false)
	checkFrame(t, frame, 40, 3)
	lines := strings.Split(frame, "\n")
	if strings.Contains(lines[0], "\x1b") {
		t.Errorf("a plain line has escape sequences: %q", lines[0])
	}
	// red run, default gap, blue run, default padding: four sequences.
	if n := strings.Count(lines[1], "\x1b["); n != 4 {
		t.Errorf("%d sequences for 3 runs + reset: %q", n, lines[1])
	}
	golden.RequireEqual(t, frame)
}

func TestRenderColoursAndAttributes(t *testing.T) {
	t.Parallel()
	g := newGrid(8, 30)
	g.put(0, 0, "ansi", style{fg: 2, bg: pty.ColorDefault})
	g.put(0, 5, "bright", style{fg: 9, bg: 4})
	g.put(1, 0, "palette", style{fg: 208, bg: 17})
	g.put(2, 0, "truecolor", style{fg: 0xff8000, bg: 0x102030})
	g.put(3, 0, "bold", style{fg: pty.ColorDefault, bg: pty.ColorDefault, attr: pty.AttrBold})
	g.put(3, 5, "underline", style{fg: pty.ColorDefault, bg: pty.ColorDefault, attr: pty.AttrUnderline})
	g.put(3, 15, "italic", style{fg: pty.ColorDefault, bg: pty.ColorDefault, attr: pty.AttrItalic})
	g.put(4, 0, "reverse", style{fg: 1, bg: pty.ColorDefault, attr: pty.AttrReverse})
	g.put(5, 0, "blink", style{fg: pty.ColorDefault, bg: pty.ColorDefault, attr: pty.AttrBlink})
	g.put(6, 0, "full row background", style{fg: pty.ColorDefault, bg: 4})
	for c := 19; c < 30; c++ {
		g.at(6, c).BG = 4
	}
	frame := render(g, 30, 8, false)
	checkFrame(t, frame, 30, 8)
	for _, want := range []string{"\x1b[0;32m", "\x1b[0;91;44m", "\x1b[0;38;5;208;48;5;17m", "\x1b[0;38;2;255;128;0;48;2;16;32;48m",
		"\x1b[0;1m", "\x1b[0;4m", "\x1b[0;3m", "\x1b[0;7;31m", "\x1b[0;5m"} {
		if !strings.Contains(frame, want) {
			t.Errorf("no %q in the frame", want)
		}
	}
	golden.RequireEqual(t, frame)
}

func TestRenderDrawsTheCursorOnlyWhenFocusedAndVisible(t *testing.T) {
	t.Parallel()
	g := newGrid(2, 10)
	g.put(0, 0, "$ ls", plainStyle)
	g.crow, g.ccol = 0, 4
	if f := render(g, 10, 2, false); strings.Contains(f, "\x1b[") {
		t.Errorf("cursor drawn in an unfocused pane: %q", f)
	}
	var r renderer
	f := r.render(g, 10, 2, true)
	if want := "$ ls\x1b[0;7m \x1b[0m     "; !strings.HasPrefix(f, want) {
		t.Errorf("focused: got %q, want the cell after ls reversed", f)
	}
	if r.cursorRow != 0 || r.cursorCol != 4 {
		t.Errorf("cursor reported at %d,%d", r.cursorRow, r.cursorCol)
	}
	g.cursorVisible = false
	if f := render(g, 10, 2, true); strings.Contains(f, "\x1b[") {
		t.Errorf("cursor drawn while the program hides it: %q", f)
	}
	// On a reverse-video cell the cursor shows as normal video.
	g.cursorVisible = true
	g.at(0, 4).Attr = pty.AttrReverse
	if f := render(g, 10, 2, true); !strings.Contains(f, "$ ls\x1b[0m ") && strings.Contains(f, "\x1b[0;7m") {
		t.Errorf("the cursor on a reverse cell: %q", f)
	}
}

func TestRenderWideCharactersNeverMisalign(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(g *fakeGrid)
		want  []string
	}{
		{"text printed in one go keeps its spacing",
			func(g *fakeGrid) { g.put(0, 0, "日本語 text", plainStyle) },
			[]string{"日本語 text"}},
		{"columns padded with spaces stay aligned",
			func(g *fakeGrid) { g.put(0, 0, "日  foo   x", plainStyle) },
			[]string{"日  foo   x"}},
		// A program placing text by column after wide characters finds it
		// where a terminal puts it: each wide character has its two cells.
		{"a column positioned after wide text is where the program put it",
			func(g *fakeGrid) { g.put(0, 0, "日本.txt", plainStyle); g.put(0, 15, "1,1", plainStyle) },
			[]string{"日本.txt" + strings.Repeat(" ", 15-8) + "1,1"}},
		{"a wide character overwritten in its second half is a blank",
			func(g *fakeGrid) { g.put(0, 0, "日本", plainStyle); g.put(0, 1, "x", plainStyle) },
			[]string{" x本"}},
		{"a wide character overwritten in its first half leaves a blank",
			func(g *fakeGrid) { g.put(0, 0, "日本", plainStyle); g.put(0, 2, "y", plainStyle) },
			[]string{"日y"}},
		{"a full row of wide characters fills the pane",
			func(g *fakeGrid) { g.put(0, 0, strings.Repeat("日", 20), plainStyle) },
			[]string{strings.Repeat("日", 10)}},
		{"a wide character without room for its second half is a blank",
			func(g *fakeGrid) { g.put(0, 0, strings.Repeat("x", 19)+"日", plainStyle) },
			[]string{strings.Repeat("x", 19)}},
		{"a combining mark joins its character",
			func(g *fakeGrid) { g.put(0, 0, "e\u0301te  |", plainStyle) },
			[]string{"\u00e9te  |"}},
		{"zero-width characters take no column",
			func(g *fakeGrid) { g.put(0, 0, "a\u200db\ufe0fc", plainStyle) },
			[]string{"abc"}},
		{"emoji and flags",
			func(g *fakeGrid) { g.put(0, 0, "ok 👍 🇺🇸 done", plainStyle) },
			[]string{"ok 👍 🇺🇸 done"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newGrid(1, 20)
			tc.setup(g)
			frame := render(g, 20, 1, false)
			checkFrame(t, frame, 20, 1)
			if got := screenText(frame); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestRenderAnyScreenFitsThePane draws random screens of random characters
// (wide, combining, emoji, controls) and styles into random pane sizes.
func TestRenderAnyScreenFitsThePane(t *testing.T) {
	t.Parallel()
	chars := []rune("aZ ~日本語한글👍🏽🇺🇸\u0301\u200d\ufe0f─│é€\u00ad\u3000ｱ")
	rng := rand.New(rand.NewPCG(1, 2))
	var r renderer
	for i := 0; i < 500; i++ {
		rows, cols := 1+rng.IntN(12), 1+rng.IntN(40)
		g := newGrid(rows, cols)
		for j := range g.cells {
			g.cells[j].Rune = chars[rng.IntN(len(chars))]
			if rng.IntN(4) == 0 {
				g.cells[j].FG = pty.Color(rng.IntN(256))
			}
		}
		g.crow, g.ccol = rng.IntN(rows), rng.IntN(cols)
		w, h := 1+rng.IntN(45), 1+rng.IntN(15)
		checkFrame(t, r.render(g, w, h, rng.IntN(2) == 0), w, h)
	}
}

func TestRenderCutsALargerScreenToTheRowsWithTheCursor(t *testing.T) {
	t.Parallel()
	g := newGrid(10, 20)
	for i := range 10 {
		g.put(i, 0, strings.Repeat(string(rune('0'+i)), 20), plainStyle)
	}
	g.crow = 7
	frame := render(g, 8, 4, false)
	checkFrame(t, frame, 8, 4)
	if got := strings.Join(screenText(frame), ","); got != "44444444,55555555,66666666,77777777" {
		t.Fatalf("got %s", got)
	}
	frame = render(g, 25, 12, false)
	checkFrame(t, frame, 25, 12)
}
