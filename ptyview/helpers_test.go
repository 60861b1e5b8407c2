package ptyview

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/seed92b641c3/workbench/tasks/pty"
	"go.uber.org/goleak"
)

// helperEnv makes the test binary act as a program that reports the bytes
// it reads: the only way to be sure what a key put on the wire.
const helperEnv = "PTYVIEW_TEST_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode))
	}
	// No goroutine of a pane (or of the sessions the tests close) may
	// outlive its test.
	goleak.VerifyTestMain(m)
}

// runHelper puts its terminal in raw mode, optionally turns on application
// cursor keys and bracketed paste ("app"), says "ready", then prints every
// byte it reads in hex, one read per line.
func runHelper(mode string) int {
	stty := exec.Command("stty", "raw", "-echo")
	stty.Stdin = os.Stdin
	if err := stty.Run(); err != nil {
		fmt.Println("stty:", err)
		return 1
	}
	if mode == "app" {
		fmt.Print("\x1b[?1h\x1b[?2004h")
	}
	fmt.Print("ready\r\n")
	buf := make([]byte, 4096)
	for {
		n, err := os.Stdin.Read(buf)
		if n > 0 {
			var b strings.Builder
			for _, c := range buf[:n] {
				fmt.Fprintf(&b, "%02x ", c)
			}
			fmt.Print(b.String() + "\r\n")
		}
		if err != nil {
			return 0
		}
	}
}

// testEnv is a small, fixed environment, so a program behaves the same in
// a pane and in tmux.
func testEnv(t testing.TB) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + t.TempDir(),
		"LANG=C.UTF-8",
		"LC_ALL=C.UTF-8",
		"LESSHISTFILE=-",
		"HISTFILE=/dev/null",
		"LESS=",
		"PS1=$ ",
	}
}

// newManager makes a pty.Manager whose sessions end with the test.
func newManager(t testing.TB) *pty.Manager {
	m := pty.NewManager(pty.Options{Env: testEnv(t), KeepExited: -1})
	t.Cleanup(m.CloseAll)
	return m
}

// openPane starts spec in a session and a pane of the same size.
func openPane(t testing.TB, m *pty.Manager, spec pty.OpenSpec) *Pane {
	t.Helper()
	if spec.Rows == 0 {
		spec.Rows, spec.Cols = 24, 80
	}
	s, err := m.Open(spec)
	if err != nil {
		t.Fatal(err)
	}
	p := New(s)
	p.SetSize(spec.Cols, spec.Rows)
	t.Cleanup(p.Close)
	return p
}

// openHelper starts the byte-reporting helper and waits until it reads.
func openHelper(t *testing.T, mode string) *Pane {
	t.Helper()
	m := newManager(t)
	p := openPane(t, m, pty.OpenSpec{
		Argv: []string{os.Args[0], "-test.run=^$"},
		Env:  []string{helperEnv + "=" + mode},
	})
	waitFor(t, p, func(text string) bool { return strings.Contains(text, "ready") })
	return p
}

// received is the hex of every byte the helper has read so far.
func received(p *Pane) string {
	out := pty.PlainText(p.s.Tail(0, pty.RingSize))
	_, after, ok := strings.Cut(out, "ready\n")
	if !ok {
		return ""
	}
	return strings.Join(strings.Fields(after), " ")
}

func hexOf(b []byte) string {
	parts := make([]string, len(b))
	for i, c := range b {
		parts[i] = fmt.Sprintf("%02x", c)
	}
	return strings.Join(parts, " ")
}

// screenText is the pane's frame as plain lines, trailing blanks removed.
func screenText(view string) []string {
	lines := strings.Split(ansi.Strip(view), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// refresh renders the pane now, whatever the frame clock says.
func refresh(p *Pane) string {
	p.Refresh(time.Now().Add(time.Hour))
	return p.View()
}

// waitFor renders the pane until its text satisfies ok, or fails the test
// after 10 seconds.
func waitFor(t testing.TB, p *Pane, ok func(text string) bool) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		text := strings.Join(screenText(refresh(p)), "\n")
		if ok(text) {
			return text
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out; the pane shows:\n%s", text)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitQuiet waits until the program has printed nothing for quiet.
func waitQuiet(t testing.TB, p *Pane, quiet time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if by := p.s.Wait(ctx, pty.WaitSpec{Quiet: quiet, Timeout: 20 * time.Second}); by != pty.DoneQuiet && by != pty.DoneExited {
		t.Fatalf("waiting for quiet output: %s", by)
	}
}

// press builds a key press from a bubbletea key string: "a", "enter",
// "ctrl+c", "alt+up", "shift+tab".
func press(s string) tea.KeyPressMsg {
	return tea.KeyPressMsg(parseKey(s))
}

// typeText presses one key per character of s.
func typeText(p *Pane, s string) {
	for _, r := range s {
		p.HandleKey(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

var keyCodes = map[string]rune{
	"enter": tea.KeyEnter, "tab": tea.KeyTab, "backspace": tea.KeyBackspace, "esc": tea.KeyEscape,
	"space": tea.KeySpace, "up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
	"home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
	"insert": tea.KeyInsert, "delete": tea.KeyDelete,
	"f1": tea.KeyF1, "f2": tea.KeyF2, "f3": tea.KeyF3, "f4": tea.KeyF4, "f5": tea.KeyF5, "f6": tea.KeyF6,
	"f7": tea.KeyF7, "f8": tea.KeyF8, "f9": tea.KeyF9, "f10": tea.KeyF10, "f11": tea.KeyF11, "f12": tea.KeyF12,
	"f13": tea.KeyF13, "kpenter": tea.KeyKpEnter, "kp5": tea.KeyKp5, "kpup": tea.KeyKpUp, "mute": tea.KeyMute,
}

func parseKey(s string) tea.Key {
	var k tea.Key
	for {
		mod, rest, ok := strings.Cut(s, "+")
		if !ok || rest == "" {
			break
		}
		switch mod {
		case "ctrl":
			k.Mod |= tea.ModCtrl
		case "alt":
			k.Mod |= tea.ModAlt
		case "shift":
			k.Mod |= tea.ModShift
		case "meta":
			k.Mod |= tea.ModMeta
		default:
			panic("bad modifier in " + s)
		}
		s = rest
	}
	if c, ok := keyCodes[s]; ok {
		k.Code = c
		return k
	}
	r := []rune(s)
	if len(r) != 1 {
		panic("bad key " + s)
	}
	k.Code = r[0]
	switch {
	case k.Mod == 0:
		k.Text = s
	case k.Mod == tea.ModShift:
		k.Text = strings.ToUpper(s)
	}
	return k
}
