package ptyview

import "testing"

// vttest is the VT100/VT102 conformance program. These tests drive its
// menus in a pane and in tmux at 80x24 and compare every screen (text and
// cursor): tmux draws what a VT102 draws for each of them. vttest repeats
// some menus at 132 columns after ESC[?3h, which neither tmux nor a pane
// switches to; where that pass shows tmux's own quirks the comparison ends
// before it, as the doc comments say.

// vttestScreens is the menu choice and then one Return per screen: each
// vttest screen waits for it.
func vttestScreens(choice string, screens int) [][]step {
	groups := [][]step{{text(choice), key("enter")}}
	for range screens {
		groups = append(groups, []step{key("enter")})
	}
	return groups
}

// TestMatchesTmuxVttestVT102 runs menu 8, "Test of VT102 features
// (Insert/Delete Char/Line)", through both passes and back to the main
// menu: the screen accordion (insert and delete line), insert mode ('A***
// ... ***B', which needs IRM), delete character ('AB'), the staggered
// right column (delete character at the margin) and ANSI insert character.
func TestMatchesTmuxVttestVT102(t *testing.T) {
	t.Parallel()
	need(t, "vttest")
	compareWithTmux(t, []string{"vttest"}, vttestScreens("8", 14), nil)
}

// TestMatchesTmuxVttestCursor runs menu 1, "Test of cursor movements", at
// 80 columns. Its 132-column pass puts the cursor past column 80 and then
// moves it back with CUB from a pending wrap, where tmux (which keeps the
// cursor one column beyond the margin) and a VT102 differ.
func TestMatchesTmuxVttestCursor(t *testing.T) {
	t.Parallel()
	need(t, "vttest")
	compareWithTmux(t, []string{"vttest"}, vttestScreens("1", 0), nil)
}

// TestMatchesTmuxVttestScreenFeatures runs menu 2, "Test of screen
// features" (wrap-around, tab stops, 132 columns, scrolling regions, soft
// and jump scroll), up to the origin-mode screen: there vttest sets a
// region with origin mode on, and tmux homes the cursor to the top of the
// screen instead of the region, so its line is not "at the bottom of the
// screen" as vttest says it should be (the pane's is).
func TestMatchesTmuxVttestScreenFeatures(t *testing.T) {
	t.Parallel()
	need(t, "vttest")
	compareWithTmux(t, []string{"vttest"}, vttestScreens("2", 9), nil)
}
