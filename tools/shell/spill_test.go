package shell

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/tools"
)

// noticeRoom is more than the capture notice takes (sizes, a path, a
// sha256) plus the exit-code note.
const noticeRoom = 1024

const hugeCommand = `yes line | head -c 200000000`

func TestH09_HugeOutputStreamsToDisk(t *testing.T) {
	t.Parallel()
	spillDir := t.TempDir()
	tc := &tools.Context{WorkDir: t.TempDir(), SpillDir: spillDir, Tool: "Bash", CallID: "c1"}
	var recorded []tools.Spill
	tc.OnSpill = func(s tools.Spill) { recorded = append(recorded, s) }

	res := run(t, t.Context(), tc, cmd(hugeCommand, 0))

	if res.IsError || len(res.Text) > tc.Cap()+noticeRoom {
		t.Fatalf("text is %d bytes (error %v), want at most cap %d + notice", len(res.Text), res.IsError, tc.Cap())
	}
	if !strings.HasPrefix(res.Text, "line\nline\n") || !strings.HasSuffix(res.Text, "line\nline\n") {
		t.Errorf("text lacks the head or the tail of the output")
	}
	if res.Spill == nil || len(recorded) != 1 || recorded[0].Path != res.Spill.Path {
		t.Fatalf("spill %+v, recorded %+v: want one spill, reported through OnSpill", res.Spill, recorded)
	}
	if !strings.Contains(res.Text, res.Spill.SHA256) {
		t.Error("the notice does not give the spill's sha256")
	}
	f, err := os.Open(res.Spill.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	if fi.Size() != 200000000 || res.Spill.Bytes != 200000000 {
		t.Errorf("spill file has %d bytes, record says %d; want 200000000", fi.Size(), res.Spill.Bytes)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("spill file mode %v, want 0600", fi.Mode().Perm())
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != res.Spill.SHA256 {
		t.Errorf("spill file sha256 %s, record says %s", sum, res.Spill.SHA256)
	}
	if m := meta(t, res); m.Bytes != 200000000 || m.ExitCode != 0 {
		t.Errorf("meta %+v, want 200000000 bytes and exit code 0", m)
	}
	noTempFiles(t, spillDir)
}

func TestH09_HugeOutputWithoutSpillDirKeepsHeadAndTail(t *testing.T) {
	t.Parallel()
	tc := &tools.Context{MaxOutput: 4000}
	res := run(t, t.Context(), tc, cmd(`seq 1 3000000; echo the end`, 0))
	if len(res.Text) > tc.Cap()+noticeRoom {
		t.Errorf("text is %d bytes, want at most %d + notice", len(res.Text), tc.Cap())
	}
	if !strings.HasPrefix(res.Text, "1\n2\n3\n") || !strings.HasSuffix(res.Text, "2999999\n3000000\nthe end\n") {
		t.Errorf("text lacks the head or the tail:\n%s", res.Text)
	}
	if !strings.Contains(res.Text, "omitted from the middle") || res.Spill != nil {
		t.Errorf("want an omission notice and no spill, got spill %v", res.Spill)
	}
}

func TestH08_SpillIsAtomic(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, command string
		timeoutMS     int
	}{
		{"a finished command leaves only its spill file", `seq 1 100000`, 0},
		{"a failed command leaves only its spill file", `seq 1 100000; exit 2`, 0},
		{"a timed-out command leaves only its spill file", `seq 1 100000; sleep 100`, 500},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			spillDir := t.TempDir()
			res := run(t, t.Context(), &tools.Context{SpillDir: spillDir}, cmd(c.command, c.timeoutMS))
			entries := noTempFiles(t, spillDir)
			if res.Spill == nil || len(entries) != 1 {
				t.Fatalf("spill %v, dir holds %d entries; want exactly the spill file", res.Spill, len(entries))
			}
			fi, err := os.Stat(res.Spill.Path)
			if err != nil || fi.Size() != res.Spill.Bytes || fi.Mode().Perm() != 0o600 {
				t.Errorf("spill file %v (err %v), want %d bytes, mode 0600", fi, err, res.Spill.Bytes)
			}
		})
	}
}
