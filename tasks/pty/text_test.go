package pty

import "testing"

func TestPlainText(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, in, want string }{
		{"colours go", "\x1b[1;31mred\x1b[0m text", "red text"},
		{"CR LF becomes LF", "a\r\nb\r\n", "a\nb\n"},
		{"a progress bar keeps its last state", "10%\r50%\r100%\n", "100%\n"},
		{"a shorter overwrite keeps the rest", "abcdef\rXY\n", "XYcdef\n"},
		{"backspace steps back", "ab\b\bcd\n", "cd\n"},
		{"titles go", "\x1b]0;title\aok\x1b]2;t\x1b\\!", "ok!"},
		{"charset switches go", "\x1b(0q\x1b(B", "q"},
		{"a cut-off sequence goes", "done\x1b[3", "done"},
		{"controls go", "a\x07b\x00c", "abc"},
		{"UTF-8 stays", "日本 €\n", "日本 €\n"},
	}
	for _, c := range cases {
		if got := PlainText([]byte(c.in)); got != c.want {
			t.Errorf("%s: PlainText(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

func TestRingKeepsTheLatestBytes(t *testing.T) {
	t.Parallel()
	var r ring
	chunk := make([]byte, 100<<10)
	for i := range 5 {
		for j := range chunk {
			chunk[j] = byte('a' + i)
		}
		r.write(chunk)
	}
	if r.total != 500<<10 {
		t.Fatalf("total %d", r.total)
	}
	data, next, omitted := r.since(0, 0)
	if !omitted || len(data) != RingSize || next != r.total {
		t.Fatalf("since(0): %d bytes, next %d, omitted %v", len(data), next, omitted)
	}
	if data[0] != 'c' || data[len(data)-1] != 'e' {
		t.Fatalf("held bytes start with %q and end with %q", data[0], data[len(data)-1])
	}
	data, next, omitted = r.since(r.total-5, 3)
	if omitted || string(data) != "eee" || next != r.total-2 {
		t.Fatalf("since(total-5, 3) = %q, %d, %v", data, next, omitted)
	}
	big := make([]byte, RingSize+7)
	big[len(big)-1] = 'z'
	r.write(big)
	if data, _, _ := r.since(r.total-1, 0); string(data) != "z" {
		t.Fatalf("after a write larger than the ring the last byte is %q", data)
	}
}

func TestCompleteLenStopsBeforeACutOffSequence(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want int
	}{
		{"plain", 5},
		{"red\x1b[31", 3},
		{"red\x1b[31m", 8},
		{"a\x1b", 1},
		{"a\x1b]0;title", 1},
		{"a\x1b]0;title\a", 11},
		{"a\x1b]0;t\x1b", 1},
		{"a\x1b]0;t\x1b\\", 8},
		{"a\x1b(", 1},
		{"a\x1b(B", 4},
		{"euro \xe2\x82", 5},
		{"\x1b7", 2},
	}
	for _, c := range cases {
		if got := CompleteLen([]byte(c.in)); got != c.want {
			t.Errorf("CompleteLen(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}
