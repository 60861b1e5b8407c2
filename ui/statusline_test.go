package ui

import (
	"strings"
	"testing"
)

// The status line at 60 columns, with an approval waiting, leaves out the
// parts that do not fit whole (the token count, then the model) and says
// so with "…"; it never ends in a piece of one ("· 0 tok").
func TestStatusLineLeavesOutWholeParts(t *testing.T) {
	t.Parallel()
	for _, w := range []int{60, 80} {
		a := newApp(t, touchScript, w, 24, appOptions{})
		a.prompt("make two files")
		a.modal()
		lines := strings.Split(a.screen(t), "\n")
		status := strings.TrimRight(lines[len(lines)-1], " ")
		if !strings.HasSuffix(status, " tokens") && !strings.HasSuffix(status, " …") {
			t.Errorf("%d columns: the status line ends in a cut part: %q", w, status)
		}
		if !strings.Contains(status, "1 to approve") {
			t.Errorf("%d columns: the status line lost the pending approval: %q", w, status)
		}
	}
}
