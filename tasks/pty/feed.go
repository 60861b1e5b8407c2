package pty

import (
	"strconv"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// Limits of the feeder. vt10x keeps the same two numbers, so holding a
// sequence back never changes what the emulator would have seen.
const (
	// csiMax is the longest CSI parameter string vt10x collects before it
	// acts on the sequence anyway.
	csiMax = 256
	// strMax is how many characters of an OSC, DCS, APC or PM string
	// vt10x keeps; the rest of the string is read and dropped.
	strMax = 256
	// paramMax clamps every CSI parameter. Larger values are never
	// meaningful on a screen, and vt10x loops that many times for some
	// sequences (ESC[9223372036854775807I never finishes).
	paramMax = 9999
)

// Replies to the device-attribute queries, which vt10x leaves unanswered.
// Programs such as fish send the primary query at start-up and wait for the
// answer; these say "a VT220-class terminal with ANSI colour".
const (
	replyDA1 = "\x1b[?62;22c"
	replyDA2 = "\x1b[>1;10;0c"
)

// scanState mirrors the parser state of vt10x, so the feeder knows where
// every escape sequence starts and ends exactly as the emulator will.
type scanState uint8

const (
	stGround  scanState = iota
	stEsc               // after ESC
	stCSI               // after ESC [
	stStr               // inside an OSC, DCS, APC or PM string
	stStrEnd            // after ESC inside a string
	stCharset           // after ESC (: one character follows
	stTest              // after ESC #: one character follows
)

// byteClass says what a byte does in the ground state.
type byteClass uint8

const (
	classPlain byteClass = iota // printable text, CR, LF: part of a plain run
	classEmit                   // a control with an effect (TAB, BS, FF, VT and the unhandled C0 codes)
	classSkip                   // a control vt10x ignores (NUL, ENQ, BEL, SO, SI, XON, XOFF, CAN, SUB, DEL)
	classEsc                    // ESC starts a sequence
)

var groundClass = func() (t [256]byteClass) {
	for b := 0; b < 0x20; b++ {
		t[b] = classEmit
	}
	for _, b := range []byte{0x00, 0x05, 0x07, 0x0e, 0x0f, 0x11, 0x13, 0x18, 0x1a, 0x7f} {
		t[b] = classSkip
	}
	t['\r'], t['\n'], t[0x1b] = classPlain, classPlain, classEsc
	return t
}()

// handledControl reports the C0 codes vt10x acts on in every state (the
// others are printed or collected into a sequence).
func handledControl(r rune) bool {
	switch r {
	case '\t', '\b', '\r', '\n', '\f', '\v', '\a', 0x1b, 0x0e, 0x0f, 0x1a, 0x18, 0x05, 0x00, 0x11, 0x13, 0x7f:
		return true
	}
	return false
}

// feeder turns the raw pty stream into writes to a vt10x terminal. It holds
// back an incomplete character or escape sequence until it is whole, so the
// emulator is always between sequences after a write, which lets the
// feeder rewrite or drop a dangerous sequence, answer queries in order, and
// skip text that will scroll away (see run.go). It is used by one goroutine
// at a time (the Session's reader, or Resize under the same mutex).
type feeder struct {
	vt vt10x.Terminal
	// reply receives answers to terminal queries, in order, for the child.
	reply func([]byte)
	// fast enables skipping plain text that scrolls away; the reference
	// path in tests turns it off.
	fast bool

	rows, cols  int
	top, bottom int // the scroll region, as vt10x has it
	bracketed   bool
	insert      bool   // insert mode (IRM), which vt10x does not apply
	ins         []byte // scratch for insertText

	wide  []byte            // scratch for widen
	part  [utf8.UTFMax]byte // an incomplete character from the last write
	npart int

	state    scanState
	seq      []byte // the escape sequence being collected, from its ESC
	csi      []byte // what vt10x collects of a CSI: one byte per character
	strRunes int    // characters of a string sequence kept so far

	out     []byte // bytes for the emulator, in stream order
	run     plainRun
	replies []byte      // answers vt10x wrote during the last write
	panics  int         // emulator panics recovered (after sanitising, none are known)
	kept    *keptScreen // what a resize made smaller cut off (keep.go)
}

// newTerminal makes an emulator and its feeder. vt10x answers cursor
// position and status queries itself, into the writer it was built with;
// the feeder collects those answers and passes them to reply in order with
// its own.
func newTerminal(rows, cols int, reply func([]byte)) (*feeder, vt10x.Terminal) {
	f := &feeder{reply: reply, fast: true, rows: rows, cols: cols, top: 0, bottom: rows - 1}
	f.vt = vt10x.New(vt10x.WithSize(cols, rows), vt10x.WithWriter(replySink{f}))
	return f, f.vt
}

// replySink is the writer vt10x answers cursor and status queries into; the
// feeder passes the answers on after each write.
type replySink struct{ f *feeder }

// Write collects an answer; vt10x calls it inside its own Write.
func (r replySink) Write(p []byte) (int, error) {
	r.f.replies = append(r.f.replies, p...)
	return len(p), nil
}

// write takes the next piece of pty output.
func (f *feeder) write(p []byte) {
	if f.npart > 0 {
		need := utf8Len(f.part[0])
		take := min(need-f.npart, len(p))
		var tmp [2 * utf8.UTFMax]byte
		n := copy(tmp[:], f.part[:f.npart])
		n += copy(tmp[n:], p[:take])
		f.npart = 0
		switch r, size := utf8.DecodeRune(tmp[:n]); {
		case !utf8.FullRune(tmp[:n]):
			f.npart = copy(f.part[:], tmp[:n])
			return
		case r == utf8.RuneError && size == 1:
			// The held bytes start no character after all: vt10x skips
			// them one by one, and what follows is read afresh, so a
			// character that begins in the new bytes is kept whole.
		default:
			p = p[take:]
			f.scan(tmp[:n])
		}
	}
	if k := incompleteTail(p); k > 0 {
		f.npart = copy(f.part[:], p[len(p)-k:])
		p = p[:len(p)-k]
	}
	f.scan(p)
}

// utf8Len is the encoded length announced by a UTF-8 lead byte.
func utf8Len(b byte) int {
	switch {
	case b >= 0xf0:
		return 4
	case b >= 0xe0:
		return 3
	default:
		return 2
	}
}

// incompleteTail returns the length of a character cut off at the end of p:
// vt10x drops such a character, so it waits for the rest instead.
func incompleteTail(p []byte) int {
	for i := 1; i <= utf8.UTFMax-1 && i <= len(p); i++ {
		b := p[len(p)-i]
		if b < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(b) {
			if !utf8.FullRune(p[len(p)-i:]) {
				return i
			}
			return 0
		}
	}
	return 0
}

// scan walks whole characters: runs of plain text go to the plain-run
// logic, everything else is collected sequence by sequence.
func (f *feeder) scan(p []byte) {
	for i := 0; i < len(p); {
		if f.state == stGround {
			j := i
			for j < len(p) && groundClass[p[j]] == classPlain {
				j++
			}
			if j > i {
				run := p[i:j]
				if hasWide(run) {
					col := f.cursorColumn()
					f.wide = widen(run, f.wide, &col)
					run = f.wide
				}
				if f.insert {
					f.insertText(run)
				} else {
					f.plain(run)
				}
				i = j
				continue
			}
			b := p[i]
			i++
			switch groundClass[b] {
			case classEsc:
				f.state = stEsc
				f.seq = append(f.seq[:0], b)
			case classEmit:
				f.emit(p[i-1 : i])
			}
			continue
		}
		r, size := rune(p[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(p[i:])
			if r == utf8.RuneError && size == 1 {
				i++ // vt10x skips a byte that is not UTF-8
				continue
			}
		}
		f.seqRune(r, p[i:i+size])
		i += size
	}
}

// seqRune advances an escape sequence by one character, mirroring vt10x.
func (f *feeder) seqRune(r rune, raw []byte) {
	if f.state == stStr {
		switch r {
		case 0x1b:
			f.seq = append(f.seq, 0x1b)
			f.state = stStrEnd
		case '\a':
			f.seq = append(f.seq, '\a')
			f.finish()
		default:
			if f.strRunes < strMax {
				f.seq = append(f.seq, raw...)
				f.strRunes++
			}
		}
		return
	}
	ctl := r < 0x20 || r == 0x7f
	if ctl && handledControl(r) {
		// vt10x acts on these wherever they appear, and a sequence in
		// progress carries on after them; feeding them now, ahead of the
		// held sequence, has the same effect.
		switch r {
		case 0x1b: // a new sequence; the unfinished one had no effect
			f.seq = append(f.seq[:0], 0x1b)
			f.state = stEsc
		case 0x18, 0x1a: // CAN, SUB: vt10x empties the CSI parameters
			if f.state == stCSI {
				f.seq = f.seq[:2]
				f.csi = f.csi[:0]
			}
		case '\r', '\n':
			f.plain(raw)
		case '\t', '\b', '\f', '\v':
			f.emit(raw)
		}
		return
	}
	switch f.state {
	case stEsc:
		if ctl {
			f.abandon()
			return
		}
		switch r {
		case '[':
			f.state = stCSI
			f.csi = f.csi[:0]
			f.seq = append(f.seq, '[')
		case '#':
			f.state = stTest
			f.seq = append(f.seq, '#')
		case 'P', '_', '^', ']', 'k':
			f.state = stStr
			f.strRunes = 0
			f.seq = append(f.seq, raw...)
		case '(':
			f.state = stCharset
			f.seq = append(f.seq, '(')
		default:
			f.seq = append(f.seq, raw...)
			f.finish()
			if r == 'c' { // RIS resets the scroll region and the modes
				f.top, f.bottom, f.bracketed, f.insert = 0, f.rows-1, false, false
				// vt10x's reset clears a rows-by-cols corner of the
				// screen (its clear gets x and y swapped): clear it all.
				f.emit([]byte("\x1b[2J"))
			}
		}
	case stCSI:
		b := byte(r) // vt10x keeps the low byte of each character
		f.csi = append(f.csi, b)
		f.seq = append(f.seq, raw...)
		if b >= 0x40 && b <= 0x7e || len(f.csi) >= csiMax {
			f.handleCSI()
		}
	case stStrEnd:
		if r == '\\' {
			f.seq = append(f.seq, '\\')
			f.finish()
			return
		}
		f.abandon() // vt10x drops the string and this character
	case stCharset, stTest:
		f.seq = append(f.seq, raw...)
		f.finish()
	}
}

// finish hands a complete sequence to the emulator.
func (f *feeder) finish() {
	f.emit(f.seq)
	f.abandon()
}

// abandon returns to the ground state without feeding the sequence.
func (f *feeder) abandon() {
	f.seq = f.seq[:0]
	f.state = stGround
}

// handleCSI decides what reaches the emulator of a complete CSI sequence.
func (f *feeder) handleCSI() {
	defer f.abandon()
	final := f.csi[len(f.csi)-1]
	var params []byte
	if len(f.csi) > 1 {
		params = f.csi[:len(f.csi)-1]
	}
	priv := len(params) > 0 && params[0] == '?'
	body := params
	if priv {
		body = params[1:]
	}
	args, signed, clamped := parseParams(body)
	if signed {
		// A sign is not a parameter character: a terminal ignores the
		// sequence, and vt10x panics on ESC[-1P.
		return
	}
	rewrite := clamped
	switch final {
	case 'c':
		f.deviceAttributes(params)
		return
	case 'h', 'l':
		if !priv {
			f.setModes(final == 'h', args)
		}
		if priv {
			var ok bool
			if args, ok = f.privateModes(final == 'h', args); !ok {
				rewrite = true
			}
			if len(args) == 0 && rewrite {
				return
			}
		}
	case 'r':
		if !priv {
			f.setRegion(args)
		}
	}
	if !rewrite {
		f.emit(f.seq)
		return
	}
	seq := append(make([]byte, 0, 32), 0x1b, '[')
	if priv {
		seq = append(seq, '?')
	}
	for i, a := range args {
		if i > 0 {
			seq = append(seq, ';')
		}
		seq = strconv.AppendInt(seq, int64(a), 10)
	}
	f.emit(append(seq, final))
}

// parseParams reads CSI parameters the way vt10x does (numbers split at
// ';', up to the first one that is not a number), clamping each to
// paramMax. signed reports a number with a sign, which vt10x would accept.
func parseParams(body []byte) (args []int, signed, clamped bool) {
	if len(body) == 0 {
		return nil, false, false
	}
	start := 0
	for i := 0; i <= len(body); i++ {
		if i < len(body) && body[i] != ';' {
			continue
		}
		p := body[start:i]
		start = i + 1
		if len(p) > 1 && (p[0] == '-' || p[0] == '+') && allDigits(p[1:]) {
			return args, true, clamped
		}
		if len(p) == 0 || !allDigits(p) {
			return args, false, clamped
		}
		v := 0
		for _, d := range p {
			v = v*10 + int(d-'0')
			if v > paramMax {
				v, clamped = paramMax, true
				break
			}
		}
		args = append(args, v)
	}
	return args, false, clamped
}

func allDigits(p []byte) bool {
	for _, d := range p {
		if d < '0' || d > '9' {
			return false
		}
	}
	return true
}

// deviceAttributes answers DA1 (ESC[c, ESC[0c) and DA2 (ESC[>c), after
// everything before the query, so answers arrive in the order asked.
func (f *feeder) deviceAttributes(params []byte) {
	var answer string
	switch {
	case len(params) == 0 || string(params) == "0":
		answer = replyDA1
	case params[0] == '>' && (len(params) == 1 || string(params[1:]) == "0"):
		answer = replyDA2
	default:
		return
	}
	f.flush()
	if f.reply != nil {
		f.reply([]byte(answer))
	}
}

// privateModes follows the DEC private modes the feeder cares about. It
// drops an alternate-screen reset (47, 1047, 1049) that arrives while the
// main screen shows: vt10x would swap to the alternate screen instead. ok
// is false when args changed.
func (f *feeder) privateModes(set bool, args []int) (kept []int, ok bool) {
	screen := false
	for _, a := range args {
		switch a {
		case 2004:
			f.bracketed = set
		case 47, 1047, 1049:
			screen = true
		}
	}
	if !screen {
		return args, true
	}
	f.flush() // the emulator must be current to say which screen shows
	alt := f.altScreen()
	kept = make([]int, 0, len(args))
	ok = true
	for _, a := range args {
		if a == 47 || a == 1047 || a == 1049 {
			if !set && !alt {
				ok = false
				continue
			}
			alt = set
		}
		kept = append(kept, a)
	}
	return kept, ok
}

func (f *feeder) altScreen() bool {
	f.vt.Lock()
	defer f.vt.Unlock()
	return f.vt.Mode()&vt10x.ModeAltScreen != 0
}

// setRegion tracks DECSTBM exactly as vt10x applies it.
func (f *feeder) setRegion(args []int) {
	top, bottom := 1, f.rows
	if len(args) > 0 {
		top = args[0]
	}
	if len(args) > 1 {
		bottom = args[1]
	}
	top = clamp(top-1, 0, f.rows-1)
	bottom = clamp(bottom-1, 0, f.rows-1)
	if top > bottom {
		top, bottom = bottom, top
	}
	f.top, f.bottom = top, bottom
}

func clamp(v, lo, hi int) int {
	return max(lo, min(v, hi))
}

// emit queues bytes that are not plain text; they end the current plain run.
func (f *feeder) emit(b []byte) {
	f.endRun()
	f.out = append(f.out, b...)
	f.run.restart(len(f.out))
}

// flush feeds everything complete to the emulator.
func (f *feeder) flush() {
	f.endRun()
	if len(f.out) > 0 {
		f.writeVT(f.out)
		f.out = f.out[:0]
	}
	f.run.restart(0)
}

// writeVT writes to the emulator, surviving a panic: the lock vt10x took is
// released by its own deferred unlock, and the rest of b is lost.
func (f *feeder) writeVT(b []byte) {
	func() {
		defer func() {
			if recover() != nil {
				f.panics++
			}
		}()
		_, _ = f.vt.Write(b)
	}()
	if len(f.replies) > 0 {
		if f.reply != nil {
			f.reply(append([]byte(nil), f.replies...))
		}
		f.replies = f.replies[:0]
	}
}

// resize changes the emulator's size. Everything pending is fed first, so
// it lands at the size it was written for.
func (f *feeder) resize(rows, cols int) {
	f.flush()
	old := f.cols
	x := 0
	var g grid
	if keeping := f.kept != nil || rows < f.rows || cols < f.cols; keeping {
		g = f.readGrid()
		x = g.cur.X
		f.keep(g, rows, cols)
	} else if cols > old {
		f.vt.Lock()
		x = f.vt.Cursor().X
		f.vt.Unlock()
	}
	f.vt.Resize(cols, rows)
	f.rows, f.cols = rows, cols
	f.top, f.bottom = 0, rows-1
	defer f.restore(g, max(0, g.cur.Y-rows+1))
	if cols > old {
		// vt10x loses the tab stops past the old width when it widens:
		// set one every 8 columns there, then put the cursor back (the
		// resize already cleared a pending wrap, so its column is all).
		var seq []byte
		for c := (old + 7) / 8 * 8; c < cols; c += 8 {
			seq = append(seq, 0x1b, '[')
			seq = strconv.AppendInt(seq, int64(c+1), 10)
			seq = append(seq, 'G', 0x1b, 'H')
		}
		seq = append(seq, 0x1b, '[')
		seq = strconv.AppendInt(seq, int64(min(x, cols-1)+1), 10)
		seq = append(seq, 'G')
		f.writeVT(seq)
	}
}
