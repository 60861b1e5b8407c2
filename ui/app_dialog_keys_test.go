package ui

import (
	"fmt"
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
		if s := a.screen(t); !strings.Contains(s, "ctrl+c deny and interrupt") {
			t.Errorf("%d columns: the hint line does not follow the dialog:\n%s", w, s)
		}
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

// The screen beside a dialog shows no pieces of what the dialog covers
// (the panel's "pre_hook –" cut to "–", a status mark without its call):
// what is cut is blanked up to the nearest gap or column separator. PageUp
// scrolls the conversation behind a dialog with nothing of its own to
// scroll; Shift+PgUp always does.
func TestDialogEdgesShowNoFragmentsAndPageUpScrollsBehind(t *testing.T) {
	t.Parallel()
	for _, w := range []int{60, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			t.Parallel()
			var script strings.Builder
			script.WriteString(`{"turns":[`)
			for i := range 12 {
				fmt.Fprintf(&script, `{"text":"Step %d of the plan, with a few words to wrap.","tool_calls":[{"id":"e%d","name":"Bash","input":{"command":"echo step %d"}}]},`, i, i, i)
			}
			script.WriteString(`{"text":"Now a file.","tool_calls":[{"id":"ta","name":"Bash","input":{"command":"touch a"}}]},{"text":"Done."}]}`)
			a := newApp(t, script.String(), w, 30, appOptions{allow: []string{"Bash(echo:*)"}})
			a.prompt("go")
			a.modal()
			a.snap(t, "dialog")
			rows := strings.Split(a.screen(t), "\n")
			top, right := -1, 0
			for i, row := range rows {
				if c := strings.Index(row, "╮"); c >= 0 && top < 0 {
					top, right = i, len([]rune(row[:c]))
				}
			}
			for i := top; i >= 0 && i < len(rows); i++ {
				r := []rune(rows[i])
				if len(r) > right+1 {
					if rest := strings.TrimSpace(string(r[right+1:])); rest != "" && !strings.HasPrefix(rest, "│") {
						t.Errorf("a fragment right of the dialog: %q", rows[i])
					}
				}
				if strings.Contains(rows[i], "╰") {
					break
				}
			}
			before := a.screen(t)
			a.key(tea.KeyPgUp, tea.ModShift)
			if after := a.screen(t); after == before {
				t.Errorf("Shift+PgUp did not scroll the conversation behind the dialog")
			}
			a.key(tea.KeyPgDown, tea.ModShift)
			a.key(tea.KeyPgUp, 0)
			if !a.m.modalOpen() {
				t.Fatal("PageUp closed the dialog")
			}
			if after := a.screen(t); after == before {
				t.Errorf("PgUp did not scroll the conversation behind a dialog with nothing to scroll")
			}
		})
	}
}
