package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// An LS listing in the conversation is a table: the sizes are in the
// binary units the rest of the screen uses (B, KiB, MiB) and right-aligned
// in one column whatever the names' lengths. The model still reads
// "name<TAB>N bytes".
func TestLSListingAlignsItsSizes(t *testing.T) {
	t.Parallel()
	a := newApp(t, `{"turns":[
	  {"text":"Looking.","tool_calls":[{"id":"l1","name":"LS","input":{"path":"."}}]},
	  {"text":"Done."}]}`, 80, 24, appOptions{files: map[string]string{
		"go.mod":             strings.Repeat("m", 61),
		"main.go":            strings.Repeat("x", 1536),
		"a_longer_name.txt":  strings.Repeat("y", 2*1024*1024+300*1024),
		"README.md":          "",
		"internal/keep/x.go": "package keep\n",
	}})
	a.prompt("what is here?")
	a.idle()
	a.key('o', tea.ModCtrl)
	a.snap(t, "listing")
	s := a.screen(t)
	var col []int
	for _, l := range strings.Split(s, "\n") {
		for _, unit := range []string{" B", " KiB", " MiB"} {
			if strings.HasSuffix(strings.TrimRight(l, " "), unit) {
				col = append(col, len([]rune(strings.TrimRight(l, " "))))
			}
		}
	}
	if len(col) != 4 {
		t.Fatalf("%d lines end in a size, want the 4 files:\n%s", len(col), s)
	}
	for _, c := range col[1:] {
		if c != col[0] {
			t.Fatalf("the sizes do not end in one column (%v):\n%s", col, s)
		}
	}
	if !strings.Contains(s, "2.3 MiB") || !strings.Contains(s, "1.5 KiB") || strings.Contains(s, "bytes") {
		t.Errorf("the sizes are not in binary units:\n%s", s)
	}
}
