package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// Ctrl-C while a dialog is open denies it and interrupts the turn (the
// call does not run); a second Ctrl-C quits.
func TestCtrlCInADialogDeniesThenQuits(t *testing.T) {
	t.Parallel()
	for _, w := range []int{60, 80, 120} {
		a := newApp(t, touchScript, w, 30, appOptions{})
		a.prompt("make two files")
		a.modal()
		a.send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
		if a.m.modalOpen() {
			t.Fatalf("%d columns: the dialog is still open after Ctrl-C", w)
		}
		a.idle()
		s := a.screen(t)
		if !strings.Contains(s, "Denied and interrupted. Press Ctrl-C again to quit.") {
			t.Errorf("%d columns: the first Ctrl-C does not say what it did:\n%s", w, s)
		}
		if _, err := os.Stat(filepath.Join(a.dir, "a")); err == nil {
			t.Errorf("%d columns: the denied call ran", w)
		}
		if a.m.modalOpen() {
			t.Errorf("%d columns: the interrupted turn asked again", w)
		}
		_, second := a.m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
		if !isQuit(second) {
			t.Errorf("%d columns: the second Ctrl-C did not quit", w)
		}
	}
}
