package shell

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/seed92b641c3/workbench/tools"
)

// TestCaptureSpillNamesAreUniqueAcrossProcesses shows a defect of
// tools.Capture, reported to the owner of package tools rather than fixed
// here: a spill file is named <UTC second>-<per-process counter>-<tool>.txt
// and moved into place with os.Rename, which replaces an existing file. Two
// Workbench processes sharing a spill directory (--spill-dir) that spill in
// the same second get the same name, and the second rename silently
// replaces the first process's evidence (H8), whose transcript then points
// to a file with another sha256. It is skipped unless WB_CAPTURE_BUGS=1, so
// it does not break this package's tests before the fix (for example a
// random part in the name, or link(2) instead of rename so an existing
// name fails and another is tried).
func TestCaptureSpillNamesAreUniqueAcrossProcesses(t *testing.T) {
	if dir := os.Getenv("WB_SPILL_CHILD"); dir != "" {
		c := tools.NewCapture(&tools.Context{SpillDir: dir, MaxOutput: 10, Tool: "Bash"})
		fmt.Fprintf(c, "output of process %d, longer than the cap", os.Getpid())
		_, spill := c.Finish()
		fmt.Printf("SPILL %s %s\n", spill.Path, spill.SHA256)
		return
	}
	if os.Getenv("WB_CAPTURE_BUGS") != "1" {
		t.Skip("shows a known defect of tools.Capture; run with WB_CAPTURE_BUGS=1")
	}
	dir := t.TempDir()
	var wg sync.WaitGroup
	out := make([]string, 2)
	for i := range out {
		wg.Go(func() {
			c := exec.Command(os.Args[0], "-test.run=^TestCaptureSpillNamesAreUniqueAcrossProcesses$")
			c.Env = append(os.Environ(), "WB_SPILL_CHILD="+dir)
			b, err := c.CombinedOutput()
			if err != nil {
				t.Errorf("child: %v\n%s", err, b)
			}
			for _, l := range strings.Split(string(b), "\n") {
				if p, ok := strings.CutPrefix(l, "SPILL "); ok {
					out[i] = p
				}
			}
		})
	}
	wg.Wait()
	p0, _, _ := strings.Cut(out[0], " ")
	p1, _, _ := strings.Cut(out[1], " ")
	if p0 == p1 {
		entries, _ := os.ReadDir(dir)
		t.Errorf("two processes spilled to the same file %s; %d file(s) left, one record's sha256 no longer matches: %q", p0, len(entries), out)
	}
}
