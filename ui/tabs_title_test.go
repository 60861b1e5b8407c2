package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/tasks/pty"
)

// A program's window title (OSC 2 and OSC 0) is in its tab, with bidi and
// zero-width characters shown as marked escapes and a long title cut.
func TestH16_PaneTitlesAreShownSafelyInTheTabBar(t *testing.T) {
	t.Parallel()
	a := newApp(t, `{"turns":[{"text":"ok"}]}`, 160, 30, appOptions{})
	m := pty.NewManager(pty.Options{KeepExited: -1})
	t.Cleanup(m.CloseAll)
	open := func(title string) *pty.Session {
		s, err := m.Open(pty.OpenSpec{Argv: []string{"sh", "-c", `printf "$1"; exec sleep 60`, "sh", title}, Rows: 10, Cols: 40})
		if err != nil {
			t.Fatal(err)
		}
		a.send(paneOpenedMsg{s})
		return s
	}
	first := open("\033]2;report\342\200\256txt.exe\342\200\213 ok\007")
	second := open("\033]0;" + strings.Repeat("very long title ", 4) + "\033\\")
	// The whole bar, wider than the panel shows it at this size.
	for _, want := range []string{first.ID() + " report<U+202E>txt.exe<U+200B> ok · running",
		second.ID() + " very long title very long title… · running"} {
		a.until("the tab bar shows "+want, func() bool { return strings.Contains(ansi.Strip(a.m.tabBar(300)), want) })
	}
	// The panel's column holds the active tab: make it the first one.
	a.key(tea.KeyF2, 0)
	a.key(tea.KeyF2, 0)
	a.shows("report<U+202E>")
	screen := a.m.render()
	for _, raw := range []string{"\u202e", "\u200b"} {
		if strings.Contains(screen, raw) {
			t.Errorf("the screen holds %q raw", raw)
		}
	}
	bar := a.m.tabBar(300)
	if i := strings.Index(bar, "<U+202E>"); i < 0 || !strings.Contains(bar[:i], "\x1b[7m") {
		t.Errorf("the escape is not marked in reverse video: %q", bar)
	}
	if got := ansi.StringWidth(tabTitle(strings.Repeat("x", 100))); got != tabTitleMax {
		t.Errorf("a 100-column title takes %d columns, want %d", got, tabTitleMax)
	}
}
