package viewer

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// TestScreens pins two whole screens (regenerate with -update): a spill
// file that matches its record, searched, with its colours (styled, so the
// colours are pinned); and a changed spill file read wrapped (plain, to be
// read as layout).
func TestScreens(t *testing.T) {
	t.Parallel()
	t.Run("matching_spill_searched", func(t *testing.T) {
		t.Parallel()
		var b strings.Builder
		for i := 1; i <= 40; i++ {
			switch {
			case i%10 == 0:
				fmt.Fprintf(&b, "\x1b[31mFAIL\x1b[0m test_%02d: expected 3, got 4\n", i)
			default:
				fmt.Fprintf(&b, "\x1b[32mok\x1b[0m   test_%02d\t(0.%02ds)\n", i, i)
			}
		}
		p := writeFile(t, b.String())
		v := open(t, p, Options{Spill: spillOf(t, p), Name: "spill/20250601T123000-1-Bash.txt"})
		settle(t, v)
		screen(t, v, 72, 14)
		keys(v, "j", "/", "FAIL", "enter")
		settle(t, v)
		keys(v, "n")
		settle(t, v)
		golden.RequireEqual(t, screen(t, v, 72, 14))
	})
	t.Run("changed_spill_wrapped", func(t *testing.T) {
		t.Parallel()
		content := "first line\n" + strings.Repeat("a long line that wraps ", 6) + "\n" + numbered(10)
		p := writeFile(t, content)
		rec := spillOf(t, p)
		if err := os.WriteFile(p, []byte(strings.Replace(content, "first", "FIRST", 1)), 0o600); err != nil {
			t.Fatal(err)
		}
		v := open(t, p, Options{Spill: rec, Name: "spill/20250601T123000-2-Bash.txt"})
		settle(t, v)
		screen(t, v, 50, 10)
		keys(v, "w", "j")
		golden.RequireEqual(t, ansi.Strip(screen(t, v, 50, 10)))
	})
}
