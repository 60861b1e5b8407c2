package pty

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hinshun/vt10x"
)

func TestFeederKeepsCharactersSplitAcrossReads(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		pieces []string
		want   string
	}{
		{"a euro sign cut after two bytes", []string{"a\xe2\x82", "\xacb"}, "a€b"},
		{"a euro sign cut after one byte", []string{"a\xe2", "\x82\xacb"}, "a€b"},
		{"an emoji cut into single bytes", []string{"\xf0", "\x9f", "\x91", "\x8d", "!"}, "👍!"},
		{"a cut character inside an escape sequence", []string{"\x1b]0;t\xc3", "\xa9\a", "ok"}, "ok"},
		{"a stray continuation byte is skipped", []string{"a\x82", "b"}, "ab"},
		{"a held lead byte that starts nothing leaves the next character whole", []string{"a\xcf", "\xd3\x9cb"}, "aӜb"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			term := newTestTerm(5, 20, true)
			for _, p := range c.pieces {
				term.f.write([]byte(p))
			}
			term.f.flush()
			if got := term.line(0); got != c.want {
				t.Errorf("screen shows %q, want %q", got, c.want)
			}
		})
	}
}

// A wide character takes two cells, as on a real terminal, so text a
// program places by column after it lands in that column.
func TestFeederGivesWideCharactersTwoCells(t *testing.T) {
	t.Parallel()
	for _, fast := range []bool{true, false} {
		term := newTestTerm(3, 20, fast)
		term.f.write([]byte("日本\x1b[1;8HX\r\n👍ok"))
		term.f.flush()
		if got := term.line(0); got != "日本   X" {
			t.Errorf("fast %v: row 0 reads %q", fast, got)
		}
		term.vt.Lock()
		x, cur := term.vt.Cell(7, 0).Char, term.vt.Cursor()
		term.vt.Unlock()
		if x != 'X' || cur.X != 4 || cur.Y != 1 {
			t.Errorf("fast %v: X in cell 7 is %q, cursor at %d,%d; want X there and the cursor at column 4 after 👍ok", fast, x, cur.X, cur.Y)
		}
	}
}

// A wide character that would start in the last column goes to the next
// row whole, as on a terminal: long CJK lines in a pane of odd width keep
// every character.
func TestFeederWrapsAWideCharacterWhole(t *testing.T) {
	t.Parallel()
	for _, fast := range []bool{true, false} {
		term := newTestTerm(5, 7, fast)
		term.f.write([]byte("日本語テキスト\r\nabcdef日"))
		term.f.flush()
		want := []string{"日本語", "テキス", "ト", "abcdef", "日"}
		for row, w := range want {
			if got := term.line(row); got != w {
				t.Errorf("fast %v: row %d reads %q, want %q", fast, row, got, w)
			}
		}
	}
}

func TestFeederSurvivesHostileParameters(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		want string
	}{
		{"a negative delete count is ignored", "abc\x1b[2G\x1b[-1Pz", "azc"},
		{"a negative insert count is ignored", "abc\x1b[1G\x1b[-3@z", "zbc"},
		{"a plus sign is ignored too", "abc\x1b[1G\x1b[+2Pz", "zbc"},
		{"an endless tab count ends", "a\x1b[9223372036854775807Ib", "a" + strings.Repeat(" ", 18) + "b"},
		{"a huge line count ends", "x\x1b[99999999999999999999999Lq", " q"},
		{"a huge cursor move stays on screen", "\x1b[1;99999999Hz", strings.Repeat(" ", 19) + "z"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			term := newTestTerm(5, 20, true)
			done := make(chan struct{})
			go func() {
				defer close(done)
				term.feed(c.in)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("feeding did not finish")
			}
			if term.f.panics != 0 {
				t.Fatalf("the emulator panicked %d times", term.f.panics)
			}
			if got := term.line(0); got != c.want {
				t.Errorf("screen shows %q, want %q", got, c.want)
			}
		})
	}
}

func TestFeederIgnoresAStrayAlternateScreenReset(t *testing.T) {
	t.Parallel()
	term := newTestTerm(5, 20, true).feed("hello\x1b[?1049l")
	if term.mode()&vt10x.ModeAltScreen != 0 || term.line(0) != "hello" {
		t.Fatalf("after a stray reset: alt=%v, row 0 %q; want the main screen with hello",
			term.mode()&vt10x.ModeAltScreen != 0, term.line(0))
	}
	term.feed("\x1b[?1049h\x1b[2J\x1b[Hfull screen")
	if term.mode()&vt10x.ModeAltScreen == 0 || term.line(0) != "full screen" {
		t.Fatalf("after 1049h: alt=%v, row 0 %q", term.mode()&vt10x.ModeAltScreen != 0, term.line(0))
	}
	term.feed("\x1b[?1049l")
	if term.mode()&vt10x.ModeAltScreen != 0 || term.line(0) != "hello" {
		t.Fatalf("after 1049l: alt=%v, row 0 %q; want the main screen back", term.mode()&vt10x.ModeAltScreen != 0, term.line(0))
	}
	term.feed("\x1b[?25;1049lX")
	if term.mode()&vt10x.ModeAltScreen != 0 || term.mode()&vt10x.ModeHide == 0 {
		t.Fatalf("a stray reset among other modes: mode %b; want main screen, cursor hidden", term.mode())
	}
}

func TestFeederRestoresTabStopsWhenWidening(t *testing.T) {
	t.Parallel()
	term := newTestTerm(5, 40, true)
	term.f.resize(5, 120)
	var stops []int
	term.feed("\r")
	for range 14 {
		term.feed("\t")
		stops = append(stops, term.cursor().X)
	}
	want := []int{8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112}
	if !slices.Equal(stops, want) {
		t.Fatalf("tab stops after widening: %v, want %v", stops, want)
	}
}

func TestFeederAnswersQueriesInOrder(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"primary device attributes", "\x1b[c", []string{replyDA1}},
		{"primary device attributes with 0", "\x1b[0c", []string{replyDA1}},
		{"secondary device attributes", "\x1b[>c", []string{replyDA2}},
		{"cursor position, then attributes", "ab\r\n\x1b[6n\x1b[c", []string{"\x1b[2;1R", replyDA1}},
		{"status report", "\x1b[5n", []string{"\x1b[0n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			term := newTestTerm(5, 20, true).feed(c.in)
			if !slices.Equal(term.replies, c.want) {
				t.Errorf("replies %q, want %q", term.replies, c.want)
			}
		})
	}
}

func TestFeederTracksBracketedPaste(t *testing.T) {
	t.Parallel()
	term := newTestTerm(5, 20, true).feed("\x1b[?2004h$ ")
	if !term.f.bracketed {
		t.Fatal("?2004h did not turn bracketed paste on")
	}
	term.feed("\x1b[?2004l")
	if term.f.bracketed {
		t.Fatal("?2004l did not turn bracketed paste off")
	}
}

func TestFastPathLeavesTheSameScreen(t *testing.T) {
	t.Parallel()
	seeds := uint64(120)
	if testing.Short() {
		seeds = 20
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(seed, 7))
		rows, cols := 2+rng.IntN(30), 2+rng.IntN(100)
		ops := genStream(rng, rows, cols, 60)
		t.Run(fmt.Sprintf("seed %d, %dx%d", seed, rows, cols), func(t *testing.T) {
			t.Parallel()
			checkIdentical(t, rows, cols, ops)
		})
	}
}

func TestFastPathMatchesPlainVT10x(t *testing.T) {
	t.Parallel()
	// A flood of plain lines, fed to vt10x directly and through the fast
	// path, in reads of different sizes.
	var b strings.Builder
	for i := range 5000 {
		b.WriteString(strings.Repeat("word ", i%40))
		b.WriteString("line\r\n")
	}
	b.WriteString("last line, no newline")
	stream := []byte(b.String())
	raw := vt10x.New(vt10x.WithSize(80, 24))
	_, _ = raw.Write(stream)
	for _, chunk := range []int{1, 7, 4096, 65536, len(stream)} {
		term := newTestTerm(24, 80, true)
		for i := 0; i < len(stream); i += chunk {
			term.f.write(stream[i:min(i+chunk, len(stream))])
			if i%(8*chunk) == 0 {
				term.f.flush()
			}
		}
		term.f.flush()
		if err := sameScreen(term.vt, raw); err != nil {
			t.Fatalf("reads of %d bytes: %v", chunk, err)
		}
	}
}

func TestFastPathSkipsMostOfAFlood(t *testing.T) {
	t.Parallel()
	term := newTestTerm(48, 160, true)
	var fed int
	term.f.vt = countingTerm{term.vt, &fed}
	line := []byte(strings.Repeat("x", 100) + "\r\n")
	for range 10000 {
		term.f.write(line)
	}
	term.f.flush()
	if total := 10000 * len(line); fed > total/20 {
		t.Fatalf("the emulator was fed %d of %d bytes; the fast path should skip nearly all", fed, total)
	}
}

// countingTerm counts the bytes written to an emulator.
type countingTerm struct {
	vt10x.Terminal
	n *int
}

func (c countingTerm) Write(p []byte) (int, error) {
	*c.n += len(p)
	return c.Terminal.Write(p)
}

func FuzzFeedTerminal(f *testing.F) {
	f.Add([]byte("hello\r\nworld\x1b[31mred\x1b[0m\n"), uint8(3), uint8(5))
	f.Add([]byte("\x1b[-1P\x1b[?1049l\x1b[9999999999I\x1b]0;x\a\xe2\x82"), uint8(4), uint8(10))
	f.Add([]byte(strings.Repeat("abc\r\n", 40)+"\x1b[2;3r"+strings.Repeat("z\n", 30)), uint8(6), uint8(7))
	f.Fuzz(func(t *testing.T, data []byte, rows8, cut8 uint8) {
		rows, cols := 2+int(rows8%12), 3+int(rows8/12%20)
		fast, plain := newTestTerm(rows, cols, true), newTestTerm(rows, cols, false)
		step := 1 + int(cut8)
		for i := 0; i < len(data); i += step {
			part := data[i:min(i+step, len(data))]
			fast.f.write(part)
			plain.f.write(part)
			if i%(3*step) == 0 {
				fast.f.flush()
				plain.f.flush()
			}
		}
		fast.f.flush()
		plain.f.flush()
		if fast.f.panics+plain.f.panics != 0 {
			t.Fatalf("the emulator panicked")
		}
		if err := sameScreen(fast.vt, plain.vt); err != nil {
			t.Fatalf("the fast path changed the screen: %v", err)
		}
	})
}
