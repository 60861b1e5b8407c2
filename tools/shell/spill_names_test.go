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

// TestH08_SpillNamesAreUniqueAcrossProcesses runs several processes that
// share one spill directory (--spill-dir) and spill in the same second: each
// must keep its own file, so no transcript's sha256 ends up pointing at
// another process's output.
func TestH08_SpillNamesAreUniqueAcrossProcesses(t *testing.T) {
	if dir := os.Getenv("WB_SPILL_CHILD"); dir != "" {
		c := tools.NewCapture(&tools.Context{SpillDir: dir, MaxOutput: 10, Tool: "Bash"})
		fmt.Fprintf(c, "output of process %d, longer than the cap", os.Getpid())
		_, spill := c.Finish()
		fmt.Printf("SPILL %s %s\n", spill.Path, spill.SHA256)
		return
	}
	dir := t.TempDir()
	var wg sync.WaitGroup
	out := make([]string, 2)
	for i := range out {
		wg.Go(func() {
			c := exec.Command(os.Args[0], "-test.run=^TestH08_SpillNamesAreUniqueAcrossProcesses$")
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
	if p0 == "" || p1 == "" {
		t.Fatalf("a child did not report its spill: %q", out)
	}
	if p0 == p1 {
		entries, _ := os.ReadDir(dir)
		t.Errorf("two processes spilled to the same file %s; %d file(s) left, one record's sha256 no longer matches: %q", p0, len(entries), out)
	}
}
