package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A tool cache is read by the person's own builds outside any sandbox, so
// a command that could write into it could plant what they run. Inside,
// the command reads the person's cache and its writes stay in a layer of
// its own, kept for the session's next command.
func TestH16_ACommandCannotPlantInTheToolCaches(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cache := filepath.Join(f.home, "go-build")
	os.MkdirAll(filepath.Join(cache, "ab"), 0o755)
	os.WriteFile(filepath.Join(cache, "ab", "entry-d"), []byte("person-built\n"), 0o644)
	p := f.policy()
	p.Caches = []string{cache}
	layers := t.TempDir()
	s := newSandbox(t, p, Options{LayersDir: layers})

	out := mustPass(t, s, f.ws, `cat `+cache+`/ab/entry-d && echo planted > `+cache+`/ab/entry-x && echo changed > `+cache+`/ab/entry-d && rm -f `+cache+`/ab/entry-d.missing && cat `+cache+`/ab/entry-x`)
	if !strings.Contains(out, "person-built") || !strings.Contains(out, "planted") {
		t.Errorf("inside, the cache was not the person's or could not be written: %q", out)
	}
	if _, err := os.Stat(filepath.Join(cache, "ab", "entry-x")); err == nil {
		t.Error("a file written into the cache inside the sandbox is in the person's cache")
	}
	if b, _ := os.ReadFile(filepath.Join(cache, "ab", "entry-d")); string(b) != "person-built\n" {
		t.Errorf("the person's cache entry was changed: %q", b)
	}
	// The session's next command finds what the last one built.
	if out := mustPass(t, s, f.ws, `cat `+cache+`/ab/entry-x`); !strings.Contains(out, "planted") {
		t.Errorf("the next command lost the layer: %q", out)
	}
	// Two at once each get a layer.
	bg := exec.Command("bash", "-c", `echo one > `+cache+`/one; sleep 2; cat `+cache+`/one`)
	bg.Dir = f.ws
	var bgOut strings.Builder
	bg.Stdout, bg.Stderr = &bgOut, &bgOut
	bgProc, release, err := s.Start(bg)
	if err != nil {
		t.Fatal(err)
	}
	mustPass(t, s, f.ws, `echo two > `+cache+`/two`)
	if ws, err := bgProc.Wait(); err != nil || ws.ExitStatus() != 0 || !strings.Contains(bgOut.String(), "one") {
		t.Errorf("the command beside another: %v %v %q", ws, err, bgOut.String())
	}
	release()
	for _, name := range []string{"one", "two"} {
		if _, err := os.Stat(filepath.Join(cache, name)); err == nil {
			t.Errorf("%s reached the person's cache", name)
		}
	}
	if entries, _ := os.ReadDir(layers); len(entries) != 1 {
		t.Errorf("the layers are not in the one directory of this process: %v", entries)
	}
}
