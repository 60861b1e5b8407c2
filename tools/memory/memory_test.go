package memory_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/memory"
)

// newStore gives a test its own project and user memory directories.
func newStore(t *testing.T) *memory.Store {
	t.Helper()
	root := t.TempDir()
	return &memory.Store{ProjectDir: filepath.Join(root, "project"), UserDir: filepath.Join(root, "user")}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func save(t *testing.T, s *memory.Store, m memory.Memory) string {
	t.Helper()
	p, err := s.Save(m)
	if err != nil {
		t.Fatalf("Save(%q): %v", m.Name, err)
	}
	return p
}

func list(t *testing.T, s *memory.Store) []memory.Memory {
	t.Helper()
	mems, errs := s.List()
	if len(errs) != 0 {
		t.Fatalf("List errors: %v", errs)
	}
	return mems
}

func TestSaveThenListRoundTrips(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	in := memory.Memory{Name: "Release checklist", Description: "How we ship: tag: then push", Type: memory.TypeProject,
		Body: "# Steps\n\n1. Tag the commit.\n2. Push the tag.\n"}
	path := save(t, s, in)
	if want := filepath.Join(s.ProjectDir, "release-checklist.md"); path != want {
		t.Errorf("saved to %s, want %s", path, want)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", info.Mode().Perm())
	}
	mems := list(t, s)
	if len(mems) != 1 {
		t.Fatalf("listed %d memories, want 1", len(mems))
	}
	got := mems[0]
	if got.Name != in.Name || got.Description != in.Description || got.Type != in.Type ||
		got.Body != strings.TrimSpace(in.Body) || got.Path != path || got.Scope != memory.ScopeProject || got.Modified.IsZero() {
		t.Errorf("round trip changed the memory:\n got %+v\nwant %+v", got, in)
	}
	entries, _ := os.ReadDir(s.ProjectDir)
	if len(entries) != 1 {
		t.Errorf("want only the memory file in the directory, got %d entries (temporary file left?)", len(entries))
	}
}

func TestSaveUnderTheSameNameUpdates(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	first := save(t, s, memory.Memory{Name: "Test database", Body: "Uses sqlite."})
	second := save(t, s, memory.Memory{Name: "test  DATABASE", Body: "Uses postgres now."})
	if first != second {
		t.Errorf("the update went to %s, want %s", second, first)
	}
	mems := list(t, s)
	if len(mems) != 1 || mems[0].Body != "Uses postgres now." {
		t.Errorf("want one updated memory, got %+v", mems)
	}
}

func TestSaveKeepsNamesWithTheSameSlugApart(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	a := save(t, s, memory.Memory{Name: "Go tests", Body: "a"})
	b := save(t, s, memory.Memory{Name: "go-tests", Body: "b"})
	if a == b {
		t.Fatalf("two different names were saved to one file %s", a)
	}
	if len(list(t, s)) != 2 {
		t.Errorf("want two memories")
	}
}

func TestSaveChoosesTheDirectoryByTypeAndScope(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		typ       string
		scope     string
		wantScope string
	}{
		{"a user memory goes to the user directory", memory.TypeUser, "", memory.ScopeUser},
		{"feedback goes to the user directory", memory.TypeFeedback, "", memory.ScopeUser},
		{"a project memory stays in the project", memory.TypeProject, "", memory.ScopeProject},
		{"a reference stays in the project", memory.TypeReference, "", memory.ScopeProject},
		{"no type means project", "", "", memory.ScopeProject},
		{"an explicit scope overrides the type", memory.TypeFeedback, memory.ScopeProject, memory.ScopeProject},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newStore(t)
			path := save(t, s, memory.Memory{Name: "n", Type: c.typ, Scope: c.scope, Body: "b"})
			dir := map[string]string{memory.ScopeProject: s.ProjectDir, memory.ScopeUser: s.UserDir}[c.wantScope]
			if filepath.Dir(path) != dir {
				t.Errorf("saved in %s, want %s", filepath.Dir(path), dir)
			}
		})
	}
}

func TestSaveRefusesBadInput(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		m    memory.Memory
		want string
	}{
		{"a blank name", memory.Memory{Name: "  ", Body: "b"}, "needs a name"},
		{"an unknown type", memory.Memory{Name: "n", Type: "note"}, `type "note"`},
		{"an unknown scope", memory.Memory{Name: "n", Scope: "global"}, `scope "global"`},
		{"a user scope without a user directory", memory.Memory{Name: "n", Scope: memory.ScopeUser}, "no user memory directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newStore(t)
			s.UserDir = ""
			if _, err := s.Save(c.m); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestAPersonsHandEditedFilesAreRead(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	writeFile(t, filepath.Join(s.ProjectDir, "my-notes.md"),
		"---\r\nname: Deploy notes\r\ndescription: how to deploy\r\ntags: [ops]\r\n---\r\nRun make deploy.\r\n")
	writeFile(t, filepath.Join(s.UserDir, "editor.md"), "I use vim keybindings.\n")
	mems := list(t, s)
	if len(mems) != 2 {
		t.Fatalf("want 2 memories, got %+v", mems)
	}
	deploy, editor := mems[0], mems[1]
	if deploy.Name != "Deploy notes" || deploy.Type != memory.TypeProject || deploy.Body != "Run make deploy." {
		t.Errorf("front matter with CRLF and extra keys misread: %+v", deploy)
	}
	if editor.Name != "editor" || editor.Type != memory.TypeUser || editor.Scope != memory.ScopeUser || editor.Body != "I use vim keybindings." {
		t.Errorf("a plain note must be a memory named after its file: %+v", editor)
	}
	// Saving under the person's name updates their file rather than adding one.
	if p := save(t, s, memory.Memory{Name: "deploy notes", Body: "Run make release."}); p != deploy.Path {
		t.Errorf("update went to %s, want the person's file %s", p, deploy.Path)
	}
}

func TestBadFilesAreReportedAndTheRestListed(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	bad := filepath.Join(s.ProjectDir, "bad.md")
	writeFile(t, bad, "---\nname: ok\ndescription: a: b\n---\nbody\n")
	writeFile(t, filepath.Join(s.ProjectDir, "weird-type.md"), "---\ntype: diary\n---\nbody\n")
	writeFile(t, filepath.Join(s.ProjectDir, "good.md"), "---\nname: good\n---\nbody\n")
	writeFile(t, filepath.Join(s.ProjectDir, "ignored.txt"), "not markdown")
	if err := os.Symlink("/etc/hostname", filepath.Join(s.ProjectDir, "link.md")); err != nil {
		t.Fatal(err)
	}
	mems, errs := s.List()
	if len(mems) != 1 || mems[0].Name != "good" {
		t.Errorf("want only the good memory listed, got %+v", mems)
	}
	if len(errs) != 2 {
		t.Fatalf("want two errors, got %v", errs)
	}
	if e := errs[0].Error(); !strings.Contains(e, bad) || !strings.Contains(e, "line 3") {
		t.Errorf("error %q must name the file and line 3", e)
	}
	if e := errs[1].Error(); !strings.Contains(e, `type "diary"`) {
		t.Errorf("error %q must name the bad type", e)
	}
}

func TestDefaultStoreUsesXDGConfigHome(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	s := memory.DefaultStore("/proj")
	if s.ProjectDir != "/proj/.workbench/memory" || s.UserDir != filepath.Join(cfg, "workbench", "memory") {
		t.Errorf("got %+v", s)
	}
	t.Setenv("XDG_CONFIG_HOME", "relative/path")
	home, _ := os.UserHomeDir()
	if s := memory.DefaultStore("/proj"); s.UserDir != filepath.Join(home, ".config", "workbench", "memory") {
		t.Errorf("a relative XDG_CONFIG_HOME must be ignored, got %s", s.UserDir)
	}
}

// touch sets a file's modification time, for recency ties.
func touch(t *testing.T, path string, age time.Duration) {
	t.Helper()
	when := time.Now().Add(-age)
	if err := os.Chtimes(path, when, when); err != nil {
		t.Fatal(err)
	}
}

func names(mems []memory.Memory) string {
	var out []string
	for _, m := range mems {
		out = append(out, m.Name)
	}
	return strings.Join(out, ",")
}

func TestRecallRanksByKeyword(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	touch(t, save(t, s, memory.Memory{Name: "body-only", Description: "misc notes", Body: "We once discussed the linter here."}), 0)
	touch(t, save(t, s, memory.Memory{Name: "Linter setup", Body: "Nothing else."}), time.Hour)
	touch(t, save(t, s, memory.Memory{Name: "described", Description: "about the linter", Body: "x"}), time.Hour)
	touch(t, save(t, s, memory.Memory{Name: "Testing policy", Body: "Run tests with -race."}), time.Hour)
	touch(t, save(t, s, memory.Memory{Name: "old-ci", Description: "ci pipeline", Body: "x"}), 2*time.Hour)
	touch(t, save(t, s, memory.Memory{Name: "new-ci", Description: "ci pipeline", Body: "x"}), time.Minute)
	touch(t, save(t, s, memory.Memory{Name: "Configuration", Body: "x"}), time.Hour)
	cases := []struct {
		name  string
		query string
		limit int
		want  string
	}{
		{"a name match beats a description match, which beats a body match", "linter", 0, "Linter setup,described,body-only"},
		{"a different ending of the same word matches", "tested", 0, "Testing policy"},
		{"a shorter form matches by prefix", "config", 0, "Configuration"},
		{"equal scores go to the newer memory", "ci", 0, "new-ci,old-ci"},
		{"the limit caps the result", "linter", 2, "Linter setup,described"},
		{"stop words alone match nothing", "the and of what", 0, ""},
		{"unrelated words match nothing", "kubernetes", 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := names(s.Recall(c.query, c.limit)); got != c.want {
				t.Errorf("Recall(%q) = %s, want %s", c.query, got, c.want)
			}
		})
	}
}

func TestRecallDefaultsToFive(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		save(t, s, memory.Memory{Name: "note " + n, Body: "shared keyword"})
	}
	if got := len(s.Recall("keyword", 0)); got != 5 {
		t.Errorf("got %d memories, want the default of 5", got)
	}
}

// call runs a tool the way the pipeline does: schema first, then Call.
func call(t *testing.T, tool tools.Tool, tc *tools.Context, input string) tools.Result {
	t.Helper()
	prepared, err := tool.Schema().Prepare(json.RawMessage(input))
	if err != nil {
		t.Fatalf("%s rejected %s: %v", tool.Name(), input, err)
	}
	res, err := tool.Call(context.Background(), prepared, tc)
	if err != nil {
		t.Fatalf("%s(%s) returned an error: %v", tool.Name(), input, err)
	}
	return res
}

func TestRecallMemoryToolShowsEachMatch(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	save(t, s, memory.Memory{Name: "Flaky tests", Description: "which tests flake", Type: memory.TypeProject, Body: "TestNetwork flakes on CI."})
	save(t, s, memory.Memory{Name: "Long tests note", Body: strings.Repeat("x", 2500) + "END"})
	writeFile(t, filepath.Join(s.UserDir, "broken.md"), "---\nname: [\n---\n")
	tc := &tools.Context{WorkDir: filepath.Dir(s.ProjectDir)}
	res := call(t, memory.Recall(s), tc, `{"query":"flaky tests"}`)
	for _, want := range []string{
		"2 of 2 memories match",
		"## Flaky tests", "type: project (project memory)", "file: " + filepath.Join("project", "flaky-tests.md"),
		"description: which tests flake", "TestNetwork flakes on CI.",
		"[... 503 more characters; Read " + filepath.Join("project", "long-tests-note.md"),
		"1 memory file(s) could not be read", "broken.md",
	} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("result lacks %q:\n%s", want, res.Text)
		}
	}
	if strings.Contains(res.Text, "END") {
		t.Errorf("a long body must be clipped")
	}
}

func TestRecallMemoryToolSaysWhenNothingMatches(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		memory bool
		want   string
	}{
		{"with memories it says how many there are", true, `No memory matches "zebra". There is 1 memory in all`},
		{"without memories it says there are none", false, "There are no memories yet."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newStore(t)
			if c.memory {
				save(t, s, memory.Memory{Name: "giraffe", Body: "tall"})
			}
			res := call(t, memory.Recall(s), &tools.Context{}, `{"query":"zebra"}`)
			if res.IsError || !strings.HasPrefix(res.Text, c.want) {
				t.Errorf("got %q, want it to start with %q", res.Text, c.want)
			}
		})
	}
}

func TestRecordMemoryToolSavesAndUpdates(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	tool := memory.Record(s)
	tc := &tools.Context{}
	input := `{"name":"Prefers tabs","content":"Indent with tabs.","type":"feedback"}`
	target := tool.Target(json.RawMessage(input), tc)
	want := filepath.Join(s.UserDir, "prefers-tabs.md")
	if target.Access != permission.AccessWrite || len(target.Paths) != 1 || target.Paths[0] != want {
		t.Errorf("target %+v, want a write of %s", target, want)
	}
	res := call(t, tool, tc, input)
	if res.IsError || res.Text != `Saved feedback memory "Prefers tabs" in `+want+"." {
		t.Errorf("got %q", res.Text)
	}
	res = call(t, tool, tc, `{"name":"prefers tabs","content":"Indent with tabs, width 4.","type":"feedback"}`)
	if !strings.HasPrefix(res.Text, "Updated") {
		t.Errorf("a second save must say it updated: %q", res.Text)
	}
	mems := list(t, s)
	if len(mems) != 1 || mems[0].Body != "Indent with tabs, width 4." || mems[0].Description != "Indent with tabs, width 4." {
		t.Errorf("want one updated memory with its first line as description, got %+v", mems)
	}
}

func TestMemoryToolMetadata(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	recall, record := memory.Recall(s), memory.Record(s)
	in := json.RawMessage(`{"query":"x"}`)
	if recall.Name() != "RecallMemory" || !recall.ReadOnly(in) || !recall.ConcurrencySafe(in) {
		t.Errorf("RecallMemory must be read-only and concurrency-safe")
	}
	rin := json.RawMessage(`{"name":"n","content":"c"}`)
	if record.Name() != "RecordMemory" || record.ReadOnly(rin) || record.ConcurrencySafe(rin) {
		t.Errorf("RecordMemory must be neither read-only nor concurrency-safe")
	}
	for _, tool := range []tools.Tool{recall, record} {
		if d := tool.CheckPermission(context.Background(), in, &tools.Context{}); d.Behavior != permission.Allow {
			t.Errorf("%s must allow itself, got %v", tool.Name(), d)
		}
	}
	for _, bad := range []string{`{"query":""}`, `{"query":"x","limit":21}`, `{"query":"x","limit":0}`} {
		if _, err := recall.Schema().Prepare(json.RawMessage(bad)); err == nil {
			t.Errorf("RecallMemory accepted %s", bad)
		}
	}
	for _, bad := range []string{`{"name":"n"}`, `{"name":"n","content":"c","type":"diary"}`, `{"name":"n","content":"c","scope":"global"}`} {
		if _, err := record.Schema().Prepare(json.RawMessage(bad)); err == nil {
			t.Errorf("RecordMemory accepted %s", bad)
		}
	}
}
