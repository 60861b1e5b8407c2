package permission

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// corpusPolicy is the fixed policy of testdata/commands.txt (documented at
// the top of that file).
var corpusPolicy = rules{
	allow: []string{"Bash(git status:*)", "Bash(git diff:*)", "Bash(git log:*)", "Bash(git add:*)",
		"Bash(go test:*)", "Bash(go build:*)", "Bash(go vet:*)", "Bash(gofmt:*)", "Bash(make:*)",
		"Bash(ls:*)", "Bash(cat:*)", "Bash(head:*)", "Bash(tail:*)", "Bash(grep:*)", "Bash(echo:*)",
		"Bash(printf:*)", "Bash(wc:*)", "Bash(sort:*)", "Bash(find:*)", "Bash(sed:*)", "Bash(rm:*)",
		"Bash(mkdir:*)", "Bash(touch:*)", "Bash(cp:*)", "Bash(mv:*)", "Bash(tee:*)", "Bash(cd:*)",
		"Bash(npm test)", "Bash(npm run build)", "Bash(true)", "Bash(test:*)", "Bash([:*)", "Bash(diff:*)",
		"Bash(seq:*)", "Bash(jq:*)", "Bash(chmod:*)", "Bash(ln:*)", "Bash(install:*)", "Bash(dd:*)",
		"Bash(read:*)", "Bash(sh:*)", "Bash(bash:*)"},
	ask: []string{"Bash(git push:*)", "Bash(npm publish:*)"},
	deny: []string{"Bash(curl:*)", "Bash(wget:*)", "Bash(git push --force:*)", "Bash(sudo:*)", "Bash(nc:*)",
		"Edit(./secrets/**)", "Read(./.env)", "Read(~/.aws/**)"},
}

// corpusLine is one line of the corpus.
type corpusLine struct {
	line int
	want Behavior
	mode Mode
	cmd  string
}

func readCorpus(t testing.TB, path string) []corpusLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusLine
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		head, cmd, ok := strings.Cut(text, "\t")
		if !ok {
			t.Fatalf("%s:%d: no tab between the decision and the command", path, n)
		}
		c := corpusLine{line: n, mode: ModeDefault, cmd: cmd}
		decision, mode, _ := strings.Cut(head, " ")
		c.want = Behavior(decision)
		if c.want != Allow && c.want != Ask && c.want != Deny {
			t.Fatalf("%s:%d: decision %q is not allow, ask or deny", path, n, decision)
		}
		if mode != "" {
			m, ok := ParseMode(mode)
			if !ok {
				t.Fatalf("%s:%d: unknown mode %q", path, n, mode)
			}
			c.mode = m
		}
		if lit, ok := strings.CutPrefix(cmd, "go:"); ok {
			if c.cmd, err = strconv.Unquote(lit); err != nil {
				t.Fatalf("%s:%d: %v", path, n, err)
			}
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestH15_CommandCorpus evaluates every line of testdata/commands.txt under
// its fixed policy: the holes of every class stay closed and the benign
// lines stay quiet.
func TestH15_CommandCorpus(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	p := newPolicy(t, []string{project}, corpusPolicy)
	p.AddProtected(".workbench/settings.json")
	if err := os.WriteFile(filepath.Join(project, ".env"), []byte("TOKEN=x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	lines := readCorpus(t, filepath.Join("testdata", "commands.txt"))
	if len(lines) < 300 {
		t.Fatalf("the corpus has %d command lines, want at least 300", len(lines))
	}
	seen := map[Behavior]int{}
	for _, c := range lines {
		cmd := strings.ReplaceAll(c.cmd, "OUTSIDE", outside)
		req := bash(cmd)
		req.WorkDir, req.Mode = project, c.mode
		d := p.Evaluate(req)
		seen[d.Behavior]++
		if d.Behavior != c.want {
			t.Errorf("commands.txt:%d: %s in %s: got %s by %q (%s), want %s", c.line, c.cmd, c.mode, d.Behavior, d.Rule, d.Message, c.want)
		}
	}
	t.Logf("%d lines: %v", len(lines), seen)
}
