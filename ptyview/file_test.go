package ptyview

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// tick is a root's frame clock for tests: every call is a frame later.
type tick struct{ now time.Time }

func (c *tick) next() time.Time {
	c.now = c.now.Add(FrameInterval)
	return c.now
}

func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

func newFilePane(t *testing.T, path string, w, h int) *FilePane {
	p := NewFilePane(path)
	p.SetSize(w, h)
	t.Cleanup(func() { p.Close() })
	return p
}

func TestFilePaneFollowsAnAppendedFileWithColours(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "task.log")
	appendFile(t, path, "building\n\x1b[32mok\x1b[0m step 1\n")
	p := newFilePane(t, path, 30, 4)
	var clock tick
	if !p.Refresh(clock.next()) {
		t.Fatal("the first refresh rendered nothing")
	}
	frame := p.View()
	checkFrame(t, frame, 30, 4)
	if got := screenText(frame); strings.Join(got, "|") != "building|ok step 1||" {
		t.Fatalf("got %q", got)
	}
	if !strings.Contains(frame, "\x1b[32mok\x1b[0m step 1") {
		t.Fatalf("colours lost: %q", frame)
	}
	if p.Refresh(clock.next()) {
		t.Fatal("re-rendered without new output")
	}
	appendFile(t, path, "more\n")
	if !p.Refresh(clock.next()) {
		t.Fatal("the appended line was not rendered")
	}
	// A colour that spans lines is restated at the start of each.
	appendFile(t, path, "\x1b[31mfailed: one\ntwo\x1b[0m\nthree\nfour")
	if p.Refresh(clock.now.Add(time.Millisecond)) {
		t.Fatal("rendered twice within a frame")
	}
	if !p.Refresh(clock.next()) {
		t.Fatal("the appended lines were not rendered")
	}
	frame = p.View()
	checkFrame(t, frame, 30, 4)
	lines := strings.Split(frame, "\n")
	if got := screenText(frame); strings.Join(got, "|") != "failed: one|two|three|four" {
		t.Fatalf("got %q", got)
	}
	if !strings.HasPrefix(lines[1], "\x1b[0;31mtwo\x1b[0m") {
		t.Fatalf("the red of the line before is not restated: %q", lines[1])
	}
	if strings.Contains(lines[2], "\x1b[") {
		t.Fatalf("the colour leaked past its reset: %q", lines[2])
	}
	if p.Status() != "following" || p.Title() != path {
		t.Fatalf("status %q, title %q", p.Status(), p.Title())
	}
}

func TestFilePaneMarksMonitorHits(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "task.log")
	appendFile(t, path, "compiling\n\x1b[1mERROR\x1b[0m: disk full at 93%\nwarning: slow\n")
	p := newFilePane(t, path, 40, 3)
	p.SetHighlights([]*regexp.Regexp{regexp.MustCompile(`ERROR|disk`), regexp.MustCompile(`\d+%`)})
	var clock tick
	p.Refresh(clock.next())
	lines := strings.Split(p.View(), "\n")
	if strings.Contains(lines[0], "\x1b[") || strings.Contains(lines[2], hitOn) {
		t.Fatalf("marks on lines without hits: %q", lines)
	}
	// The line's own bold and reset stay; the mark is restated after
	// each, and ends with the line's style restated (none here).
	want := "\x1b[1m" + hitOn + "ERROR\x1b[0m" + hitOn + "\x1b[0m: " + hitOn + "disk\x1b[0m full at " + hitOn + "93%\x1b[0m"
	if !strings.HasPrefix(lines[1], want) {
		t.Fatalf("hits not marked:\n got %q\nwant %q", lines[1], want)
	}
	checkFrame(t, p.View(), 40, 3)
}

func TestFilePaneShowsTheLatestStateOfAProgressLine(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "task.log")
	appendFile(t, path, "download\r\n 10%\r 50%")
	p := newFilePane(t, path, 20, 2)
	var clock tick
	p.Refresh(clock.next())
	if got := screenText(p.View()); strings.Join(got, "|") != "download| 50%" {
		t.Fatalf("got %q", got)
	}
	appendFile(t, path, strings.Repeat("\r 99%", 100000)+"\r100%\ndone\n")
	p.Refresh(clock.next())
	if got := screenText(p.View()); strings.Join(got, "|") != "100%|done" {
		t.Fatalf("got %q", got)
	}
	if len(p.partial) != 0 || len(p.lines) != 3 {
		t.Fatalf("kept %d bytes of partial line, %d lines", len(p.partial), len(p.lines))
	}
}

func TestFilePaneDropsSequencesThatWouldActOnTheUI(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "task.log")
	appendFile(t, path, "a\x1b[2J\x1b[Hb\x1b]0;title\x07c\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\td\x07\x08e\x1b[?1049h\x1b[38;5;208mf\n")
	p := newFilePane(t, path, 30, 1)
	p.Refresh(time.Now())
	frame := p.View()
	checkFrame(t, frame, 30, 1)
	// The tab goes from column 7 to 8; BEL and BS are dropped.
	if want := "abclink de\x1b[38;5;208mf\x1b[0m"; !strings.HasPrefix(frame, want) {
		t.Fatalf("got %q, want %q", frame, want)
	}
	for _, bad := range []string{"\x1b[2J", "\x1b[H", "\x1b]", "\x07", "\x08", "\x1b[?1049h"} {
		if strings.Contains(frame, bad) {
			t.Errorf("%q passed through: %q", bad, frame)
		}
	}
}

func TestFilePaneWaitsForItsFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "later.log")
	p := newFilePane(t, path, 10, 2)
	var clock tick
	p.Refresh(clock.next())
	checkFrame(t, p.View(), 10, 2)
	if p.Status() != "waiting for the file" {
		t.Fatalf("status %q", p.Status())
	}
	appendFile(t, path, "hello\n")
	if !p.Refresh(clock.next()) || screenText(p.View())[0] != "hello" {
		t.Fatalf("the new file was not followed: %q", p.View())
	}
}

func TestFilePaneStartsOverWhenTheFileIsTruncatedOrReplaced(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "task.log")
	appendFile(t, path, "old one\nold two\n")
	p := newFilePane(t, path, 10, 2)
	var clock tick
	p.Refresh(clock.next())
	if err := os.WriteFile(path, []byte("new\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p.Refresh(clock.next())
	if got := screenText(p.View()); strings.Join(got, "|") != "new|" {
		t.Fatalf("after truncation: %q", got)
	}
	other := filepath.Join(dir, "next.log")
	if err := os.WriteFile(other, []byte("rotated\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	p.Refresh(clock.next()) // notices the new file
	p.Refresh(clock.next()) // reads it
	if got := screenText(p.View()); strings.Join(got, "|") != "rotated|" {
		t.Fatalf("after rotation: %q", got)
	}
}

func TestFilePaneOpensABigFileAtItsEnd(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "big.log")
	var b strings.Builder
	for i := range 200000 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	appendFile(t, path, b.String())
	p := newFilePane(t, path, 20, 3)
	start := time.Now()
	p.Refresh(time.Now())
	if d := time.Since(start); d > time.Second {
		t.Errorf("opening took %v", d)
	}
	if got := screenText(p.View()); strings.Join(got, "|") != "line 199997|line 199998|line 199999" {
		t.Fatalf("got %q", got)
	}
	if !strings.Contains(p.Status(), "skipped") {
		t.Fatalf("status %q does not say output was skipped", p.Status())
	}
}

func TestSGRStateFollowsStyles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ seqs, want string }{
		{"31", "\x1b[0;31m"},
		{"1;38;5;208;48;2;1;2;3", "\x1b[0;1;38;5;208;48;2;1;2;3m"},
		{"1;31|22", "\x1b[0;31m"},
		{"4|24|7", "\x1b[0;7m"},
		{"31|0", ""},
		{"31|", ""},
		{"38:2::1:2:3|3", "\x1b[0;3;38:2::1:2:3m"},
		{"92|39|104", "\x1b[0;104m"},
		{"38;5", ""},
	} {
		var st sgrState
		for _, s := range strings.Split(tc.seqs, "|") {
			st.apply(s)
		}
		if got := string(st.appendTo(nil)); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.seqs, got, tc.want)
		}
	}
}
