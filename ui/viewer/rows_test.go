package viewer

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// randomText mixes short lines, lines around rowCap and very long lines,
// with multi-byte characters and colour sequences, so cuts land on them.
func randomText(seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	pieces := []string{"a", "bc", "é", "日本", "\x1b[31m", "\x1b[0m", " ", "\t"}
	var b bytes.Buffer
	for b.Len() < 300<<10 {
		var n int
		switch r.IntN(6) {
		case 0:
			n = rowCap - 50 + r.IntN(100)
		case 1:
			n = rowCap*2 + r.IntN(rowCap*3)
		default:
			n = r.IntN(120)
		}
		for start := b.Len(); b.Len()-start < n; {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		b.WriteByte('\n')
	}
	if r.IntN(2) == 0 {
		b.WriteString("no final newline")
	}
	return b.Bytes()
}

// TestRowsAreTheSameWalkingDownOrUp checks the promise rows.go rests on:
// the rows found going forward from the start and backward from the end are
// the same, short lines are never cut, no row is longer than the cap, and
// no cut splits a character or a colour sequence.
func TestRowsAreTheSameWalkingDownOrUp(t *testing.T) {
	t.Parallel()
	for seed := range uint64(8) {
		data := randomText(seed)
		s := span{buf: data, eof: true}
		var down []int64
		for r := int64(0); r < int64(len(data)); {
			down = append(down, r)
			end, ok := s.rowEnd(r)
			if !ok || end <= r {
				t.Fatalf("seed %d: rowEnd(%d) = %d, %v", seed, r, end, ok)
			}
			if end-r > 2*rowCap+2*cutSlack {
				t.Fatalf("seed %d: row at %d is %d bytes", seed, r, end-r)
			}
			row := data[r:end]
			if nl := bytes.IndexByte(row, '\n'); nl >= 0 && nl != len(row)-1 {
				t.Fatalf("seed %d: row at %d holds a newline inside", seed, r)
			}
			if !utf8.RuneStart(data[r]) {
				t.Fatalf("seed %d: row at %d starts inside a character", seed, r)
			}
			if i := bytes.LastIndexByte(row, esc); i >= 0 {
				if _, complete, _ := escapeLen(row[i:]); !complete {
					t.Fatalf("seed %d: row at %d ends inside an escape sequence", seed, r)
				}
			}
			r = end
		}
		var up []int64
		for end := int64(len(data)); end > 0; {
			start, ok := s.rowBefore(end)
			if !ok {
				t.Fatalf("seed %d: rowBefore(%d) failed", seed, end)
			}
			up = append(up, start)
			end = start
		}
		slices.Reverse(up)
		if !slices.Equal(down, up) {
			t.Fatalf("seed %d: %d rows going down, %d going up; first difference at %d",
				seed, len(down), len(up), firstDiff(down, up))
		}
		// A line shorter than the cap is one row.
		lines := bytes.SplitAfter(data, []byte("\n"))
		var at int64
		for _, l := range lines {
			if len(l) < rowCap && len(l) > 0 {
				if _, found := slices.BinarySearch(down, at); !found {
					t.Fatalf("seed %d: the short line at %d does not start a row", seed, at)
				}
				if i, _ := slices.BinarySearch(down, at+1); i < len(down) && down[i] < at+int64(len(l)) {
					t.Fatalf("seed %d: the short line at %d is cut at %d", seed, at, down[i])
				}
			}
			at += int64(len(l))
		}
	}
}

func firstDiff(a, b []int64) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestSanitizeKeepsColoursAndDefusesTheRest pins what reaches the screen
// from a file's bytes.
func TestSanitizeKeepsColoursAndDefusesTheRest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, styled, plain string
	}{
		{"plain ASCII is unchanged", "hello world", "hello world", "hello world"},
		{"colours are kept and closed", "\x1b[1;31mred\x1b[0m x", "\x1b[1;31mred\x1b[0m x\x1b[m", "red x"},
		{"tabs go to the next stop of 8", "a\tb\x1b[32m\tc", "a       b\x1b[32m       c\x1b[m", "a       b       c"},
		{"a tab after wide characters counts their cells", "日本\tx", "日本    x", "日本    x"},
		{"a CRLF line end is dropped", "text\r", "text", "text"},
		{"other controls show in caret notation", "a\rb\x00c\x7f", "a^Mb^@c^?", "a^Mb^@c^?"},
		{"screen clears and cursor moves are dropped", "a\x1b[2Jb\x1b[10;5Hc\x1b[?25l", "abc", "abc"},
		{"titles and hyperlinks are dropped, their text kept", "\x1b]0;title\x07x \x1b]8;;http://e\x1b\\link\x1b]8;;\x1b\\", "x link", "x link"},
		{"invalid UTF-8 becomes one replacement per byte", "a\xff\xfeb", "a\uFFFD\uFFFDb", "a\uFFFD\uFFFDb"},
		{"a cut-off escape at the end is dropped", "abc\x1b[3", "abc", "abc"},
		{"C1 controls are defused", "a\u009bb", "a\uFFFDb", "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := sanitize([]byte(tt.in), true); got != tt.styled {
				t.Errorf("styled: got %q, want %q", got, tt.styled)
			}
			if got := sanitize([]byte(tt.in), false); got != tt.plain {
				t.Errorf("plain: got %q, want %q", got, tt.plain)
			}
		})
	}
}

// TestWrappedLinesCarryTheirColours checks that a coloured run split by
// wrapping is coloured on both lines, each of which is drawable alone.
func TestWrappedLinesCarryTheirColours(t *testing.T) {
	t.Parallel()
	s := sanitize([]byte("ab\x1b[31mcdefgh\x1b[0mij"), true)
	lines := wrapRow(s, 4)
	if len(lines) != 3 {
		t.Fatalf("got %d lines: %q", len(lines), lines)
	}
	if !strings.HasPrefix(lines[1], "\x1b[31m") {
		t.Errorf("the second line does not start red: %q", lines[1])
	}
	if strings.Contains(lines[2], "\x1b[31m") && !strings.Contains(lines[2], "\x1b[0m") {
		t.Errorf("the third line stays red after the reset: %q", lines[2])
	}
}

// TestIndexFindsLinesAndOffsets checks the sparse index against a direct
// count across stride boundaries.
func TestIndexFindsLinesAndOffsets(t *testing.T) {
	t.Parallel()
	data := []byte(numbered(40000)) // ~430 KiB, several strides
	x := newLineIndex()
	for p := data; len(p) > 0; {
		n := min(len(p), 100000)
		x.add(p[:n])
		p = p[n:]
	}
	if x.newlines() != 40000 {
		t.Fatalf("counted %d newlines", x.newlines())
	}
	for _, n := range []int64{1, 2, 5000, 6071, 39999, 40000} {
		start, before, ok := x.find(n)
		if !ok {
			t.Fatalf("find(%d) failed", n)
		}
		want := int64(bytes.Count(data[:start], []byte("\n")))
		if before != want {
			t.Errorf("find(%d): %d newlines before the stride, want %d", n, before, want)
		}
		after := before + int64(bytes.Count(data[start:min(int64(len(data)), start+indexStride)], []byte("\n")))
		if before >= n || after < n {
			t.Errorf("find(%d): stride at %d holds newlines %d..%d", n, start, before+1, after)
		}
	}
	if _, _, ok := x.find(40001); ok {
		t.Error("find past the last newline succeeded")
	}
}
