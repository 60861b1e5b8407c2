package viewer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// needles is a file of n numbered lines, padded to about 100 bytes so a
// few thousand fill more than one search chunk, where the lines in at also
// hold "needle".
func needles(n int, at ...int) string {
	pad := strings.Repeat(".", 90)
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d %s", i, pad)
		for _, a := range at {
			if a == i {
				b.WriteString(" needle")
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// current returns the row of the current match, checking that the match
// is drawn on screen in the current-match style.
func current(t *testing.T, v *Viewer) (row string, ok bool) {
	t.Helper()
	mark := currentStyle.Render("needle")
	if !strings.Contains(screen(t, v, tw, th), mark) || !v.search.found {
		return "", false
	}
	row, _ = v.rowText(v.search.cur.row, false)
	return row, true
}

// TestSearchForwardAndBack searches a file far bigger than one step's
// chunk, so matches are found across steps: /, n, N, and the wrap-around.
func TestSearchForwardAndBack(t *testing.T) {
	t.Parallel()
	v := open(t, writeFile(t, needles(30000, 12000, 15000, 19000)), Options{})
	v.budget = 0 // one chunk per step, so the search runs over several
	settle(t, v)
	screen(t, v, tw, th)

	keys(v, "/", "needle")
	if f := footerOf(t, v, tw, th); !strings.Contains(f, "/needle") {
		t.Errorf("the prompt does not show the pattern: %q", f)
	}
	act := keys(v, "enter")
	if !act.More || !v.search.active {
		t.Fatal("a search through a big file did not continue in steps")
	}
	if f := footerOf(t, v, 80, th); !strings.Contains(f, `searching for "needle"`) {
		t.Errorf("footer %q does not say it is searching", f)
	}
	steps := 0
	for v.Pending() {
		v.Step(0)
		steps++
	}
	if steps < 2 {
		t.Errorf("the search took %d steps; it should have been spread over several", steps)
	}
	want := []struct {
		key, line string
	}{
		{"", "line 12000 "},
		{"n", "line 15000 "},
		{"n", "line 19000 "},
		{"N", "line 15000 "},
		{"N", "line 12000 "},
	}
	for _, w := range want {
		if w.key != "" {
			keys(v, w.key)
			settle(t, v)
		}
		got, ok := current(t, v)
		if !ok || !strings.HasPrefix(got, w.line) {
			t.Fatalf("after %q the current match is on %q (found %v), want %q", w.key, got, ok, w.line)
		}
	}
	// Going back from the first match wraps around to the last.
	keys(v, "N")
	settle(t, v)
	if got, _ := current(t, v); !strings.HasPrefix(got, "line 19000 ") {
		t.Errorf("N from the first match: %q", got)
	}
	if f := footerOf(t, v, 80, th); !strings.Contains(f, "wrapped") {
		t.Errorf("footer %q does not say the search wrapped", f)
	}
	keys(v, "n")
	settle(t, v)
	if got, _ := current(t, v); !strings.HasPrefix(got, "line 12000 ") {
		t.Errorf("n from the last match: %q", got)
	}
}

// TestSearchHighlightsEveryMatchOnScreen checks the current match and the
// others are marked, in the line's own colours otherwise.
func TestSearchHighlightsEveryMatchOnScreen(t *testing.T) {
	t.Parallel()
	v := open(t, writeFile(t, "a \x1b[32mgreen foo\x1b[0m and foo\nfoo again\n"), Options{})
	screen(t, v, tw, th)
	keys(v, "/", "foo", "enter")
	settle(t, v)
	out := screen(t, v, tw, th)
	lines := strings.Split(out, "\n")
	first := lines[headerLines]
	if !strings.Contains(first, currentStyle.Render("foo")) {
		t.Errorf("the first match is not the current one: %q", first)
	}
	if !strings.Contains(first, matchStyle.Render("foo")) {
		t.Errorf("the second match on the line is not marked: %q", first)
	}
	if !strings.Contains(first, "\x1b[32mgreen ") {
		t.Errorf("the line lost its colour around the match: %q", first)
	}
	if ansi.Strip(first) != "a green foo and foo" {
		t.Errorf("highlighting changed the text: %q", ansi.Strip(first))
	}
	keys(v, "n")
	settle(t, v)
	out = screen(t, v, tw, th)
	first = strings.Split(out, "\n")[headerLines]
	if strings.Count(first, currentStyle.Render("foo")) != 1 || strings.Index(first, currentStyle.Render("foo")) < strings.Index(first, matchStyle.Render("foo")) {
		t.Errorf("n did not move to the second match on the same line: %q", first)
	}
	// On to the next line, around to the first match, and on within the
	// line: only the wrap-around says so.
	for i, wrapped := range []bool{false, true, false} {
		keys(v, "n")
		settle(t, v)
		if f := footerOf(t, v, 80, th); strings.Contains(f, "wrapped") != wrapped {
			t.Errorf("n number %d: footer %q", i+3, f)
		}
	}
}

// TestSearchPatterns covers regexps, literal fallback and misses.
func TestSearchPatterns(t *testing.T) {
	t.Parallel()
	content := "alpha\nbeta (x\nerror: disk full\nERROR: loud\ncolour \x1b[31mred\x1b[0mdish\n" + numbered(30)
	tests := []struct {
		name, pattern, line, footer string
	}{
		{"a regexp", `err\w+: d`, "error: disk full", ""},
		{"(?i) ignores case", `(?i)^error: l`, "ERROR: loud", ""},
		{"an invalid regexp is searched as text", `beta (x`, "beta (x", "not a valid regexp"},
		{"text split by colour codes is found as seen", `reddish`, "colour reddish", ""},
		{"a miss says so", `absent`, "", "pattern not found: absent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := open(t, writeFile(t, content), Options{})
			screen(t, v, tw, th)
			keys(v, "/", tt.pattern, "enter")
			settle(t, v)
			if tt.line != "" {
				if !v.search.found {
					t.Fatalf("no match for %q", tt.pattern)
				}
				if got, _ := v.rowText(v.search.cur.row, false); got != tt.line {
					t.Errorf("matched %q, want %q", got, tt.line)
				}
			} else if v.search.found {
				t.Errorf("%q matched", tt.pattern)
			}
			if f := footerOf(t, v, 80, th); !strings.Contains(f, tt.footer) {
				t.Errorf("footer %q lacks %q", f, tt.footer)
			}
		})
	}
}

// TestEscStopsASearch stops a long search part way.
func TestEscStopsASearch(t *testing.T) {
	t.Parallel()
	v := open(t, writeFile(t, needles(30000)), Options{})
	v.budget = 0
	screen(t, v, tw, th)
	keys(v, "/", "needle", "enter")
	v.Step(0)
	if act := keys(v, "esc"); act.Close || v.search.active {
		t.Fatalf("esc did not stop the search: %+v", act)
	}
	if keys(v, "esc").Close != true {
		t.Error("a second esc did not close")
	}
}

// TestSearchRevealsAMatchFarToTheRight scrolls sideways to a match past the
// screen's edge, and in wrap mode to the line of the row that holds it.
func TestSearchRevealsAMatchFarToTheRight(t *testing.T) {
	t.Parallel()
	content := numbered(3) + strings.Repeat(".", 300) + "needle" + strings.Repeat(".", 300) + "\n" + numbered(30)
	v := open(t, writeFile(t, content), Options{})
	screen(t, v, tw, th)
	keys(v, "/", "needle", "enter")
	settle(t, v)
	if got, ok := current(t, v); !ok || !strings.Contains(got, "needle") {
		t.Errorf("the match is not on screen unwrapped: %q", got)
	}
	if v.xoff == 0 {
		t.Error("the screen did not scroll sideways to the match")
	}
	keys(v, "w", "g", "n")
	settle(t, v)
	if v.topSub == 0 {
		t.Error("the screen did not scroll to the wrapped line holding the match")
	}
	if got, ok := current(t, v); !ok || !strings.Contains(got, "needle") {
		t.Errorf("the match is not on screen wrapped: %q", got)
	}
}
