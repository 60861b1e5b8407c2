package pty

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// The fast path. A program that floods the terminal with plain lines makes
// vt10x the bottleneck (a few MB/s: it allocates per byte and scrolls in
// O(rows)), yet almost all of that text scrolls off the screen before
// anyone could look at it. So while a run of plain text lasts (printable
// characters, CR and LF, starting between sequences), the feeder follows
// only the cursor: its column, its row and how many times the scroll region
// moved. Once the region has scrolled at least its own height after some
// point P, nothing written before P is still on screen, and the emulator
// needs only the text from P on plus a short prefix that puts its cursor
// where it was at P. The screen is identical to feeding every byte; the
// tests feed the same streams both ways and compare every cell.
//
// Cut points are taken after each LF and before each character that
// wraps, where the cursor state is just (column, row, pending wrap).

// Tuning numbers of the fast path.
const (
	// runMinBytes and the screen's row count set when a run is long enough
	// to be worth following: a screenful of lines, or this many bytes.
	runMinBytes = 16 << 10
	// runMaxBytes bounds the text kept while no cut point is old enough
	// (one endless line with auto-wrap off): the run is fed and restarted.
	runMaxBytes = 1 << 20
)

// Bits of vt10x's cursor state, which the package does not export.
const (
	vtCursorWrapNext = 1 << 1
)

// plainRun is the plain text since the last sequence or control.
type plainRun struct {
	// Before activation the run's bytes sit in feeder.out from start on.
	start  int
	lines  int
	noFast bool // the cursor was outside the scroll region: feed as is

	active bool
	buf    []byte // text from bufBase on
	// bufBase and every off are byte positions counted from the start of
	// the run, so trimming buf does not move them.
	bufBase int
	pos     int

	cols, height, bottom int
	wrapMode, crlf       bool

	y0       int // the row the run started on
	x, y     int
	wrapNext bool
	scrolls  int

	cuts    []cutPoint // candidates, oldest first, from cutHead on
	cutHead int
	base    cutPoint // the latest cut point old enough to start from
	hasBase bool
}

// cutPoint is where the emulator could start reading a run: off is a byte
// position in the run, the rest is the cursor just before that byte.
type cutPoint struct {
	off      int
	scrolls  int
	x, y     int
	wrapNext bool
}

// restart begins a new, empty run whose bytes will start at out[start].
func (r *plainRun) restart(start int) {
	r.start, r.lines, r.noFast = start, 0, false
}

// plain takes text of a plain run.
func (f *feeder) plain(b []byte) {
	r := &f.run
	if r.active {
		r.follow(b)
		if len(r.buf) > runMaxBytes {
			f.endRun()
			f.run.restart(len(f.out))
		}
		return
	}
	f.out = append(f.out, b...)
	if !f.fast || r.noFast {
		return
	}
	r.lines += bytes.Count(b, []byte{'\n'})
	if r.lines >= f.rows || len(f.out)-r.start >= runMinBytes {
		f.activate()
	}
}

// activate starts following the current run: the emulator is brought up to
// the run's first byte so its cursor can be read.
func (f *feeder) activate() {
	r := &f.run
	text := f.out[r.start:]
	f.writeVT(f.out[:r.start])
	f.vt.Lock()
	cur := f.vt.Cursor()
	mode := f.vt.Mode()
	f.vt.Unlock()
	if cur.Y < f.top || cur.Y > f.bottom || cur.X >= f.cols {
		// Outside the region, text is not scrolled away: no shortcut.
		r.noFast = true
		n := copy(f.out, text)
		f.out = f.out[:n]
		r.start = 0
		return
	}
	*r = plainRun{
		active:   true,
		buf:      append(r.buf[:0], text...),
		cuts:     r.cuts[:0],
		cols:     f.cols,
		height:   f.bottom - f.top + 1,
		bottom:   f.bottom,
		wrapMode: mode&vt10x.ModeWrap != 0,
		crlf:     mode&vt10x.ModeCRLF != 0,
		y0:       cur.Y,
		x:        cur.X,
		y:        cur.Y,
		wrapNext: cur.State&vtCursorWrapNext != 0,
	}
	f.out = f.out[:0]
	r.simulate(r.buf)
}

// follow appends text to an active run.
func (r *plainRun) follow(b []byte) {
	r.buf = append(r.buf, b...)
	r.simulate(b)
	// Drop text before the base cut point once it is a good share of buf.
	if drop := r.base.off - r.bufBase; r.hasBase && drop > 0 && drop >= len(r.buf)/2 {
		n := copy(r.buf, r.buf[drop:])
		r.buf = r.buf[:n]
		r.bufBase = r.base.off
	}
	if r.cutHead > 0 && r.cutHead >= len(r.cuts)/2 {
		n := copy(r.cuts, r.cuts[r.cutHead:])
		r.cuts = r.cuts[:n]
		r.cutHead = 0
	}
}

// simulate moves the followed cursor over b, the next bytes of the run, as
// vt10x would move its own.
func (r *plainRun) simulate(b []byte) {
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c >= 0x20 && c < utf8.RuneSelf:
			j := i + 1
			for j < len(b) && b[j] >= 0x20 && b[j] < utf8.RuneSelf {
				j++
			}
			r.glyphs(r.pos+i, j-i)
			i = j
		case c == '\n':
			r.newline(r.crlf)
			i++
			r.cuts = append(r.cuts, cutPoint{off: r.pos + i, scrolls: r.scrolls, x: r.x, y: r.y})
		case c == '\r':
			r.x, r.wrapNext = 0, false
			i++
		default:
			ch, size := utf8.DecodeRune(b[i:])
			if ch != utf8.RuneError || size != 1 {
				r.glyphs(r.pos+i, 1)
			}
			i += size
		}
	}
	r.pos += len(b)
}

// glyphs prints n one-byte characters starting at byte position at (or
// one character there when n is 1), wrapping as vt10x does: a character
// in the last column sets a pending wrap, and the next one first moves to
// a new line.
func (r *plainRun) glyphs(at, n int) {
	for n > 0 {
		if r.wrapMode && r.wrapNext {
			r.cuts = append(r.cuts, cutPoint{off: at, scrolls: r.scrolls, x: r.x, y: r.y, wrapNext: true})
			r.newline(true)
		}
		if r.x+n < r.cols {
			r.x += n
			r.wrapNext = false
			return
		}
		// These fill the row up to its last column.
		fill := r.cols - r.x
		r.x, r.wrapNext = r.cols-1, true
		if !r.wrapMode {
			return // the rest overwrites the last column
		}
		at += fill
		n -= fill
	}
}

// newline is vt10x's line feed inside the scroll region.
func (r *plainRun) newline(firstCol bool) {
	if r.y == r.bottom {
		r.scrolls++
		for r.cutHead < len(r.cuts) && r.scrolls-r.cuts[r.cutHead].scrolls >= r.height {
			r.base, r.hasBase = r.cuts[r.cutHead], true
			r.cutHead++
		}
	} else {
		r.y++
	}
	if firstCol {
		r.x = 0
	}
	r.wrapNext = false
}

// endRun queues what the emulator needs of an active run: a prefix that
// puts the cursor where it was at the base cut point, then the text from
// there on. The rows the prefix leaves unchanged scroll away in that text.
func (f *feeder) endRun() {
	r := &f.run
	if !r.active {
		return
	}
	if r.hasBase {
		for y := r.y0; y < r.base.y; y++ {
			f.out = append(f.out, '\n')
		}
		f.out = append(f.out, 0x1b, '[')
		f.out = strconv.AppendInt(f.out, int64(r.base.x+1), 10)
		f.out = append(f.out, 'G')
		if r.base.wrapNext {
			f.out = append(f.out, ' ')
		}
		f.out = append(f.out, r.buf[r.base.off-r.bufBase:]...)
	} else {
		f.out = append(f.out, r.buf...)
	}
	r.active = false
	r.buf = r.buf[:0]
	r.cuts = r.cuts[:0]
}
