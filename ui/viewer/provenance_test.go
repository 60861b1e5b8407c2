package viewer

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/tools"
)

// spillOf records a file as the tool layer does.
func spillOf(t testing.TB, path string) *tools.Spill {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return &tools.Spill{
		Path: path, Bytes: int64(len(data)), Lines: int64(strings.Count(string(data), "\n") + 1),
		SHA256: hex.EncodeToString(sum[:]), SessionID: "s1", CallID: "toolu_7", Tool: "Bash",
		Time: time.Date(2025, 6, 1, 12, 30, 0, 0, time.UTC),
	}
}

const mismatch = "sha256 DOES NOT MATCH the record (file changed since it was written)"

// TestH08_SpillThatStillMatchesSaysSo checks the header of an untouched
// spill file: checking, then a match, with the tool, call and time.
func TestH08_SpillThatStillMatchesSaysSo(t *testing.T) {
	t.Parallel()
	p := writeFile(t, strings.Repeat(numbered(5000), 60)) // ~2.8 MiB: several chunks
	v := open(t, p, Options{Spill: spillOf(t, p)})
	v.budget = 0
	if h := headerOf(t, v, 120, th); !strings.Contains(h, "checking sha256… 0%") {
		t.Errorf("before any step: %q", h)
	}
	v.Step(0)
	v.Step(0)
	if h := headerOf(t, v, 120, th); !strings.Contains(h, "checking sha256…") {
		t.Errorf("part way: %q", h)
	}
	settle(t, v)
	h := headerOf(t, v, 120, th)
	for _, want := range []string{"sha256 matches", "Bash", "call toolu_7", "2025-06-01 12:30:00", "recorded 2.8 MiB"} {
		if !strings.Contains(h, want) {
			t.Errorf("header %q lacks %q", h, want)
		}
	}
	if strings.Contains(h, "NOT") {
		t.Errorf("header %q", h)
	}
}

// TestH08_ChangedSpillDoesNotMatch modifies a spill file in place (same
// size: found by hashing) and by appending (other size: found at once).
func TestH08_ChangedSpillDoesNotMatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(string) string
		hashes bool
	}{
		{"one byte changed in place", func(s string) string { return strings.Replace(s, "line 77", "line 78", 1) }, true},
		{"a line appended", func(s string) string { return s + "extra\n" }, false},
		{"cut short", func(s string) string { return s[:len(s)/2] }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			content := numbered(3000)
			p := writeFile(t, content)
			rec := spillOf(t, p)
			if err := os.WriteFile(p, []byte(tt.change(content)), 0o600); err != nil {
				t.Fatal(err)
			}
			v := open(t, p, Options{Spill: rec})
			if checking := v.prov.state == hashChecking; checking != tt.hashes {
				t.Errorf("checking by hash: %v, want %v", checking, tt.hashes)
			}
			settle(t, v)
			out := screen(t, v, 120, th)
			if h := headerOf(t, v, 120, th); !strings.Contains(h, mismatch) {
				t.Errorf("header %q", h)
			}
			if !strings.Contains(out, theme.Err.Render(mismatch)) {
				t.Errorf("the mismatch is not shown in red:\n%q", out)
			}
		})
	}
}

// TestH08_RefreshChecksAgainAfterAChange catches a spill file modified
// while it is open.
func TestH08_RefreshChecksAgainAfterAChange(t *testing.T) {
	t.Parallel()
	content := numbered(3000)
	p := writeFile(t, content)
	v := open(t, p, Options{Spill: spillOf(t, p)})
	settle(t, v)
	if v.prov.state != hashMatch {
		t.Fatalf("state %v before the change", v.prov.state)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(content, "line 1\n", "LINE 1\n", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	// Make sure the modification time moves even on a coarse clock.
	future := time.Now().Add(time.Minute)
	if err := os.Chtimes(p, future, future); err != nil {
		t.Fatal(err)
	}
	v.Refresh()
	settle(t, v)
	if h := headerOf(t, v, 120, th); !strings.Contains(h, mismatch) {
		t.Errorf("header %q", h)
	}
}

// TestH08_RecordFoundInTheTranscript opens a file with /open: its record
// is looked up among the session's spill entries, past entries too long to
// be one and through a symbolic link to its directory.
func TestH08_RecordFoundInTheTranscript(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "20250601T123000-1-Bash.txt")
	if err := os.WriteFile(p, []byte(numbered(100)), 0o600); err != nil {
		t.Fatal(err)
	}
	rec := spillOf(t, p)
	other := *rec
	other.Path, other.CallID = filepath.Join(dir, "other.txt"), "toolu_other"
	tpath := filepath.Join(t.TempDir(), "transcript.jsonl")
	tr, err := agent.OpenTranscript(tpath)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(tr.Append(agent.EntrySession, map[string]string{"id": "s1"}))
	must(tr.Append(agent.EntryMessage, map[string]string{"text": strings.Repeat("x", 200<<10) + `"type":"spill"`}))
	must(tr.Append(agent.EntrySpill, other))
	must(tr.Append(agent.EntrySpill, rec))
	must(tr.Close())
	link := filepath.Join(t.TempDir(), "link")
	must(os.Symlink(dir, link))

	for _, path := range []string{p, filepath.Join(link, filepath.Base(p))} {
		v := open(t, path, Options{TranscriptPath: tpath})
		settle(t, v)
		h := headerOf(t, v, 140, th)
		if !strings.Contains(h, "sha256 matches") || !strings.Contains(h, "call toolu_7") {
			t.Errorf("opened as %s: header %q", path, h)
		}
	}
}

// TestNoRecordInThisSession opens files the session did not write.
func TestNoRecordInThisSession(t *testing.T) {
	t.Parallel()
	tpath := filepath.Join(t.TempDir(), "transcript.jsonl")
	if err := os.WriteFile(tpath, []byte(`{"seq":1,"type":"session","time":"2025-06-01T12:00:00Z","data":{}}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"no transcript", Options{}, "no record in this session"},
		{"not in the transcript", Options{TranscriptPath: tpath}, "no record in this session"},
		{"an unreadable transcript", Options{TranscriptPath: "/nonexistent/t.jsonl"}, "no record in this session (the transcript could not be read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := open(t, writeFile(t, "x\n"), tt.opts)
			settle(t, v)
			if h := headerOf(t, v, 140, th); !strings.HasPrefix(h, tt.want) {
				t.Errorf("header %q, want %q", h, tt.want)
			}
		})
	}
}
