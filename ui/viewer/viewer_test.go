package viewer

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Screen size used by most tests: 8 lines of text.
const tw, th = 50, 11

// TestOpenShowsTheFirstLines opens a generated file and reads its top.
func TestOpenShowsTheFirstLines(t *testing.T) {
	t.Parallel()
	v := open(t, writeFile(t, numbered(1000)), Options{})
	settle(t, v)
	got := body(t, v, tw, th)
	for i, l := range got {
		if want := fmt.Sprintf("line %d", i+1); l != want {
			t.Fatalf("text line %d = %q, want %q", i, l, want)
		}
	}
	if f := footerOf(t, v, tw, th); !strings.Contains(f, "line 1 of 1,000") {
		t.Errorf("footer %q does not give the position", f)
	}
	if !strings.Contains(ansi.Strip(screen(t, v, tw, th)), "1,000 lines") {
		t.Error("the header does not give the line count")
	}
}

// TestKeysMoveThroughTheFile drives the navigation keys from the top.
func TestKeysMoveThroughTheFile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		keys []string
		top  string // the first line of text after the keys
	}{
		{"j moves down a line", []string{"j"}, "line 2"},
		{"down moves down a line", []string{"down", "down"}, "line 3"},
		{"k moves back up", []string{"j", "j", "k"}, "line 2"},
		{"k at the top stays", []string{"k"}, "line 1"},
		{"space pages down", []string{"space"}, "line 9"},
		{"pgdown pages down", []string{"pgdown", "pgdown"}, "line 17"},
		{"b pages up", []string{"space", "space", "b"}, "line 9"},
		{"ctrl+d moves half a page", []string{"ctrl+d"}, "line 5"},
		{"G goes to the end", []string{"G"}, "line 993"},
		{"j at the end stays", []string{"G", "j"}, "line 993"},
		{"g goes back to the top", []string{"G", "g"}, "line 1"},
		{"space never scrolls past the end", []string{"G", "k", "space"}, "line 993"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := open(t, writeFile(t, numbered(1000)), Options{})
			screen(t, v, tw, th) // the root draws before keys come
			keys(v, tt.keys...)
			if got := body(t, v, tw, th)[0]; got != tt.top {
				t.Errorf("top line %q, want %q", got, tt.top)
			}
		})
	}
}

// TestGoToLine covers :N and ctrl+g, before and after the line count, past
// the end and by percentage.
func TestGoToLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		keys    []string
		indexed bool
		top     string // the first line of text
		last    string // the last line of text
		footer  string
	}{
		{"a line the index has reached", []string{":", "500", "enter"}, true, "line 500", "", "line 500 of"},
		{"a line before the index reaches it", []string{":", "7000", "enter"}, false, "line 7000", "", "line 7,000 of"},
		{"ctrl+g opens the same prompt", []string{"ctrl+g", "42", "enter"}, true, "line 42", "", ""},
		{"past the end shows the last line", []string{":", "99999", "enter"}, true, "", "line 10000", "the file has 10,000 lines"},
		// Line 5056 starts the row that holds the middle byte.
		{"a percentage goes by size", []string{":", "50%", "enter"}, true, "line 5056", "", ""},
		{"a word is refused", []string{":", "abc", "enter"}, true, "line 1", "", "not a line number: abc"},
		{"esc abandons the prompt", []string{":", "12", "esc"}, true, "line 1", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := open(t, writeFile(t, numbered(10000)), Options{})
			if tt.indexed {
				settle(t, v)
			}
			screen(t, v, tw, th)
			keys(v, tt.keys...)
			if !tt.indexed {
				if !v.Pending() {
					t.Fatal("a line beyond the index left no work to do")
				}
				if f := footerOf(t, v, 80, th); !strings.Contains(f, "going to line 7,000") {
					t.Errorf("footer %q does not say the line is being looked for", f)
				}
				settle(t, v)
			}
			text := body(t, v, tw, th)
			if tt.top != "" && text[0] != tt.top {
				t.Errorf("top line %q, want %q", text[0], tt.top)
			}
			if tt.last != "" && text[len(text)-1] != tt.last {
				t.Errorf("last line %q, want %q", text[len(text)-1], tt.last)
			}
			if f := footerOf(t, v, 80, th); tt.footer != "" && !strings.Contains(f, tt.footer) {
				t.Errorf("footer %q lacks %q", f, tt.footer)
			}
		})
	}
}

// TestWrapToggle shows a long line cut at the edge, scrolled sideways, then
// wrapped onto several lines and back.
func TestWrapToggle(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("0123456789", 12) // 120 columns
	v := open(t, writeFile(t, "short\n"+long+"\nlast\n"+numbered(20)), Options{})
	if got := body(t, v, 50, th)[1]; got != long[:50] {
		t.Fatalf("unwrapped: %q", got)
	}
	keys(v, "right", "right")
	if got := body(t, v, 50, th)[1]; got != long[16:66] {
		t.Errorf("scrolled right: %q", got)
	}
	if f := footerOf(t, v, 50, th); !strings.Contains(f, "col 17") {
		t.Errorf("footer %q does not show the column", f)
	}
	keys(v, "w")
	got := body(t, v, 50, th)
	want := []string{"short", long[:50], long[50:100], long[100:], "last"}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("wrapped line %d = %q, want %q", i, got[i], w)
		}
	}
	keys(v, "j", "j")
	if got := body(t, v, 50, th)[0]; got != long[50:100] {
		t.Errorf("j in wrap mode moves by screen line: top %q", got)
	}
	keys(v, "k", "k", "k")
	if got := body(t, v, 50, th)[0]; got != "short" {
		t.Errorf("k in wrap mode back to the top: %q", got)
	}
	keys(v, "w")
	if got := body(t, v, 50, th); got[1] != long[:50] || got[2] != "last" {
		t.Errorf("unwrapped again: %q", got[:3])
	}
}

// TestFollowModePicksUpAppendedLines appends to the file between ticks.
func TestFollowModePicksUpAppendedLines(t *testing.T) {
	t.Parallel()
	p := writeFile(t, numbered(20))
	v := open(t, p, Options{})
	keys(v, "f")
	if got := body(t, v, tw, th); got[len(got)-1] != "line 20" {
		t.Fatalf("follow did not go to the end: %q", got)
	}
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i := 21; i <= 30; i++ {
		fmt.Fprintf(f, "line %d\n", i)
	}
	fmt.Fprint(f, "partial")
	settle(t, v)
	if got := body(t, v, tw, th); got[len(got)-1] != "line 20" {
		t.Fatalf("lines appeared before Refresh: %q", got)
	}
	v.Refresh()
	settle(t, v)
	got := body(t, v, tw, th)
	if got[len(got)-2] != "line 30" || got[len(got)-1] != "partial" {
		t.Errorf("after Refresh the end is not in view: %q", got)
	}
	if f := footerOf(t, v, tw, th); !strings.Contains(f, "follow") || !strings.Contains(f, "of 31") {
		t.Errorf("footer %q", f)
	}
	// Scrolling up leaves follow mode; new lines then do not move the view.
	keys(v, "k")
	fmt.Fprint(f, " more\nline 32\n")
	v.Refresh()
	if got := body(t, v, tw, th); got[len(got)-1] == "line 32" {
		t.Errorf("the view followed after k: %q", got)
	}
}

// TestFollowOptionStartsAtTheEnd is for a task's log opened while running.
func TestFollowOptionStartsAtTheEnd(t *testing.T) {
	t.Parallel()
	v := open(t, writeFile(t, numbered(100)), Options{Follow: true})
	if got := body(t, v, tw, th); got[len(got)-1] != "line 100" {
		t.Errorf("got %q", got)
	}
}

// TestANSIColoursSurvive checks that a file's colours reach the screen,
// also when the line is scrolled sideways past where the colour began, and
// that other escape sequences do not.
func TestANSIColoursSurvive(t *testing.T) {
	t.Parallel()
	content := "plain \x1b[31mred text that goes on for a while\x1b[0m back\n" +
		"\x1b[2J\x1b[Hcleared? \x1b[1;32mgreen\x1b[m\n"
	v := open(t, writeFile(t, content), Options{})
	out := screen(t, v, tw, th)
	if !strings.Contains(out, "\x1b[31mred text") {
		t.Errorf("the red run lost its colour:\n%q", out)
	}
	if !strings.Contains(out, "\x1b[1;32mgreen") {
		t.Errorf("the green run lost its colour:\n%q", out)
	}
	if strings.Contains(out, "\x1b[2J") || strings.Contains(out, "\x1b[H") {
		t.Errorf("a screen-clearing sequence reached the screen:\n%q", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "\x1b[31m") && !strings.HasSuffix(l, "\x1b[m") {
			t.Errorf("a coloured line is not closed: %q", l)
		}
	}
	keys(v, "right")
	out = screen(t, v, tw, th)
	line := strings.Split(out, "\n")[headerLines]
	if ansi.Strip(line)[:4] != "d te" || !strings.Contains(line, "\x1b[31m") {
		t.Errorf("scrolled 8 columns into the red run: %q", line)
	}
}

// TestLongLinesAreBounded opens a file holding one 1 MiB line with no
// newline: it is drawn as rows of at most the cap, and every move is quick.
func TestLongLinesAreBounded(t *testing.T) {
	t.Parallel()
	v := open(t, writeFile(t, strings.Repeat("abcdefgh", 1<<17)), Options{})
	start := time.Now()
	screen(t, v, tw, th)
	keys(v, "G", "k", "g", "w", "G", "space", "b")
	screen(t, v, tw, th)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("moving through one long line took %v", d)
	}
	settle(t, v)
	if f := footerOf(t, v, tw, th); !strings.Contains(f, "of 1") {
		t.Errorf("footer %q: one line expected", f)
	}
	if v.rowEnd(0) != rowCap {
		t.Errorf("the first row ends at %d, want the cap %d", v.rowEnd(0), rowCap)
	}
}

// TestViewKeepsItsSizeAtEverySize draws many sizes, including tiny ones.
func TestViewKeepsItsSizeAtEverySize(t *testing.T) {
	t.Parallel()
	v := open(t, writeFile(t, "日本語のテキスト\t\x1b[31mcolour\x1b[0m "+strings.Repeat("wide 字 ", 40)+"\n"+numbered(50)), Options{})
	for range 2 { // unwrapped, then wrapped
		for w := 1; w <= 90; w += 7 {
			for h := 1; h <= 14; h++ {
				screen(t, v, w, h)
			}
		}
		keys(v, "w")
	}
	if v.View(0, 5) != "" || v.View(5, 0) != "" {
		t.Error("an empty area is not drawn empty")
	}
}

// TestEmptyFile opens a file with nothing in it.
func TestEmptyFile(t *testing.T) {
	t.Parallel()
	v := open(t, writeFile(t, ""), Options{})
	settle(t, v)
	keys(v, "G", "j", "space", "w", ":", "5", "enter")
	settle(t, v)
	if got := body(t, v, tw, th); got[0] != "" {
		t.Errorf("got %q", got)
	}
}

// TestCloseKeys checks q and esc close, and esc first stops a search.
func TestCloseKeys(t *testing.T) {
	t.Parallel()
	v := open(t, writeFile(t, numbered(10)), Options{})
	if !keys(v, "q").Close {
		t.Error("q did not close")
	}
	if !keys(v, "esc").Close {
		t.Error("esc did not close")
	}
	if keys(v, "/", "line", "esc").Close {
		t.Error("esc in the search prompt closed the viewer")
	}
}

// TestOpenRefusesWhatItCannotShow checks Open's errors.
func TestOpenRefusesWhatItCannotShow(t *testing.T) {
	t.Parallel()
	if _, err := Open(t.TempDir(), Options{}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
	if _, err := Open("/nonexistent/file", Options{}); err == nil {
		t.Error("a missing file opened")
	}
}

// TestStepsAreAskedForOneAtATime checks the StepMsg protocol: one request
// outstanding, stale and foreign steps ignored, none after Close.
func TestStepsAreAskedForOneAtATime(t *testing.T) {
	t.Parallel()
	v := open(t, writeFile(t, strings.Repeat(numbered(20000), 20)), Options{})
	v.budget = 0 // one chunk per step
	act := v.Init()
	if !act.More {
		t.Fatal("Init did not ask for a step while lines are uncounted")
	}
	if again := v.Update(press("j")); again.More {
		t.Error("a key asked for a second step while one is on its way")
	}
	other := open(t, writeFile(t, "x\n"), Options{})
	if got := other.Update(act.Step); got.More || other.Pending() != (other.idx.scanned < other.size) {
		t.Error("a viewer acted on another viewer's step")
	}
	before := v.idx.scanned
	next := v.Update(act.Step)
	if v.idx.scanned == before {
		t.Error("a step did no work")
	}
	if !next.More || next.Step == act.Step {
		t.Fatalf("the step did not ask for the next one: %+v", next)
	}
	before = v.idx.scanned
	if v.Update(act.Step); v.idx.scanned != before {
		t.Error("a stale step did work")
	}
	v.Close()
	if got := v.Update(next.Step); got.More || got.Close {
		t.Errorf("a closed viewer asked for %+v", got)
	}
	if got := v.Update(tea.KeyPressMsg{Code: 'j'}); got != (Action{}) {
		t.Errorf("a closed viewer answered a key with %+v", got)
	}
}

// TestRefreshAfterTheFileIsRewritten reads a shorter file afresh.
func TestRefreshAfterTheFileIsRewritten(t *testing.T) {
	t.Parallel()
	p := writeFile(t, numbered(500))
	v := open(t, p, Options{})
	settle(t, v)
	screen(t, v, tw, th)
	keys(v, "G")
	if err := os.WriteFile(p, []byte("new\ncontent\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	v.Refresh()
	settle(t, v)
	if got := body(t, v, tw, th); got[0] != "new" || got[1] != "content" {
		t.Errorf("got %q", got)
	}
	if f := footerOf(t, v, tw, th); !strings.Contains(f, "of 2") {
		t.Errorf("footer %q", f)
	}
}

// TestMouseWheelAndPaste covers the other messages Update takes: the wheel
// scrolls, and a paste goes into an open prompt only.
func TestMouseWheelAndPaste(t *testing.T) {
	t.Parallel()
	v := open(t, writeFile(t, numbered(200)), Options{})
	screen(t, v, tw, th)
	v.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if got := body(t, v, tw, th)[0]; got != "line 4" {
		t.Errorf("after a wheel notch down: %q", got)
	}
	v.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if got := body(t, v, tw, th)[0]; got != "line 1" {
		t.Errorf("after a wheel notch up: %q", got)
	}
	v.Update(tea.PasteMsg{Content: "150"})
	if v.mode != browsing || v.input.Value() != "" {
		t.Error("a paste while browsing reached the prompt")
	}
	keys(v, ":")
	v.Update(tea.PasteMsg{Content: "150"})
	keys(v, "enter")
	settle(t, v)
	if got := body(t, v, tw, th)[0]; got != "line 150" {
		t.Errorf("after pasting a line number: %q", got)
	}
}
