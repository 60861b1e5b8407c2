package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/tasks/pty"
)

func TestTabStripKeepsTheActiveTabInSight(t *testing.T) {
	t.Parallel()
	names := []string{"Pipeline", "sh_1 running", "sh_2 running", "sh_3 running", "sh_4 running", "sh_5 running"}
	cases := []struct {
		name   string
		active int
		width  int
		want   string
	}{
		{"all fit", 2, 200, "Pipeline │ sh_1 running │ sh_2 running │ sh_3 running │ sh_4 running │ sh_5 running"},
		{"the last tab, the first hidden", 5, 40, "‹4 sh_4 running │ sh_5 running"},
		{"the panel, the last hidden", 0, 40, "Pipeline │ sh_1 running 4›"},
		{"a tab in the middle, its right neighbour first", 3, 40, "‹3 sh_3 running │ sh_4 running 1›"},
		{"a tab in the middle, hidden on both sides", 3, 50, "‹2 sh_2 running │ sh_3 running │ sh_4 running 1›"},
		{"a bar narrower than the active name cuts it", 3, 12, "‹3 sh_3 … 2›"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := ansi.Strip(tabStrip(names, c.active, c.width))
			if got != c.want {
				t.Errorf("tabStrip(active %d, width %d) = %q, want %q", c.active, c.width, got, c.want)
			}
			if c.width < 200 && ansi.StringWidth(got) > c.width {
				t.Errorf("%q is wider than %d", got, c.width)
			}
		})
	}
}

// TestTabBarAt100ColumnsFollowsTheActiveTab: six terminal panes at 100
// columns, where the panel's column holds two or three names: the active
// one is always in the bar, whichever F2 moves to, with markers for the
// hidden ones.
func TestTabBarAt100ColumnsFollowsTheActiveTab(t *testing.T) {
	t.Parallel()
	a := newApp(t, `{"turns":[{"text":"Six shells are open on the right."}]}`, 100, 24, appOptions{})
	a.prompt("Open six shells")
	a.idle()
	m := pty.NewManager(pty.Options{KeepExited: -1})
	t.Cleanup(m.CloseAll)
	var ids []string
	for i := range 6 {
		s, err := m.Open(pty.OpenSpec{Argv: []string{"sh", "-c", fmt.Sprintf("echo pane %d; exec sleep 60", i+1)}, Rows: 10, Cols: 40})
		if err != nil {
			t.Fatal(err)
		}
		a.send(paneOpenedMsg{s})
		ids = append(ids, s.ID())
	}
	bar := func() string {
		return strings.SplitN(strings.TrimSpace(strings.SplitN(a.screen(t), "\n", 2)[0]), "│", 2)[1]
	}
	a.until("the last pane is active and drawn", func() bool {
		return a.m.active == len(ids)-1 && strings.Contains(a.screen(t), "pane 6")
	})
	a.snap(t, "the last of six")
	if b := bar(); !strings.Contains(b, ids[5]) || !strings.Contains(b, "‹") {
		t.Fatalf("with the last pane active the bar is %q", b)
	}
	// F2 goes round the panel and every tab; each in turn is in sight.
	for i := range len(ids) + 1 {
		a.key(tea.KeyF2, 0)
		want := "Pipeline"
		if i > 0 {
			want = ids[i-1]
		}
		b := bar()
		if !strings.Contains(b, want) {
			t.Fatalf("after F2 %d times the active %s is not in the bar %q", i+1, want, b)
		}
		if i == 3 {
			a.snap(t, "the third of six")
		}
	}
}
