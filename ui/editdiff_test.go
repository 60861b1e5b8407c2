package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed92b641c3/workbench/theme"
)

// configGo is the file the edit screens change: long enough that a change
// in its middle has context on both sides and a second change is a hunk
// of its own.
var configGo = func() string {
	var b strings.Builder
	b.WriteString("package config\n\n// Defaults are the settings a new project starts with.\nvar Defaults = map[string]int{\n")
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&b, "\t\"option%02d\": %d,\n", i, i)
	}
	b.WriteString("}\n")
	return b.String()
}()

// editScript edits one line, then makes three edits in one MultiEdit.
const editScript = `{"turns":[
  {"text":"Raising the timeout.","tool_calls":[{"id":"e1","name":"Edit","input":{
    "file_path":"config/config.go","old_string":"\t\"option05\": 5,","new_string":"\t\"option05\": 50,"}}]},
  {"text":"And three more.","tool_calls":[{"id":"e2","name":"MultiEdit","input":{"file_path":"config/config.go","edits":[
    {"old_string":"\t\"option12\": 12,","new_string":"\t\"option12\": 120,\n\t\"option12b\": 121,"},
    {"old_string":"\t\"option20\": 20,\n","new_string":""},
    {"old_string":"\t\"option28\": 28,","new_string":"\t\"option28\": 280,"}]}}]},
  {"text":"Done."}]}`

// TestEditDiffInTheConversation: an Edit and a MultiEdit that ran show
// their change under the call, coloured, cut to a few rows with a note of
// how many more there are, the whole diff one ctrl+o away; at 60, 80 and
// 120 columns (TestEditDiffColours has the palettes).
func TestEditDiffInTheConversation(t *testing.T) {
	t.Parallel()
	for _, size := range []struct{ w, h int }{{60, 36}, {80, 36}, {120, 40}} {
		t.Run(fmt.Sprint(size.w), func(t *testing.T) {
			t.Parallel()
			a := newApp(t, editScript, size.w, size.h, appOptions{
				allow: []string{"Edit", "MultiEdit"}, files: map[string]string{"config/config.go": configGo}})
			a.prompt("Tune the defaults")
			a.idle()
			a.snap(t, "collapsed")
			s := a.screen(t)
			for _, want := range []string{"+1 -1", "+3 -3", "more lines (ctrl+o to expand)"} {
				if !strings.Contains(s, want) {
					t.Errorf("the screen lacks %q:\n%s", want, s)
				}
			}
			a.key('o', tea.ModCtrl)
			a.snap(t, "expanded")
		})
	}
}

// TestEditDiffColours: the diff under an Edit in each palette. It switches
// the process-wide palette, so it does not run in parallel, and puts the
// dark one back.
func TestEditDiffColours(t *testing.T) {
	t.Cleanup(func() { theme.Use(theme.Dark) })
	for _, name := range []string{"dark", "light"} {
		t.Run(name, func(t *testing.T) {
			a := newApp(t, editScript, 80, 36, appOptions{
				allow: []string{"Edit", "MultiEdit"}, files: map[string]string{"config/config.go": configGo}, theme: name})
			a.prompt("Tune the defaults")
			a.idle()
			golden.RequireEqual(t, a.raw(t))
		})
	}
}

// writeScript overwrites a file with one line changed, then creates one.
const writeScript = `{"turns":[
  {"text":"Rewriting the notes.","tool_calls":[{"id":"w1","name":"Write","input":{
    "file_path":"notes.md","content":"# Notes\n\n- buy milk\n- call the plumber on Tuesday\n- water the plants\n"}}]},
  {"text":"And a new list.","tool_calls":[{"id":"w2","name":"Write","input":{
    "file_path":"todo/week.md","content":"# This week\n\n1. Monday: review\n2. Tuesday: plumber\n3. Wednesday: release\n4. Thursday: retro\n5. Friday: rest\n"}}]},
  {"text":"Done."}]}`

// TestWriteDiffInTheConversation: a Write over an existing file shows the
// diff of the old content against the new, in the approval dialog and
// under the call, as an Edit does; a Write that creates a file shows its
// first lines as added and counts the rest; at 60, 80 and 120 columns.
func TestWriteDiffInTheConversation(t *testing.T) {
	t.Parallel()
	for _, size := range []struct{ w, h int }{{60, 40}, {80, 40}, {120, 40}} {
		t.Run(fmt.Sprint(size.w), func(t *testing.T) {
			t.Parallel()
			a := newApp(t, writeScript, size.w, size.h, appOptions{
				files: map[string]string{"notes.md": "# Notes\n\n- buy milk\n- call the plumber\n- water the plants\n"}})
			a.prompt("Update my notes")
			a.modal()
			a.snap(t, "overwrite dialog")
			if s := a.screen(t); !strings.Contains(s, "- - call the plumber") || !strings.Contains(s, "+ - call the plumber on Tuesday") {
				t.Errorf("the dialog lacks the diff:\n%s", s)
			}
			a.answer('y')
			a.modal()
			a.snap(t, "create dialog")
			a.answer('y')
			a.idle()
			a.snap(t, "conversation")
			s := a.screen(t)
			for _, want := range []string{"+1 -1", "- - call the plumber", "+ - call the plumber on Tuesday", "+7 -0", "1 + # This week", "… +1 more line"} {
				if !strings.Contains(s, want) {
					t.Errorf("the conversation lacks %q:\n%s", want, s)
				}
			}
		})
	}
}
