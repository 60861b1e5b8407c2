package ptyview

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/tasks/pty"
)

// These tests run a program in tmux and in a pane at the same size, send
// both the same keys, wait until both are quiet and compare what a person
// would read: the text of every row (trailing blanks trimmed) and the
// cursor position. tmux is the reference terminal.

var tmuxSeq atomic.Int64

// tmux is one tmux server running one program.
type tmux struct {
	t    *testing.T
	sock string
}

// tmuxConf: no status line (the window gets every row), no delay after
// Esc, and the pane stays after the program exits.
const tmuxConf = "set -g status off\nset -sg escape-time 0\nset -g remain-on-exit on\nset -g default-terminal xterm-256color\n"

func startTmux(t *testing.T, w, h int, env, argv []string) *tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "tmux.conf")
	if err := os.WriteFile(conf, []byte(tmuxConf), 0o600); err != nil {
		t.Fatal(err)
	}
	x := &tmux{t: t, sock: fmt.Sprintf("ptyview-%d-%d", os.Getpid(), tmuxSeq.Add(1))}
	cmd := "exec env -i " + shellQuote(append(append(append([]string{}, env...), "TERM=xterm-256color"), argv...)...)
	x.run("-f", conf, "new-session", "-d", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "-s", "t", cmd)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", x.sock, "kill-server").Run() })
	if got := strings.TrimSpace(x.run("display-message", "-p", "-t", "t", "#{pane_width}x#{pane_height}")); got != fmt.Sprintf("%dx%d", w, h) {
		t.Fatalf("tmux pane is %s", got)
	}
	return x
}

func (x *tmux) run(args ...string) string {
	x.t.Helper()
	cmd := exec.Command("tmux", append([]string{"-L", x.sock}, args...)...)
	cmd.Env = append(os.Environ(), "TMUX=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (x *tmux) capture() (lines []string, cursor string) {
	out := x.run("capture-pane", "-p", "-t", "t")
	cursor = strings.TrimSpace(x.run("display-message", "-p", "-t", "t", "#{cursor_y},#{cursor_x},#{cursor_flag}"))
	return normalize(strings.Split(strings.TrimSuffix(out, "\n"), "\n")), cursor
}

// quiet waits until the capture has not changed for quietFor.
func (x *tmux) quiet() ([]string, string) {
	x.t.Helper()
	const quietFor = 500 * time.Millisecond
	deadline := time.Now().Add(20 * time.Second)
	prev, pc := x.capture()
	since := time.Now()
	for time.Since(since) < quietFor {
		if time.Now().After(deadline) {
			x.t.Fatal("tmux never went quiet")
		}
		time.Sleep(50 * time.Millisecond)
		cur, cc := x.capture()
		if strings.Join(cur, "\n") != strings.Join(prev, "\n") || cc != pc {
			prev, pc, since = cur, cc, time.Now()
		}
	}
	return prev, pc
}

// tmuxKeys are tmux's names for the keys the tests press.
var tmuxKeys = map[string]string{
	"enter": "Enter", "esc": "Escape", "space": "Space", "up": "Up", "down": "Down",
	"left": "Left", "right": "Right", "pgdown": "NPage", "pgup": "PPage", "backspace": "BSpace",
	"home": "Home", "end": "End", "tab": "Tab", "ctrl+c": "C-c", "ctrl+u": "C-u",
}

// step is one input: text typed as is, or a named key.
type step struct{ text, key string }

func text(s string) step { return step{text: s} }
func key(k string) step  { return step{key: k} }

func (x *tmux) send(s step) {
	if s.text != "" {
		x.run("send-keys", "-t", "t", "-l", s.text)
		return
	}
	k, ok := tmuxKeys[s.key]
	if !ok {
		k = s.key
	}
	x.run("send-keys", "-t", "t", k)
}

func sendPane(p *Pane, s step) {
	if s.text != "" {
		typeText(p, s.text)
		return
	}
	p.HandleKey(press(s.key))
}

// paneQuiet waits until the pane's program has been quiet and returns its
// text and cursor as tmux reports them: row, column, shown. The cursor is
// where the focused pane drew it, so a hidden or misplaced cursor (the
// first bug of Gemini CLI's embedded shell) fails the comparison.
func paneQuiet(t *testing.T, p *Pane) ([]string, string) {
	t.Helper()
	waitQuiet(t, p, 500*time.Millisecond)
	lines := normalize(screenText(refresh(p)))
	if row, col, ok := p.Cursor(); ok {
		return lines, fmt.Sprintf("%d,%d,1", row, col)
	}
	row, col, _ := p.s.Cursor()
	return lines, fmt.Sprintf("%d,%d,0", row, col)
}

// normalize trims trailing blanks and drops blank rows at the bottom.
func normalize(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l, " ")
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// compareWithTmux runs argv in both terminals and compares them after the
// start and after each group of steps. mask, when set, rewrites both
// texts before the comparison (for output that changes between runs).
func compareWithTmux(t *testing.T, argv []string, groups [][]step, mask func([]string) []string) {
	t.Helper()
	const w, h = 80, 24
	env := testEnv(t)
	x := startTmux(t, w, h, env, argv)
	m := pty.NewManager(pty.Options{Env: env, KeepExited: -1})
	t.Cleanup(m.CloseAll)
	p := openPane(t, m, pty.OpenSpec{Argv: argv, Rows: h, Cols: w})
	p.Focus()
	check := func(when string) {
		t.Helper()
		want, wc := x.quiet()
		got, gc := paneQuiet(t, p)
		if mask != nil {
			want, got = mask(want), mask(got)
		}
		if d := diffLines(want, got); d != "" {
			t.Fatalf("%s: the pane differs from tmux (- tmux, + pane):\n%s", when, d)
		}
		if wc != gc {
			t.Errorf("%s: cursor at %s in tmux, %s in the pane", when, wc, gc)
		}
	}
	check("at start")
	for i, g := range groups {
		for _, s := range g {
			x.send(s)
			sendPane(p, s)
		}
		check(fmt.Sprintf("after step %d %v", i+1, g))
	}
}

func diffLines(want, got []string) string {
	var b strings.Builder
	for i := 0; i < max(len(want), len(got)); i++ {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			fmt.Fprintf(&b, "row %2d -%q\n       +%q\n", i, w, g)
		}
	}
	return b.String()
}

func shellQuote(args ...string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

func need(t *testing.T, program string) {
	if _, err := exec.LookPath(program); err != nil {
		t.Skipf("%s is not installed", program)
	}
}

func TestMatchesTmuxBashPrompt(t *testing.T) {
	t.Parallel()
	need(t, "bash")
	compareWithTmux(t, []string{"bash", "--norc", "--noprofile"}, [][]step{
		{text("echo hello world"), key("enter")},
		{text("printf 'a\\tb\\tc\\n'; ls /nonexistent"), key("enter")},
		{text("echo abx"), key("backspace"), text("c"), key("enter")},
		{text("echo " + strings.Repeat("wrap", 30)), key("enter")},
		{text("seq 1 30"), key("enter")},
		{text("printf '\\e[31mred\\e[0m \\e[1mbold\\e[0m\\n'"), key("enter")},
		{text("echo partial"), key("left"), key("left"), text("X"), key("enter")},
		{text("printf '日本語 text\\n中文  列  x\\n'"), key("enter")},
	}, nil)
}

// lessFile is 100 numbered lines, some longer than the screen is wide.
func lessFile(t *testing.T) string {
	var b strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&b, "line %d: the quick brown fox", i)
		if i%7 == 0 {
			b.WriteString(strings.Repeat(" jumps over the lazy dog", 5))
		}
		b.WriteString("\n")
	}
	path := filepath.Join(t.TempDir(), "file.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestMatchesTmuxLess(t *testing.T) {
	t.Parallel()
	need(t, "less")
	compareWithTmux(t, []string{"less", lessFile(t)}, [][]step{
		{key("space")},
		{key("down"), key("down")},
		{text("G")},
		{text("/fox 5")},
		{key("enter")},
		{text("g")},
	}, nil)
}

func TestMatchesTmuxVim(t *testing.T) {
	t.Parallel()
	need(t, "vim")
	// -n: no swap file, which the other vim would see.
	compareWithTmux(t, []string{"vim", "-u", "NONE", "-i", "NONE", "-n", lessFile(t)}, [][]step{
		{text("G")},
		{text(":set number"), key("enter")},
		{text("gg")},
		{text("dd")},
		{text("jjA and more"), key("esc")},
		{text("ohello there"), key("esc")},
		{text(":10"), key("enter")},
	}, nil)
}

// TestMatchesTmuxTop runs top -b -n1 at a shell prompt. Its numbers change
// from one run to the next (load, memory, times, the processes themselves),
// so the comparison masks them: every run of digits becomes #, blanks in
// the summary rows are dropped (their padding depends on the values), and
// process rows are compared by count only. The summary rows, the column
// titles, the prompt and every row's position are compared exactly after
// masking.
func TestMatchesTmuxTop(t *testing.T) {
	t.Parallel()
	need(t, "top")
	need(t, "bash")
	digits := regexp.MustCompile(`[0-9]+`)
	blanks := regexp.MustCompile(` +`)
	mask := func(lines []string) []string {
		out := make([]string, len(lines))
		inProcs := false
		for i, l := range lines {
			l = digits.ReplaceAllString(l, "#")
			switch {
			case strings.Contains(l, "PID USER"):
				inProcs = true
				l = blanks.ReplaceAllString(l, " ")
			case inProcs && !strings.HasPrefix(l, "$"):
				l = "<process>"
			default:
				inProcs = false
				if !strings.HasPrefix(l, "$") {
					l = blanks.ReplaceAllString(l, "")
				}
			}
			out[i] = l
		}
		return out
	}
	compareWithTmux(t, []string{"bash", "--norc", "--noprofile"}, [][]step{
		{text("top -b -n 1 -w 80 | head -n 15"), key("enter")},
	}, mask)
}
