package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// The help page (F1) shows every key at 60, 80 and 120 columns: columns
// wrap into rows rather than being cut, the border is whole on both sides,
// and the pane keys are there. A page taller than the screen scrolls.
func TestHelpShowsEveryKeyAtEveryWidth(t *testing.T) {
	t.Parallel()
	for _, size := range []struct {
		name string
		w, h int
	}{{"60x30", 60, 30}, {"80x24", 80, 24}, {"120x30", 120, 30}, {"60x16", 60, 16}} {
		t.Run(size.name, func(t *testing.T) {
			t.Parallel()
			a := newApp(t, `{"turns":[{"text":"hi"}]}`, size.w, size.h, appOptions{})
			a.key(tea.KeyF1, 0)
			a.snap(t, "help")
			seen := helpText(t, a)
			for _, b := range a.m.keys.FullHelp() {
				if !strings.Contains(seen, b.Help().Key+" "+b.Help().Desc) && !strings.Contains(seen, b.Help().Desc) {
					t.Errorf("%q (%s) is not on the help page", b.Help().Key, b.Help().Desc)
				}
			}
			words := strings.Join(strings.Fields(seen), " ")
			for _, k := range []string{"esc no, and stop the turn", "n no, tell why; the agent goes on"} {
				if !strings.Contains(words, k) {
					t.Errorf("the help page does not say what the dialog's denials do: no %q", k)
				}
			}
			for _, k := range []string{"f2", "f3", "f4", "ctrl+]"} {
				if !strings.Contains(seen, k) {
					t.Errorf("the help page does not list %s", k)
				}
			}
		})
	}
}

// helpText is every line the help page shows, scrolling through it, with
// each line's border checked on both sides.
func helpText(t *testing.T, a *app) string {
	t.Helper()
	var all strings.Builder
	for range 20 {
		s := a.screen(t)
		var rows []string
		for _, l := range strings.Split(s, "\n") {
			if i := strings.Index(l, "│"); i >= 0 && strings.Count(l, "│") >= 2 {
				rows = append(rows, l[i:])
			}
		}
		if len(rows) == 0 {
			t.Fatalf("no help page on screen:\n%s", s)
		}
		for _, r := range rows {
			if !strings.HasSuffix(strings.TrimRight(r, " "), "│") {
				t.Errorf("a help line has no right border: %q", r)
			}
			all.WriteString(r + "\n")
		}
		if !strings.Contains(s, "↑/↓ scroll") || lastPage(s) {
			break
		}
		a.key(tea.KeyPgDown, 0)
	}
	return all.String()
}

// lastPage reports whether the help page's position line shows its end.
func lastPage(s string) bool {
	i := strings.Index(s, "lines ")
	if i < 0 {
		return true
	}
	var from, to, n int
	_, err := fmt.Sscanf(s[i:], "lines %d–%d of %d", &from, &to, &n)
	return err != nil || to >= n
}

// TestHintLineNamesHelpAndWhatEscStops: under the input, F1 is in sight at
// 60 columns while nothing runs, and Esc is named only while there is a
// turn for it to interrupt, with Enter queueing then.
func TestHintLineNamesHelpAndWhatEscStops(t *testing.T) {
	t.Parallel()
	feed := newFeedProvider()
	a := newApp(t, "", 60, 20, appOptions{provider: feed})
	hint := func() string {
		lines := strings.Split(a.screen(t), "\n")
		return lines[len(lines)-2]
	}
	if h := hint(); !strings.Contains(h, "f1 help") || strings.Contains(h, "esc") {
		t.Errorf("idle, the hint line is %q", h)
	}
	a.prompt("Go")
	go feed.say(false, "Working on it")
	a.shows("Working on it")
	if h := hint(); !strings.HasPrefix(h, "esc interrupt the turn • enter queue a message") {
		t.Errorf("while the agent works, the hint line is %q", h)
	}
	go feed.say(true, ".")
	a.idle()
	if h := hint(); !strings.Contains(h, "f1 help") {
		t.Errorf("after the turn, the hint line is %q", h)
	}
}

// TestHintLineWhileCommandsAreListed: with the command list open under
// the input, the hint line says what Tab and Enter do to it.
func TestHintLineWhileCommandsAreListed(t *testing.T) {
	t.Parallel()
	a := newApp(t, `{"turns":[{"text":"hi"}]}`, 60, 20, appOptions{})
	a.typeText("/mo")
	lines := strings.Split(a.screen(t), "\n")
	if h := lines[len(lines)-2]; !strings.HasPrefix(h, "tab complete • enter complete or run") {
		t.Errorf("with commands listed, the hint line is %q", h)
	}
	a.key(tea.KeyTab, 0)
	if got := a.m.input.value(); !strings.HasPrefix(got, "/mode") {
		t.Errorf("tab made the input %q", got)
	}
}
