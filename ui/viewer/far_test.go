package viewer

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed92b641c3/workbench/ui/safetext"
)

// rowsFile writes n lines row000000001 ... as `seq -f 'row%09.0f' 1 n`
// does. (With %09g, as the issue wrote it, seq prints every number from
// a million on in exponent form, row00001e+06, so such a file holds no
// row019999998 at all and "pattern not found" is the right answer.)
func rowsFile(t testing.TB, n int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "rows.txt")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(w, "row%09d\n", i)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return p
}

// A search reads the whole file in steps, says how far it got while it
// runs, and finds a match near the end.
func TestSearchFindsAFarMatchAndShowsProgress(t *testing.T) {
	t.Parallel()
	v := open(t, rowsFile(t, 2_000_000), Options{})
	screen(t, v, 80, 24)
	keys(v, "/", "row001999998", "enter")
	v.Step(time.Nanosecond) // one chunk
	progress := regexp.MustCompile(`searching for "row001999998"… [1-9][0-9]?% · esc stops`)
	if got := ansi.Strip(screen(t, v, 80, 24)); !progress.MatchString(got) {
		t.Errorf("while the search runs the footer reads:\n%s", lastLine(got))
	}
	settle(t, v)
	got := ansi.Strip(screen(t, v, 80, 24))
	// The match is on screen; the screen ends with the file's last line.
	if !strings.Contains(got, "\nrow001999998\nrow001999999\nrow002000000\n") || !v.onScreen(v.search.cur.row) || !strings.Contains(lastLine(got), "line 1,999,980 of 2,000,000") {
		t.Errorf("after the search the screen reads:\n%s", got)
	}
	// Backwards from there, around the start of the file.
	keys(v, "/", "row00000000[12]$", "enter")
	settle(t, v)
	keys(v, "N")
	settle(t, v)
	if got := lastLine(ansi.Strip(screen(t, v, 80, 24))); !strings.Contains(got, "line 1 ") {
		t.Errorf("N to the first match: the footer reads %q", got)
	}
}

// A message cut to a narrow footer ends in "…", so a cut pattern does not
// read as the whole one.
func TestFooterMarksACutMessage(t *testing.T) {
	t.Parallel()
	v := open(t, rowsFile(t, 100), Options{})
	screen(t, v, 40, 10)
	keys(v, "/", "row019999998", "enter")
	settle(t, v)
	got := lastLine(ansi.Strip(screen(t, v, 40, 10)))
	if !strings.HasPrefix(got, "pattern not found: r") || !strings.Contains(got, "…") {
		t.Errorf("the footer reads %q, want the message cut with …", got)
	}
}

// A file name with bidi and zero-width characters is shown with them as
// marked escapes, in the header and when cut to fit.
func TestH16_ViewerShowsFileNamesSafely(t *testing.T) {
	t.Parallel()
	name := "invoice\u202eftp.exe\u200b.log"
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte("one\ntwo\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	v := open(t, p, Options{Name: "spill/" + name})
	settle(t, v)
	styled := screen(t, v, 60, 8)
	if strings.ContainsAny(styled, "\u202e\u200b") {
		t.Errorf("the screen holds the characters raw:\n%s", styled)
	}
	if !strings.Contains(styled, "\x1b[7m<U+202E>") {
		t.Errorf("the escape is not in reverse video:\n%q", styled)
	}
	golden.RequireEqual(t, ansi.Strip(styled))
	narrow := ansi.Strip(screen(t, v, 30, 8))
	if first := strings.SplitN(narrow, "\n", 2)[0]; !strings.HasPrefix(first, "…") || strings.ContainsAny(first, "\u202e\u200b") {
		t.Errorf("cut to 30 columns the header reads %q", first)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// File content with bidi controls and zero-width characters (the Trojan
// Source class: a comment that reorders the code after it) is shown with
// them as escapes in reverse video, in plain and coloured files alike, and
// a search for an escape as it is shown finds it beyond a chunk of plain
// ASCII rows.
func TestH16_ViewerShowsFileContentSafely(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&b, "row %d\n", i)
	}
	b.WriteString("if access_level != \"user\u202e \u2066// Check if admin\u2069 \u2066\" {\n")
	b.WriteString("pass\u200bword\n")
	b.WriteString("\x1b[32mok\x1b[0m the\u200b end\n")
	v := open(t, writeFile(t, b.String()), Options{Name: "trojan.go"})
	settle(t, v)
	screen(t, v, 60, 6)
	keys(v, "G")
	styled := screen(t, v, 60, 6)
	if strings.ContainsAny(styled, "\u202e\u2066\u2069\u200b") {
		t.Errorf("the screen holds the characters raw:\n%q", styled)
	}
	for _, e := range []string{"\x1b[7m<U+202E>", "\x1b[7m<U+200B>\x1b[27mword", "\x1b[7m<U+200B>\x1b[27m end"} {
		if !strings.Contains(styled, e) {
			t.Errorf("%q is not in reverse video:\n%q", e, styled)
		}
	}
	golden.RequireEqual(t, ansi.Strip(styled))
	// The pattern is a regular expression: the + of the escape is quoted.
	keys(v, "g", "/", `pass<U\+200B>word`, "enter")
	settle(t, v)
	if got := lastLine(ansi.Strip(screen(t, v, 60, 6))); strings.Contains(got, "not found") {
		t.Errorf("searching for the escape as shown: %q", got)
	}
}

// invisibleLeads holds the first byte of every character the viewer shows
// as an escape, so the search never skips a row that shows one.
func TestInvisibleLeadsCoverEveryEscapedCharacter(t *testing.T) {
	t.Parallel()
	var buf [4]byte
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if !safetext.Invisible(r) {
			continue
		}
		utf8.EncodeRune(buf[:], r)
		if !bytes.Contains(invisibleLeads, buf[:1]) {
			t.Errorf("U+%04X starts with %#x, which invisibleLeads lacks", r, buf[0])
		}
	}
}
