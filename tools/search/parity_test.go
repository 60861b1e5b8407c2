package search

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/tools"
)

// TestEnginesAgreeOnARealTree compares the engines on a large tree of your
// choice, e.g. GREP_PARITY_DIR=$(go env GOROOT)/src. It is slow, so it
// runs only when asked.
func TestEnginesAgreeOnARealTree(t *testing.T) {
	dir := os.Getenv("GREP_PARITY_DIR")
	if dir == "" {
		t.Skip("set GREP_PARITY_DIR to a directory to compare the engines on it")
	}
	if findRipgrep() == "" {
		t.Skip("rg is not installed")
	}
	inputs := []map[string]any{
		{"pattern": `func New[A-Z]\w*\(`, "output_mode": "content", "head_limit": 0},
		{"pattern": `TODO|FIXME`, "output_mode": "count", "head_limit": 0},
		{"pattern": `(?i)deprecated`, "head_limit": 0},
		{"pattern": `^\s*//\s*Deprecated`, "output_mode": "content", "-C": 2, "head_limit": 0},
		{"pattern": `errors\.New\("`, "output_mode": "content", "-B": 1, "head_limit": 0, "type": "go"},
		{"pattern": `\}\n\nfunc`, "multiline": true, "output_mode": "count", "head_limit": 0},
		{"pattern": `package \w+`, "glob": "*_test.go", "head_limit": 0},
		{"pattern": `[a-z]+_[a-z]+\(`, "-i": true, "output_mode": "count", "head_limit": 0},
		{"pattern": `http`, "type": "md", "output_mode": "content", "head_limit": 0},
	}
	tc := &tools.Context{WorkDir: dir, MaxOutput: 1 << 30}
	for _, in := range inputs {
		raw, _ := json.Marshal(in)
		t0 := time.Now()
		g := call(t, newGrep(goEngine), tc, string(raw))
		t1 := time.Now()
		r := call(t, newGrep(findRipgrep), tc, string(raw))
		t2 := time.Now()
		var pg page
		if err := json.Unmarshal(r.Meta, &pg); err != nil {
			t.Fatal(err)
		}
		if g.Text != r.Text {
			t.Errorf("engines differ on %s (%d entries from ripgrep)", raw, pg.Total)
			continue
		}
		t.Logf("same on %s: %d entries in %d files; go %v, ripgrep %v", raw, pg.Total, pg.Files,
			t1.Sub(t0).Round(time.Millisecond), t2.Sub(t1).Round(time.Millisecond))
	}
}
