package ptyview

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/seed92b641c3/workbench/tasks/pty"
)

// colourScript prints 16, 256 and true colours, attributes and wide
// characters, the way a colourful build log or ls would.
const colourScript = `printf '\e[31mred\e[0m \e[1;32mbold green\e[0m \e[4munder\e[24m \e[7mrev\e[27m \e[3mital\e[0m\n'
for i in $(seq 0 15); do printf '\e[48;5;%dm  ' $i; done; printf '\e[0m\n'
for i in $(seq 16 51); do printf '\e[38;5;%dm#' $i; done; printf '\e[0m\n'
for i in $(seq 0 8 255); do printf '\e[38;2;%d;%d;128m=' $i $((255-i)); done; printf '\e[0m\n'
printf '\e[33m日本語のテキスト\e[0m and 한국어 and emoji 👍 done\n'
printf 'ascii after wide: 中文 ok\n'
`

func TestColoursFromARealProgramGroupRunsAndFit(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	p := openPane(t, m, pty.OpenSpec{Command: colourScript, Rows: 10, Cols: 60})
	<-p.s.Done()
	frame := refresh(p)
	checkFrame(t, frame, 60, 10)
	lines := strings.Split(frame, "\n")
	text := screenText(frame)
	for i, want := range []string{
		"red bold green under rev ital",
		"",
		strings.Repeat("#", 36),
		strings.Repeat("=", 32),
		"日本語のテキスト and 한국어 and emoji 👍 done",
		"ascii after wide: 中文 ok",
	} {
		if text[i] != want {
			t.Errorf("line %d: got %q, want %q", i, text[i], want)
		}
	}
	for i, l := range lines {
		// A line of runs of equal style needs about one sequence per
		// run; one per cell would be at least as many as its cells.
		seqs := strings.Count(l, "\x1b[")
		cells := len(strings.TrimRight(ansi.Strip(l), " "))
		if i >= 1 && i <= 3 {
			continue // the colour ramps, checked below
		}
		if seqs > cells/2+2 {
			t.Errorf("line %d: %d escape sequences for %d cells: %q", i, seqs, cells, l)
		}
	}
	// The colour ramps change colour every run: one sequence per run,
	// and a reset.
	for i, runs := range map[int]int{1: 16, 2: 36, 3: 32} {
		if n := strings.Count(lines[i], "\x1b["); n != runs+1 {
			t.Errorf("ramp on line %d: %d sequences, want %d", i, n, runs+1)
		}
	}
	for _, want := range []string{"\x1b[0;31mred", "\x1b[0;1;92mbold green", "\x1b[0;4munder", "\x1b[0;7mrev", "\x1b[0;3mital",
		"\x1b[0;38;5;16m#", "\x1b[0;38;5;51m#", "\x1b[0;38;2;0;255;128m=", "\x1b[0;100m  ", "\x1b[0;33m日本語"} {
		if !strings.Contains(frame, want) {
			t.Errorf("no %q in the frame", want)
		}
	}
}

func TestResizeWhileRunningIsSeenByTheProgram(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	p := openPane(t, m, pty.OpenSpec{Argv: []string{"bash", "--norc", "--noprofile"}})
	p.Focus()
	waitFor(t, p, func(s string) bool { return strings.HasPrefix(s, "$") })
	p.SetSize(100, 30)
	if rows, cols := p.s.Size(); rows != 30 || cols != 100 {
		t.Fatalf("the session is %dx%d", rows, cols)
	}
	typeText(p, "echo size=$(tput cols)x$(tput lines)")
	p.HandleKey(press("enter"))
	waitFor(t, p, func(s string) bool { return strings.Contains(s, "\nsize=100x30") })
	frame := refresh(p)
	checkFrame(t, frame, 100, 30)
}

func TestResizeAfterExitIsHarmless(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	p := openPane(t, m, pty.OpenSpec{Command: "printf 'first\\nsecond\\nthird'; exit 3", Rows: 5, Cols: 20})
	<-p.s.Done()
	refresh(p)
	if got := p.Status(); got != "exited 3" {
		t.Fatalf("status %q", got)
	}
	for _, size := range [][2]int{{10, 2}, {50, 12}, {1, 1}, {0, 0}, {5000, 3}, {20, 5}} {
		p.SetSize(size[0], size[1])
		frame := p.View()
		if size[0] <= 0 {
			if frame != "" {
				t.Fatalf("%v: %q", size, frame)
			}
			continue
		}
		checkFrame(t, frame, size[0], size[1])
	}
	if got := screenText(p.View()); strings.Join(got[:3], ",") != "first,second,third" {
		t.Fatalf("the final screen was lost: %q", got)
	}
}

func TestExitedProgramKeepsItsFinalScreenAndStatus(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	for _, tc := range []struct{ cmd, word, status string }{
		{"echo done", "done", "exited 0"},
		{"echo failed; false", "failed", "exited 1"},
		{"echo bye; kill -9 $$", "bye", "exited 137 (killed)"},
	} {
		cmd, status := tc.cmd, tc.status
		p := openPane(t, m, pty.OpenSpec{Command: cmd, Rows: 4, Cols: 30})
		if p.Status() != "running" && p.Status() != status {
			t.Errorf("%s: status before exit %q", cmd, p.Status())
		}
		<-p.s.Done()
		text := waitFor(t, p, func(s string) bool { return s != "" })
		if !p.Exited() || p.Status() != status {
			t.Errorf("%s: status %q, want %q", cmd, p.Status(), status)
		}
		if !strings.Contains(text, tc.word) {
			t.Errorf("%s: final screen %q", cmd, text)
		}
	}
	p := openPane(t, m, pty.OpenSpec{Command: "sleep 60", Rows: 4, Cols: 30})
	if _, err := m.Close(p.s.ID()); err != nil {
		t.Fatal(err)
	}
	if p.Status() != "closed" {
		t.Errorf("closed session: status %q", p.Status())
	}
}

func TestTitleIsTheProgramsOrItsCommand(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	p := openPane(t, m, pty.OpenSpec{Command: "sleep 30"})
	if p.Title() != "sleep 30" {
		t.Errorf("title %q", p.Title())
	}
	p = openPane(t, m, pty.OpenSpec{Command: `printf '\e]2;my\atitle\a'; sleep 30`})
	waitFor(t, p, func(string) bool { return p.Title() != "sleep 30" && strings.HasPrefix(p.Title(), "my") })
	if p.Title() != "my" {
		t.Errorf("title %q", p.Title())
	}
}

// TestRefreshCoalescesAFlood renders a program that prints as fast as it
// can with a root ticking far faster than the frame rate: renders are
// bounded by the frame clock, and View between them is the cached frame.
func TestRefreshCoalescesAFlood(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	p := openPane(t, m, pty.OpenSpec{Command: "seq 1 300000", Rows: 24, Cols: 80})
	first := p.View()
	start := time.Now()
	now := start
	refreshed := 0
	for {
		select {
		case <-p.s.Done():
		default:
			now = now.Add(time.Millisecond)
			if p.Refresh(now) {
				refreshed++
			}
			if p.View() == "" {
				t.Fatal("empty frame")
			}
			time.Sleep(100 * time.Microsecond)
			continue
		}
		break
	}
	elapsed := now.Sub(start)
	if max := int(elapsed/(FrameInterval-frameSlack)) + 1; refreshed > max {
		t.Fatalf("%d renders in %v of frame clock, at most %d allowed", refreshed, elapsed, max)
	}
	if refreshed < 2 {
		t.Fatalf("only %d renders during the flood", refreshed)
	}
	refresh(p)
	text := screenText(p.View())
	if text[22] != "300000" || first == p.View() {
		t.Fatalf("final screen: %q", text[20:])
	}
	// Nothing changed: Refresh does nothing, View returns the same frame.
	frames := p.Frames()
	if p.Refresh(now.Add(time.Hour)) || p.Frames() != frames || p.Dirty() {
		t.Fatal("re-rendered an unchanged screen")
	}
}

func TestFocusChangesRenderAtOnce(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	p := openPane(t, m, pty.OpenSpec{Argv: []string{"bash", "--norc", "--noprofile"}})
	waitFor(t, p, func(s string) bool { return strings.HasPrefix(s, "$") })
	if strings.Contains(p.View(), "\x1b[0;7m") {
		t.Fatal("cursor drawn before focus")
	}
	p.Focus()
	if !p.Dirty() || !strings.HasPrefix(p.View(), "$ \x1b[0;7m \x1b[0m") {
		t.Fatalf("focused: %q", strings.Split(p.View(), "\n")[0])
	}
	if row, col, ok := p.Cursor(); !ok || row != 0 || col != 2 {
		t.Fatalf("cursor at %d,%d %v", row, col, ok)
	}
	p.Blur()
	if strings.Contains(p.View(), "\x1b[0;7m") {
		t.Fatal("cursor drawn after blur")
	}
}

func TestViewBeforeAnyOutputIsAFullBlankFrame(t *testing.T) {
	t.Parallel()
	m := newManager(t)
	p := openPane(t, m, pty.OpenSpec{Command: "sleep 30", Rows: 6, Cols: 12})
	checkFrame(t, p.View(), 12, 6)
}
