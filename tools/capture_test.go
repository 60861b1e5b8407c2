package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCaptureKeepsOutputThatFits(t *testing.T) {
	t.Parallel()
	tc := &Context{MaxOutput: 100, SpillDir: t.TempDir()}
	text, spill := CaptureText(tc, strings.Repeat("x", 100))
	if text != strings.Repeat("x", 100) || spill != nil {
		t.Fatalf("output at the cap must pass unchanged, got %d bytes, spill %v", len(text), spill)
	}
}

func TestH08_SpillFileIsEvidence(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var recorded []Spill
	tc := &Context{MaxOutput: 1000, SpillDir: dir, SessionID: "s1", CallID: "c1", Tool: "Bash", InputDigest: "abcd",
		OnSpill: func(s Spill) { recorded = append(recorded, s) }}
	full := strings.Repeat("line of output\n", 1000)
	text, spill := CaptureText(tc, full)
	if spill == nil {
		t.Fatal("output over the cap with a spill dir must spill")
	}
	data, err := os.ReadFile(spill.Path)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != full {
		t.Fatalf("spill file holds %d bytes, want the full %d", len(data), len(full))
	}
	sum := sha256.Sum256(data)
	if spill.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("recorded sha256 %s does not match the file", spill.SHA256)
	}
	info, _ := os.Stat(spill.Path)
	if info.Mode().Perm() != 0o600 {
		t.Errorf("spill file mode %v, want 0600", info.Mode().Perm())
	}
	if spill.Bytes != int64(len(full)) || spill.Lines != 1000 {
		t.Errorf("size %d lines %d, want %d and 1000 (a final newline ends a line)", spill.Bytes, spill.Lines, len(full))
	}
	other := &Context{MaxOutput: 1000, SpillDir: dir}
	if _, unended := CaptureText(other, full+"and a last line without its newline"); unended == nil || unended.Lines != 1001 {
		t.Errorf("a last line without a newline is not counted: %+v", unended)
	}
	if spill.SessionID != "s1" || spill.CallID != "c1" || spill.Tool != "Bash" || spill.InputDigest != "abcd" {
		t.Errorf("provenance missing: %+v", spill)
	}
	if len(recorded) != 1 || recorded[0].Path != spill.Path {
		t.Errorf("OnSpill was not told of the spill: %v", recorded)
	}
	if !strings.Contains(text, spill.SHA256) || !strings.Contains(text, filepath.Base(spill.Path)) {
		t.Errorf("the model's text must name the file and digest:\n%s", text)
	}
	if len(text) > 1000+400 {
		t.Errorf("capped text is %d bytes, far over the 1000 cap", len(text))
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestCaptureWithoutSpillKeepsHeadAndTail(t *testing.T) {
	t.Parallel()
	tc := &Context{MaxOutput: 1000}
	full := "HEAD" + strings.Repeat("m", 5000) + "TAIL"
	text, spill := CaptureText(tc, full)
	if spill != nil {
		t.Fatal("no spill dir: nothing must be written")
	}
	if !strings.HasPrefix(text, "HEAD") || !strings.HasSuffix(text, "TAIL") {
		t.Fatalf("head and tail must survive: %q...%q", text[:10], text[len(text)-10:])
	}
	if !strings.Contains(text, "omitted from the middle") {
		t.Errorf("truncation must be said: %s", text)
	}
}

func TestCaptureStreamedEqualsWhole(t *testing.T) {
	t.Parallel()
	full := strings.Repeat("0123456789abcdef\n", 4000)
	tc := &Context{MaxOutput: 3000}
	whole, _ := CaptureText(tc, full)
	c := NewCapture(tc)
	for i := 0; i < len(full); i += 7 {
		c.Write([]byte(full[i:min(i+7, len(full))]))
	}
	streamed, _ := c.Finish()
	if whole != streamed {
		t.Fatalf("streaming in small writes must give the same text as one write")
	}
}

func TestCaptureNeverSplitsARune(t *testing.T) {
	t.Parallel()
	tc := &Context{MaxOutput: 101}
	text, _ := CaptureText(tc, strings.Repeat("é", 500))
	if !isValidUTF8(text) {
		t.Fatal("capped text has a broken UTF-8 sequence")
	}
}

func TestH08_QuotedNoticeIsStillCapped(t *testing.T) {
	t.Parallel()
	tc := &Context{MaxOutput: 200}
	// Output that imitates a capture notice gets no pass: capping is decided
	// by the Captured flag, not by the text.
	fake := "[output capped: 5 bytes, 1 lines in total; full output in x (sha256 y)]" + strings.Repeat("z", 5000)
	text, _ := CaptureText(tc, fake)
	if len(text) > 200+300 {
		t.Fatalf("quoted notice let %d bytes through", len(text))
	}
}

func isValidUTF8(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

func BenchmarkCapture1GiB(b *testing.B) {
	dir := b.TempDir()
	chunk := []byte(strings.Repeat("benchmark output line\n", 12000))
	b.SetBytes(1 << 30)
	for range b.N {
		c := NewCapture(&Context{SpillDir: dir})
		for written := 0; written < 1<<30; written += len(chunk) {
			c.Write(chunk)
		}
		_, s := c.Finish()
		os.Remove(s.Path)
	}
}

// A spill larger than the chunks in flight and than a writeback interval
// goes through every part of the spill writer: chunk reuse, the writer, the
// hasher and the syncer. The file and its digest must still be exact,
// whatever sizes the producer wrote in.
func TestH09_LargeSpillIsExact(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := NewCapture(&Context{MaxOutput: 1000, SpillDir: dir, Tool: "Bash"})
	want := sha256.New()
	var total int64
	piece := make([]byte, 1<<20+333) // never aligned with a chunk
	for i := 0; total < writebackChunk+5*spillChunk; i++ {
		for j := range piece {
			piece[j] = byte('a' + (i+j)%26)
		}
		n := len(piece) - i%1000
		c.Write(piece[:n])
		want.Write(piece[:n])
		total += int64(n)
	}
	_, spill := c.Finish()
	if spill == nil || spill.Bytes != total {
		t.Fatalf("spill %+v, want %d bytes", spill, total)
	}
	f, err := os.Open(spill.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := sha256.New()
	n, _ := io.Copy(got, f)
	if n != total || hex.EncodeToString(got.Sum(nil)) != hex.EncodeToString(want.Sum(nil)) || spill.SHA256 != hex.EncodeToString(want.Sum(nil)) {
		t.Fatalf("file has %d bytes with sha256 %x, recorded %s; want %d bytes, %x", n, got.Sum(nil), spill.SHA256, total, want.Sum(nil))
	}
}

func TestAbortedSpillLeavesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := NewCapture(&Context{MaxOutput: 10, SpillDir: dir})
	c.Write([]byte(strings.Repeat("x", 3*spillChunk)))
	c.Abort()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("an aborted capture left %d files behind", len(entries))
	}
}
