package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// A multi-line message shows from its first line while it fits in a third
// of the screen; past that the input scrolls and keeps the line being
// typed in view.
func TestMultiLineInputGrowsToAThirdThenScrolls(t *testing.T) {
	t.Parallel()
	for _, size := range []struct{ w, h int }{{60, 20}, {80, 24}, {120, 30}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			t.Parallel()
			a := newApp(t, `{"turns":[{"text":"hi"}]}`, size.w, size.h, appOptions{})
			newline := func() { a.send(tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModShift}) }
			a.typeText("first line")
			for i := 2; i <= 3; i++ {
				newline()
				a.typeText(fmt.Sprintf("line %d", i))
			}
			a.snap(t, "three lines")
			s := a.screen(t)
			if !strings.Contains(s, "› first line") || !strings.Contains(s, "line 3") {
				t.Errorf("three lines must all show, from the first:\n%s", s)
			}
			for i := 4; i <= 20; i++ {
				newline()
				a.typeText(fmt.Sprintf("line %d", i))
			}
			a.snap(t, "twenty lines")
			s = a.screen(t)
			if h := a.m.input.ta.Height(); h != size.h/3 {
				t.Errorf("the input is %d lines tall, want a third of %d", h, size.h)
			}
			if !strings.Contains(s, "line 20") {
				t.Errorf("the line being typed is out of view:\n%s", s)
			}
		})
	}
}
