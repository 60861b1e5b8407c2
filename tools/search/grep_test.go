package search

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

// fixture is a tree that exercises every filter: ignore files of each kind,
// hidden entries, binary files, file types, context and multiline content.
var fixture = map[string]string{
	".git/HEAD":               "needle inside .git\n",
	".git/info/exclude":       "excluded_by_info.txt\n",
	".gitignore":              "*.log\n!keep.log\nbuild/\n/rootonly.txt\n",
	".ignore":                 "ignored_by_dotignore.md\n",
	".hiddendir/z.go":         "package z // needle\n",
	".env":                    "SECRET=needle\n",
	"excluded_by_info.txt":    "needle\n",
	"ignored_by_dotignore.md": "needle\n",
	"app.log":                 "needle log\n",
	"keep.log":                "needle kept\n",
	"build/gen.go":            "package build // needle\n",
	"rootonly.txt":            "needle at the root\n",
	"main.go":                 "package main\n\nfunc NewServer() {}\n\n// needle: the main one\nfunc main() { needle() }\n",
	"a.txt":                   "needle a\n",
	"a/b.txt":                 "needle b\n",
	"sub/rootonly.txt":        "needle below the root\n",
	"sub/.gitignore":          "*.tmp\n",
	"sub/a.tmp":               "needle tmp\n",
	"sub/x.go":                "package sub\n\nfunc NewClient(a int) {} // Needle\n",
	"sub/deep/y.go":           "package deep\n\nvar needle = 1\nvar NEEDLE = 2\n",
	"sub/.hidden.go":          "package sub // needle hidden\n",
	"web/app.ts":              "export const needle = 1;\n",
	"web/view.tsx":            "const v = <Needle />; // needle\n",
	"web/util.js":             "module.exports = { needle: true };\n",
	"docs/guide.md":           "# Guide\n\nFind the needle here.\n",
	"docs/notes.txt":          "no match in here\n",
	"script.py":               "def needle():\n    return 'needle'\n",
	"lib.rs":                  "fn needle() {}\n",
	"data.json":               "{\"needle\": 1}\n",
	"config.yaml":             "needle: yes\n",
	"run.sh":                  "echo needle\n",
	"bin.dat":                 "needle\x00binary\n",
	"late.txt":                "needle early\n" + strings.Repeat("a", 70000) + "\n\x00needle late\n",
	"crlf.txt":                "needle one\r\nline two\r\nNEEDLE three\r\n",
	"nonl.txt":                "last needle without a newline",
	"long.txt":                strings.Repeat("x", 1500) + " needle\n",
	"unicode.txt":             "Größe needle ñ\n",
	"ctx/lines.txt":           numbered(40, 3, 5, 12, 30, 40),
	"ctx/multi.txt":           "start block\nmiddle\nend block\nfunc Foo(\n\ta int,\n) {\n}\nfoo\nbar\nfoo\nbar\n",
	"ctx/empty.txt":           "",
	"ctx/dash.txt":            "offset -1\n",
	"-x.txt":                  "needle in a file named with a dash\n",
	"ctx/blank.txt":           "\n\n\n",
}

// numbered makes n lines "line K", with "needle" on the given lines.
func numbered(n int, needles ...int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString("line ")
		b.WriteString(strconv.Itoa(i))
		for _, k := range needles {
			if k == i {
				b.WriteString(" needle")
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// fixtureTree writes the fixture, with symbolic links that neither engine
// follows.
func fixtureTree(t testing.TB) string {
	t.Helper()
	root := writeTree(t, fixture)
	for link, target := range map[string]string{"link.go": "main.go", "linkdir": "sub"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func goEngine() string { return "" }

// call runs a tool the way the pipeline does: defaults and schema first.
func call(t testing.TB, tool tools.Tool, tc *tools.Context, input string) tools.Result {
	t.Helper()
	in, err := tool.Schema().Prepare(json.RawMessage(input))
	if err != nil {
		t.Fatalf("input %s rejected: %v", input, err)
	}
	res, err := tool.Call(context.Background(), in, tc)
	if err != nil {
		t.Fatalf("input %s: %v", input, err)
	}
	return res
}

var parityCases = []struct {
	name  string
	input string
}{
	{"files are listed sorted by path by default", `{"pattern":"needle"}`},
	{"content shows numbered lines", `{"pattern":"needle","output_mode":"content"}`},
	{"content can leave out line numbers", `{"pattern":"needle","output_mode":"content","-n":false}`},
	{"case is ignored with -i", `{"pattern":"NEEDLE","-i":true,"output_mode":"content"}`},
	{"case matters without -i", `{"pattern":"NEEDLE","output_mode":"content"}`},
	{"counts are per file", `{"pattern":"needle","output_mode":"count"}`},
	{"context before and after merges windows", `{"pattern":"needle","path":"ctx/lines.txt","output_mode":"content","-C":2}`},
	{"after context alone", `{"pattern":"needle","path":"ctx","output_mode":"content","-A":1}`},
	{"before context alone", `{"pattern":"needle","path":"ctx","output_mode":"content","-B":3}`},
	{"A and B override C", `{"pattern":"needle","path":"ctx","output_mode":"content","-C":5,"-A":0,"-B":1}`},
	{"context without line numbers", `{"pattern":"needle","path":"ctx","output_mode":"content","-C":1,"-n":false}`},
	{"context across files", `{"pattern":"needle","output_mode":"content","-C":1}`},
	{"a name glob filters files", `{"pattern":"needle","glob":"*.go"}`},
	{"a brace glob filters files", `{"pattern":"needle","glob":"*.{ts,tsx}","output_mode":"content"}`},
	{"a path glob is anchored at the working directory", `{"pattern":"needle","glob":"sub/**"}`},
	{"a negated glob excludes", `{"pattern":"needle","glob":"!*.go"}`},
	{"a glob includes hidden and ignored files it names", `{"pattern":"needle","glob":"*.log"}`},
	{"a glob can name hidden files", `{"pattern":"needle","glob":".*"}`},
	{"type go", `{"pattern":"needle","type":"go"}`},
	{"type ts", `{"pattern":"needle","type":"ts","output_mode":"content"}`},
	{"type md with count", `{"pattern":"needle","type":"md","output_mode":"count"}`},
	{"type and glob together", `{"pattern":"needle","type":"py","glob":"*.go"}`},
	{"the first page of files", `{"pattern":"needle","head_limit":3}`},
	{"the second page of files", `{"pattern":"needle","head_limit":3,"offset":3}`},
	{"an offset past the end", `{"pattern":"needle","offset":500}`},
	{"no head limit", `{"pattern":"needle","output_mode":"content","head_limit":0}`},
	{"a page of content lines with context", `{"pattern":"needle","path":"ctx","output_mode":"content","-C":1,"head_limit":5,"offset":2}`},
	{"a page of counts", `{"pattern":"needle","output_mode":"count","head_limit":2,"offset":1}`},
	{"no match", `{"pattern":"haystack-only"}`},
	{"a subdirectory", `{"pattern":"needle","path":"sub","output_mode":"content"}`},
	{"one file", `{"pattern":"[Nn]eedle","path":"sub/x.go","output_mode":"content"}`},
	{"one hidden file named directly", `{"pattern":"needle","path":"sub/.hidden.go"}`},
	{"a binary file named directly", `{"pattern":"needle","path":"bin.dat","output_mode":"count"}`},
	{"multiline content", `{"pattern":"start block\\nmiddle","multiline":true,"output_mode":"content"}`},
	{"multiline dot spans lines", `{"pattern":"Foo\\(.*?\\)","multiline":true,"output_mode":"content","-A":1}`},
	{"multiline counts matches", `{"pattern":"foo\\nbar","multiline":true,"output_mode":"count"}`},
	{"multiline without a newline counts lines", `{"pattern":"o","multiline":true,"output_mode":"count","path":"ctx"}`},
	{"word boundaries", `{"pattern":"\\bneedle\\b","output_mode":"count"}`},
	{"anchors at line start", `{"pattern":"^needle","output_mode":"content"}`},
	{"anchors at line end", `{"pattern":"needle$","output_mode":"content"}`},
	{"text anchors mean line anchors", `{"pattern":"\\Aline 1\\d\\z","path":"ctx","output_mode":"content"}`},
	{"a negated class does not cross lines", `{"pattern":"[^x]needle","output_mode":"count"}`},
	{"a pattern without a literal", `{"pattern":"[Nn]e+dle\\W","output_mode":"content"}`},
	{"a literal inside a regexp", `{"pattern":"func New[A-Z]\\w*\\(","output_mode":"content"}`},
	{"an alternation", `{"pattern":"needle a|needle b|Guide","output_mode":"content"}`},
	{"empty lines match an empty pattern", `{"pattern":"^$","path":"ctx","output_mode":"count"}`},
	{"long lines are cut", `{"pattern":"needle","path":"long.txt","output_mode":"content"}`},
	{"outside the working directory paths are absolute", `{"pattern":"needle","path":"../web"}`},
	{"an ignored directory named directly is searched", `{"pattern":"needle","path":"build","output_mode":"content"}`},
	{"a hidden directory named directly is searched", `{"pattern":"needle","path":".hiddendir"}`},
	{"ignore files above the searched directory apply", `{"pattern":"needle","path":"sub","output_mode":"count"}`},
	{"a pattern that starts with a dash", `{"pattern":"-[0-9]","output_mode":"content"}`},
	{"a glob that starts with a dash", `{"pattern":"needle","glob":"-x*"}`},
}

// TestEnginesAgree runs ripgrep and the Go walker on the same tree and
// requires the same output for every mode and option.
func TestEnginesAgree(t *testing.T) {
	t.Parallel()
	rg := findRipgrep()
	if rg == "" {
		t.Skip("rg is not installed; the parity test needs it")
	}
	root := fixtureTree(t)
	goTool, rgTool := newGrep(goEngine), newGrep(func() string { return rg })
	for _, tc := range parityCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wd := root
			if strings.Contains(tc.input, `"../`) {
				wd = filepath.Join(root, "sub")
			}
			ctx := &tools.Context{WorkDir: wd}
			want := call(t, rgTool, ctx, tc.input)
			got := call(t, goTool, ctx, tc.input)
			if got.Text != want.Text || got.IsError != want.IsError {
				t.Errorf("engines differ for %s\n--- ripgrep ---\n%s\n--- go ---\n%s", tc.input, want.Text, got.Text)
			}
			var pg page
			if want.Meta == nil {
				return // decided before any engine ran (a binary file named directly)
			}
			if err := json.Unmarshal(want.Meta, &pg); err != nil || pg.Engine != "ripgrep" {
				t.Errorf("the ripgrep half did not run ripgrep: %s", want.Meta)
			}
		})
	}
}

// TestGoEngine pins the Go walker's output on the fixture, so the parity
// test cannot pass by both engines being wrong the same way, and so these
// behaviours hold where rg is not installed.
func TestGoEngine(t *testing.T) {
	t.Parallel()
	root := fixtureTree(t)
	tool := newGrep(goEngine)
	cases := []struct {
		name, input, want string
	}{
		{"files skip .git, hidden, ignored and binary files", `{"pattern":"needle"}`,
			"-x.txt\na/b.txt\na.txt\nconfig.yaml\ncrlf.txt\nctx/lines.txt\ndata.json\ndocs/guide.md\nkeep.log\nlib.rs\nlong.txt\nmain.go\nnonl.txt\nrun.sh\nscript.py\nsub/deep/y.go\nsub/rootonly.txt\nunicode.txt\nweb/app.ts\nweb/util.js\nweb/view.tsx"},
		{"context groups are separated", `{"pattern":"needle","path":"ctx/lines.txt","output_mode":"content","-C":1}`,
			"ctx/lines.txt-2-line 2\nctx/lines.txt:3:line 3 needle\nctx/lines.txt-4-line 4\nctx/lines.txt:5:line 5 needle\nctx/lines.txt-6-line 6\n--\nctx/lines.txt-11-line 11\nctx/lines.txt:12:line 12 needle\nctx/lines.txt-13-line 13\n--\nctx/lines.txt-29-line 29\nctx/lines.txt:30:line 30 needle\nctx/lines.txt-31-line 31\n--\nctx/lines.txt-39-line 39\nctx/lines.txt:40:line 40 needle"},
		{"counts are per file", `{"pattern":"needle","path":"sub","output_mode":"count"}`,
			"sub/deep/y.go:1\nsub/rootonly.txt:1"},
		{"a page ends with where to continue", `{"pattern":"needle","path":"ctx","output_mode":"content","head_limit":2,"offset":1}`,
			"ctx/lines.txt:5:line 5 needle\nctx/lines.txt:12:line 12 needle\n\n[2 more lines not shown; continue with offset=3]"},
		{"carriage returns are dropped", `{"pattern":"(?i)needle","path":"crlf.txt","output_mode":"content"}`,
			"crlf.txt:1:needle one\ncrlf.txt:3:NEEDLE three"},
		{"multiline marks every spanned line", `{"pattern":"start.*middle","multiline":true,"output_mode":"content"}`,
			"ctx/multi.txt:1:start block\nctx/multi.txt:2:middle"},
		{"a type selects file names", `{"pattern":"needle","type":"ts"}`, "web/app.ts\nweb/view.tsx"},
		{"no match says so", `{"pattern":"haystack-only"}`, "No matches found"},
		{"an offset past the end says how many there are", `{"pattern":"needle","path":"sub","offset":9}`,
			"No results at offset=9: there are 2 files in total."},
		{"a binary file named directly is skipped", `{"pattern":"needle","path":"bin.dat"}`,
			"No matches found (bin.dat is a binary file)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := call(t, tool, &tools.Context{WorkDir: root}, c.input)
			if res.Text != c.want {
				t.Errorf("%s\ngot:\n%s\nwant:\n%s", c.input, res.Text, c.want)
			}
		})
	}
}

func TestInputErrors(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"a.txt": "x\n"})
	tool := newGrep(goEngine)
	cases := []struct {
		name, input, want string
	}{
		{"an invalid regexp is explained", `{"pattern":"func("}`, "invalid pattern"},
		{"a line break needs multiline", `{"pattern":"a\\nb"}`, "set multiline to true"},
		{"a missing path is named", `{"pattern":"x","path":"nope"}`, "path nope: no such file or directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := call(t, tool, &tools.Context{WorkDir: root}, c.input)
			if !res.IsError || !strings.Contains(res.Text, c.want) {
				t.Errorf("%s: got %q (error %v), want an error containing %q", c.input, res.Text, res.IsError, c.want)
			}
		})
	}
}

func TestSchemaRejectsBadInput(t *testing.T) {
	t.Parallel()
	schema := Grep().Schema()
	cases := []struct {
		name, input, want string
	}{
		{"an unknown output mode names output_mode", `{"pattern":"x","output_mode":"lines"}`, "output_mode"},
		{"a negative context names -C", `{"pattern":"x","-C":-1}`, "-C"},
		{"a negative head_limit names it", `{"pattern":"x","head_limit":-5}`, "head_limit"},
		{"an unknown type names type", `{"pattern":"x","type":"cobol"}`, "type"},
		{"an unknown property is refused", `{"pattern":"x","regex":"y"}`, "regex"},
		{"the pattern is required", `{"path":"."}`, "pattern"},
		{"an empty pattern is refused", `{"pattern":""}`, "pattern"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := schema.Prepare(json.RawMessage(c.input))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: got %v, want an error naming %q", c.input, err, c.want)
			}
		})
	}
}

func TestSchemaFillsDefaults(t *testing.T) {
	t.Parallel()
	in, err := Grep().Schema().Prepare(json.RawMessage(`{"pattern":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(in, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"output_mode": "files_with_matches", "-n": true, "head_limit": 250.0, "offset": 0.0, "-i": false, "multiline": false}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("default %s = %v, want %v", k, got[k], v)
		}
	}
}

func TestMetadata(t *testing.T) {
	t.Parallel()
	tool := Grep()
	tc := &tools.Context{WorkDir: "/work/project"}
	in := json.RawMessage(`{"pattern":"x","path":"src"}`)
	if !tool.ReadOnly(in) || !tool.ConcurrencySafe(in) {
		t.Error("Grep must be read-only and concurrency-safe")
	}
	if d := tool.CheckPermission(context.Background(), in, tc); d.Behavior != permission.Allow {
		t.Errorf("Grep asks for itself: %+v", d)
	}
	got := tool.Target(in, tc)
	if len(got.Paths) != 1 || got.Paths[0] != "src" || got.Access != permission.AccessRead {
		t.Errorf("target %+v, want the path src read", got)
	}
	got = tool.Target(json.RawMessage(`{"pattern":"x"}`), tc)
	if len(got.Paths) != 1 || got.Paths[0] != "/work/project" {
		t.Errorf("target without a path %+v, want the working directory", got)
	}
}

func TestLargeResultsAreCaptured(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 50 {
		files["f"+strconv.Itoa(i)+".txt"] = strings.Repeat("needle "+strings.Repeat("z", 200)+"\n", 20)
	}
	root := writeTree(t, files)
	spill := t.TempDir()
	res := call(t, newGrep(goEngine), &tools.Context{WorkDir: root, MaxOutput: 4000, SpillDir: spill},
		`{"pattern":"needle","output_mode":"content","head_limit":0}`)
	if !res.Captured || res.Spill == nil {
		t.Fatalf("a large result was not captured and spilled: captured=%v spill=%v", res.Captured, res.Spill)
	}
	if len(res.Text) > 4000+1000 {
		t.Errorf("captured text is %d bytes, over the cap", len(res.Text))
	}
	data, err := os.ReadFile(res.Spill.Path)
	if err != nil || strings.Count(string(data), "\n") != 50*20-1 {
		t.Errorf("spill file does not hold every line: %v", err)
	}
}

func TestCancellation(t *testing.T) {
	t.Parallel()
	root := fixtureTree(t)
	t.Run("the Go walker stops when the context is done", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		tool := newGrep(goEngine)
		_, err := tool.Call(ctx, json.RawMessage(`{"pattern":"needle"}`), &tools.Context{WorkDir: root})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("got %v, want context.Canceled", err)
		}
	})
	t.Run("a running ripgrep is killed", func(t *testing.T) {
		t.Parallel()
		// A stand-in for rg that never finishes on its own.
		fake := filepath.Join(t.TempDir(), "rg")
		if err := os.WriteFile(fake, []byte("#!/bin/sh\nexec sleep 60\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := exec.LookPath("sleep"); err != nil {
			t.Skip("no sleep command")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		tool := newGrep(func() string { return fake })
		start := time.Now()
		_, err := tool.Call(ctx, json.RawMessage(`{"pattern":"needle"}`), &tools.Context{WorkDir: root})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("got %v, want context.DeadlineExceeded", err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("cancellation took %v", d)
		}
	})
}

func TestFallsBackWhenRipgrepCannotStart(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"a.txt": "needle\n"})
	tool := newGrep(func() string { return filepath.Join(root, "no-such-rg") })
	res := call(t, tool, &tools.Context{WorkDir: root}, `{"pattern":"needle"}`)
	if res.IsError || res.Text != "a.txt" {
		t.Errorf("got %q (error %v), want the Go engine's answer", res.Text, res.IsError)
	}
}

func TestFallsBackWhenRipgrepRefusesThePattern(t *testing.T) {
	t.Parallel()
	rg := findRipgrep()
	if rg == "" {
		t.Skip("rg is not installed")
	}
	root := writeTree(t, map[string]string{"a.txt": "x needle( y\n"})
	// \Q...\E quotes text in RE2; ripgrep's regex syntax has no such thing.
	res := call(t, newGrep(func() string { return rg }), &tools.Context{WorkDir: root},
		`{"pattern":"\\Qneedle(\\E","output_mode":"content"}`)
	var pg page
	if err := json.Unmarshal(res.Meta, &pg); err != nil {
		t.Fatal(err)
	}
	if res.Text != "a.txt:1:x needle( y" || pg.Engine != "go" || !strings.Contains(pg.Fallback, "ripgrep") {
		t.Errorf("got %q from %s (fallback %q), want the Go engine's answer", res.Text, pg.Engine, pg.Fallback)
	}
}

func TestSearchStopsAtItsMemoryBound(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 40 {
		files["f"+strconv.Itoa(i)+".txt"] = strings.Repeat("needle "+strings.Repeat("z", 200)+"\n", 25)
	}
	root := writeTree(t, files)
	engines := map[string]func() string{"go": goEngine}
	if rg := findRipgrep(); rg != "" {
		engines["ripgrep"] = func() string { return rg }
	}
	for name, engine := range engines {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tool := newGrepLimited(engine, 16<<10)
			res := call(t, tool, &tools.Context{WorkDir: root, MaxOutput: 1 << 20},
				`{"pattern":"needle","output_mode":"content","head_limit":0}`)
			var pg page
			if err := json.Unmarshal(res.Meta, &pg); err != nil {
				t.Fatal(err)
			}
			if !pg.Partial || !strings.Contains(res.Text, "The search stopped") {
				t.Fatalf("a search over its bound was not marked partial: %+v", pg)
			}
			if pg.Total == 0 || pg.Total >= 40*25 {
				t.Errorf("kept %d lines, want some but fewer than all %d", pg.Total, 40*25)
			}
		})
	}
}
