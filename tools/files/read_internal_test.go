package files

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
)

// endlessLines is a reader of numbered lines that never ends and counts the
// bytes handed out, standing in for a huge file.
type endlessLines struct {
	next int
	buf  []byte
	read int64
}

func (e *endlessLines) Read(p []byte) (int, error) {
	for len(e.buf) < len(p) {
		e.next++
		e.buf = fmt.Appendf(e.buf, "%d %s\n", e.next, strings.Repeat("z", 100))
	}
	n := copy(p, e.buf)
	e.buf = e.buf[n:]
	e.read += int64(n)
	return n, nil
}

func TestReadPageReadsOnlyAsFarAsTheWindow(t *testing.T) {
	t.Parallel()
	src := &endlessLines{}
	p, err := readPage(context.Background(), bufio.NewReaderSize(src, readBuffer), 1000, 5, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if p.shown != 5 || !p.more || !strings.HasPrefix(p.text, "  1000\t1000 zzz") {
		t.Fatalf("page = %+v", p)
	}
	// 1004 lines of ~106 bytes plus at most two buffers of read-ahead.
	if limit := int64(1004*110 + 2*readBuffer); src.read > limit {
		t.Fatalf("read %d bytes for lines 1000-1004, want at most %d", src.read, limit)
	}
}

func TestReadLineKeepsMemoryBoundedOnAHugeLine(t *testing.T) {
	t.Parallel()
	huge := io.MultiReader(strings.NewReader(strings.Repeat("q", 10<<20)), strings.NewReader("\nafter\n"))
	br := bufio.NewReaderSize(huge, readBuffer)
	line, cut, err := readLine(br, true)
	if err != nil || !cut || len(line) != maxLineRunes {
		t.Fatalf("readLine = %d bytes, cut=%v, err=%v", len(line), cut, err)
	}
	if cap(line) > 4*maxLineRunes*4 {
		t.Fatalf("the kept line grew to %d bytes of capacity", cap(line))
	}
	next, _, err := readLine(br, true)
	if err != nil || string(next) != "after" {
		t.Fatalf("the next line is %q, %v", next, err)
	}
}
