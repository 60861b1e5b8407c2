package pty

import "testing"

// Insert mode (IRM) pushes the row right as a VT102 does. Each want was
// read from tmux 3.3 at the same size (10x3) fed the same bytes.
func TestFeederAppliesInsertMode(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in string
		want     [2]string
		row, col int
	}{
		{"inserts at the start, then overwrites after ESC[4l", "0123456789\r\x1b[4hab\x1b[4lc", [2]string{"abc1234567", ""}, 0, 3},
		{"a pending wrap wraps first, then inserts on the new row", "012345678\x1b[4hXYZ", [2]string{"012345678X", "YZ"}, 1, 2},
		{"after the last column is written", "0123456789\x1b[4hX", [2]string{"0123456789", "X"}, 1, 1},
		{"wide characters push two cells, with a second mode in the same sequence", "0123456789\r\x1b[4;20h日本\x1b[1;5Hx", [2]string{"日本x01234", ""}, 0, 5},
		{"RIS ends insert mode and clears the whole screen", "\x1b[2;1H0123456789\r\x1b[4h\x1bcab", [2]string{"ab", ""}, 0, 2},
		{"CR and LF move as they do outside insert mode", "wxyz\r\x1b[4hab\ncd\r\nef\x1b[4l", [2]string{"abwxyz", "  cd"}, 2, 2},
		{"without auto-wrap the last column is replaced", "0123456789\x1b[?7l\x1b[4h\x1b[1;9HXYZ", [2]string{"01234567XZ", ""}, 0, 9},
	}
	for _, c := range cases {
		for _, fast := range []bool{true, false} {
			for _, pieces := range []int{1, 3} {
				term := newTestTerm(3, 10, fast)
				in := []byte(c.in)
				step := (len(in) + pieces - 1) / pieces
				for i := 0; i < len(in); i += step {
					term.f.write(in[i:min(i+step, len(in))])
				}
				term.f.flush()
				got := [2]string{term.line(0), term.line(1)}
				cur := term.cursor()
				if got != c.want || cur.Y != c.row || cur.X != c.col {
					t.Errorf("%s (fast %v, %d pieces): rows %q, cursor %d,%d; want %q, cursor %d,%d",
						c.name, fast, pieces, got, cur.Y, cur.X, c.want, c.row, c.col)
				}
			}
		}
	}
}
