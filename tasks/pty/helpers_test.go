package pty

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hinshun/vt10x"
)

// testTerm is a feeder and its emulator, with the answers it gave.
type testTerm struct {
	f       *feeder
	vt      vt10x.Terminal
	replies []string
}

func newTestTerm(rows, cols int, fast bool) *testTerm {
	t := &testTerm{}
	t.f, t.vt = newTerminal(rows, cols, func(b []byte) { t.replies = append(t.replies, string(b)) })
	t.f.fast = fast
	return t
}

// feed writes s in one piece and brings the screen up to date.
func (t *testTerm) feed(s string) *testTerm {
	t.f.write([]byte(s))
	t.f.flush()
	return t
}

func (t *testTerm) line(row int) string {
	t.vt.Lock()
	defer t.vt.Unlock()
	cols, _ := t.vt.Size()
	var b strings.Builder
	for x := 0; x < cols; x++ {
		c := t.vt.Cell(x, row).Char
		switch c {
		case 0:
			c = ' '
		case wideTail:
			continue // as Screen.Line reads it
		}
		b.WriteRune(c)
	}
	return strings.TrimRight(b.String(), " ")
}

func (t *testTerm) cursor() vt10x.Cursor {
	t.vt.Lock()
	defer t.vt.Unlock()
	return t.vt.Cursor()
}

func (t *testTerm) mode() vt10x.ModeFlag {
	t.vt.Lock()
	defer t.vt.Unlock()
	return t.vt.Mode()
}

// sameScreen reports the first difference between two emulators: any cell
// (character, colours, attributes, wrap marks), the cursor with its pen
// and state, the modes and the title.
func sameScreen(a, b vt10x.Terminal) error {
	a.Lock()
	defer a.Unlock()
	b.Lock()
	defer b.Unlock()
	ac, ar := a.Size()
	bc, br := b.Size()
	if ac != bc || ar != br {
		return fmt.Errorf("size %dx%d vs %dx%d", ar, ac, br, bc)
	}
	for y := 0; y < ar; y++ {
		for x := 0; x < ac; x++ {
			if ga, gb := a.Cell(x, y), b.Cell(x, y); ga != gb {
				return fmt.Errorf("cell (row %d, col %d): %+v vs %+v", y, x, ga, gb)
			}
		}
	}
	if ca, cb := a.Cursor(), b.Cursor(); ca != cb {
		return fmt.Errorf("cursor %+v vs %+v", ca, cb)
	}
	if ma, mb := a.Mode(), b.Mode(); ma != mb {
		return fmt.Errorf("mode %b vs %b", ma, mb)
	}
	if ta, tb := a.Title(), b.Title(); ta != tb {
		return fmt.Errorf("title %q vs %q", ta, tb)
	}
	return nil
}

// streamOp is one step of a generated terminal session: bytes from the
// program, a flush (the reader caught up), or a resize.
type streamOp struct {
	data       []byte
	flush      bool
	rows, cols int
}

// genStream makes a random but realistic session for a rows x cols
// terminal: mostly floods of plain lines, mixed with colours, cursor
// moves, scroll regions, wrap and newline modes, the alternate screen,
// tabs, wide text, resets and resizes, cut into chunks at random places
// (inside characters and sequences too).
func genStream(rng *rand.Rand, rows, cols, steps int) []streamOp {
	var raw []byte
	var ops []streamOp
	cut := func() {
		for len(raw) > 0 {
			n := 1 + rng.IntN(min(len(raw), 1+rng.IntN(9000)))
			ops = append(ops, streamOp{data: raw[:n]})
			raw = raw[n:]
		}
		raw = nil
	}
	words := []string{"alpha", "beta", "γάμμα", "delta", "日本", "x", "—", "ok", "€", "lorem", "ipsum"}
	line := func() string {
		var b strings.Builder
		n := rng.IntN(3 * cols)
		for b.Len() < n {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		return b.String()
	}
	for range steps {
		switch k := rng.IntN(100); {
		case k < 40: // a flood of lines
			n := rng.IntN(4 * rows)
			for range n {
				raw = append(raw, line()...)
				switch rng.IntN(10) {
				case 0:
					raw = append(raw, '\n')
				case 1:
					raw = append(raw, '\r')
				default:
					raw = append(raw, '\r', '\n')
				}
			}
		case k < 48:
			raw = fmt.Appendf(raw, "\x1b[%d;%dm", 30+rng.IntN(8), 40+rng.IntN(8))
		case k < 52:
			raw = fmt.Appendf(raw, "\x1b[%dm", []int{0, 1, 4, 7, 3, 22, 27}[rng.IntN(7)])
		case k < 58:
			raw = fmt.Appendf(raw, "\x1b[%d;%dH", 1+rng.IntN(rows+2), 1+rng.IntN(cols+2))
		case k < 63:
			if rng.IntN(3) == 0 {
				raw = append(raw, "\x1b[r"...)
			} else {
				raw = fmt.Appendf(raw, "\x1b[%d;%dr", rng.IntN(rows+1), rng.IntN(rows+2))
			}
		case k < 66:
			raw = fmt.Appendf(raw, "\x1b[?7%c", "hl"[rng.IntN(2)])
		case k < 68:
			raw = fmt.Appendf(raw, "\x1b[20%c", "hl"[rng.IntN(2)])
		case k < 70:
			raw = fmt.Appendf(raw, "\x1b[?6%c", "hl"[rng.IntN(2)])
		case k < 73:
			raw = fmt.Appendf(raw, "\x1b[?1049%c", "hl"[rng.IntN(2)])
		case k < 76:
			raw = append(raw, "a\tb\t\tc"...)
		case k < 78:
			raw = append(raw, "\x1b(0lqk\x1b(B"...)
		case k < 80:
			raw = append(raw, "\x1b]0;title "...)
			raw = fmt.Appendf(raw, "%d\a", rng.IntN(100))
		case k < 82:
			raw = append(raw, "\x1bc"...)
		case k < 84:
			raw = fmt.Appendf(raw, "\x1b[%dS\x1b[%dT\x1b[%dL\x1b[%dM", rng.IntN(4), rng.IntN(4), rng.IntN(4), rng.IntN(4))
		case k < 86:
			raw = append(raw, "\x1b7\x1b[5;5Hsaved\x1b8"...)
		case k < 88:
			cut()
			rows, cols = 2+rng.IntN(30), 2+rng.IntN(100)
			ops = append(ops, streamOp{rows: rows, cols: cols})
		case k < 93:
			cut()
			ops = append(ops, streamOp{flush: true})
		default:
			raw = append(raw, line()...)
		}
	}
	cut()
	return ops
}

// play runs ops through a terminal.
func (t *testTerm) play(ops []streamOp) {
	for _, op := range ops {
		switch {
		case op.rows > 0:
			t.f.resize(op.rows, op.cols)
		case op.flush:
			t.f.flush()
		default:
			t.f.write(op.data)
		}
	}
	t.f.flush()
}

// checkIdentical plays ops with and without the fast path and fails on
// the first difference.
func checkIdentical(t *testing.T, rows, cols int, ops []streamOp) {
	t.Helper()
	fast, plain := newTestTerm(rows, cols, true), newTestTerm(rows, cols, false)
	fast.play(ops)
	plain.play(ops)
	if err := sameScreen(fast.vt, plain.vt); err != nil {
		t.Fatalf("the fast path changed the screen: %v", err)
	}
	if fast.f.panics != 0 || plain.f.panics != 0 {
		t.Fatalf("the emulator panicked (%d, %d times)", fast.f.panics, plain.f.panics)
	}
}
