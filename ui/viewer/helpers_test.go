package viewer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"go.uber.org/goleak"
)

// TestMain checks that no test leaves a goroutine behind: the viewer
// promises to start none.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// writeFile writes content to a new file in a test's temp dir.
func writeFile(t testing.TB, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "out.txt")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// numbered is n lines "line 1" ... "line n", each ending in a newline.
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// open opens path and closes it when the test ends.
func open(t testing.TB, path string, opts Options) *Viewer {
	t.Helper()
	v, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return v
}

// settle runs the background work to the end, as the root would by
// answering every StepMsg.
func settle(t testing.TB, v *Viewer) {
	t.Helper()
	for i := 0; v.Pending(); i++ {
		if i > 100000 {
			t.Fatal("background work never finished")
		}
		v.Step(time.Second)
	}
}

// press builds the key message for a key name as bubbletea prints it.
func press(name string) tea.KeyPressMsg {
	special := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "space": tea.KeySpace,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
	}
	if strings.HasPrefix(name, "ctrl+") {
		return tea.KeyPressMsg{Code: rune(name[len(name)-1]), Mod: tea.ModCtrl}
	}
	if r, ok := special[name]; ok {
		return tea.KeyPressMsg{Code: r}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// keys sends key names in turn; a name longer than one rune that is not a
// special key is typed rune by rune.
func keys(v *Viewer, names ...string) Action {
	var act Action
	for _, n := range names {
		if _, special := map[string]bool{"enter": true, "esc": true, "space": true, "up": true, "down": true,
			"left": true, "right": true, "pgup": true, "pgdown": true, "home": true, "end": true}[n]; special ||
			strings.HasPrefix(n, "ctrl+") || len([]rune(n)) == 1 {
			act = v.Update(press(n))
			continue
		}
		for _, r := range n {
			act = v.Update(press(string(r)))
		}
	}
	return act
}

// screen draws the viewer and checks the promise of View: exactly height
// lines, none wider than width.
func screen(t testing.TB, v *Viewer, width, height int) string {
	t.Helper()
	out := v.View(width, height)
	lines := strings.Split(out, "\n")
	if len(lines) != height {
		t.Fatalf("View(%d, %d) drew %d lines:\n%s", width, height, len(lines), out)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Fatalf("View(%d, %d) line %d is %d cells wide: %q", width, height, i, w, l)
		}
	}
	return out
}

// body is the text area of a plain screen: the lines between the two
// header lines and the footer.
func body(t testing.TB, v *Viewer, width, height int) []string {
	t.Helper()
	lines := strings.Split(ansi.Strip(screen(t, v, width, height)), "\n")
	return lines[headerLines : len(lines)-footerLines]
}

// footerOf is the plain footer of a screen.
func footerOf(t testing.TB, v *Viewer, width, height int) string {
	t.Helper()
	lines := strings.Split(ansi.Strip(screen(t, v, width, height)), "\n")
	return lines[len(lines)-1]
}

// headerOf is the plain second header line (provenance).
func headerOf(t testing.TB, v *Viewer, width, height int) string {
	t.Helper()
	return strings.Split(ansi.Strip(screen(t, v, width, height)), "\n")[1]
}
