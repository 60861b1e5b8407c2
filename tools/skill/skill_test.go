package skill_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/skill"
)

// writeSkill writes dir/folder/SKILL.md and returns its path.
func writeSkill(t *testing.T, dir, folder, content string) string {
	t.Helper()
	p := filepath.Join(dir, folder, skill.FileName)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// call runs a tool the way the pipeline does: schema first, then Call.
func call(t *testing.T, tool tools.Tool, input string) tools.Result {
	t.Helper()
	prepared, err := tool.Schema().Prepare(json.RawMessage(input))
	if err != nil {
		t.Fatalf("%s rejected %s: %v", tool.Name(), input, err)
	}
	res, err := tool.Call(context.Background(), prepared, &tools.Context{})
	if err != nil {
		t.Fatalf("%s(%s) returned an error: %v", tool.Name(), input, err)
	}
	return res
}

func TestLoadReadsFrontMatter(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		folder  string
		content string
		want    skill.Skill // Dir and Path are checked separately
		wantErr string      // part of the error; empty means it loads
	}{
		{"a complete skill loads every field", "release",
			"---\nname: release\ndescription: Cut a release.\nwhen_to_use: When asked to ship.\nunlocks: [gh_release, \"mcp__ci__*\"]\n---\n\n# Steps\nRun it.\n",
			skill.Skill{Name: "release", Description: "Cut a release.", WhenToUse: "When asked to ship.", Unlocks: []string{"gh_release", "mcp__ci__*"}, Body: "# Steps\nRun it."}, ""},
		{"the name defaults to the folder", "pdf-forms",
			"---\ndescription: Fill PDF forms.\nwhenToUse: PDFs\ntools: Read, Bash\n---\nBody\n",
			skill.Skill{Name: "pdf-forms", Description: "Fill PDF forms.", WhenToUse: "PDFs", Unlocks: []string{"Read", "Bash"}, Body: "Body"}, ""},
		{"CRLF line endings and a byte-order mark are accepted", "crlf",
			"\ufeff---\r\ndescription: Windows file.\r\n---\r\nLine one.\r\n",
			skill.Skill{Name: "crlf", Description: "Windows file.", Body: "Line one."}, ""},
		{"unknown keys from other formats are ignored", "licensed",
			"---\ndescription: d\nlicense: MIT\ncompatibility: any\n---\n",
			skill.Skill{Name: "licensed", Description: "d"}, ""},
		{"a missing description is an error", "nodesc",
			"---\nname: nodesc\n---\nBody\n", skill.Skill{}, "SKILL.md:1: description is missing"},
		{"bad YAML is reported with the file's line number", "broken",
			"---\ndescription: ok\nname: a: b\n---\n", skill.Skill{}, "line 3: mapping values are not allowed"},
		{"a name that differs from its folder is an error on its line", "folder",
			"---\ndescription: d\nname: other\n---\n", skill.Skill{}, "SKILL.md:3: name \"other\" does not match its folder \"folder\""},
		{"an upper-case name is refused", "Upper",
			"---\ndescription: d\nname: Upper\n---\n", skill.Skill{}, "not a valid skill name"},
		{"a file without front matter is an error", "plain",
			"# Just Markdown\n", skill.Skill{}, "SKILL.md:1: a skill must start with YAML front matter"},
		{"unclosed front matter is an error", "unclosed",
			"---\ndescription: d\n", skill.Skill{}, "must start with YAML front matter"},
		{"a description given as a list is an error on its line", "listdesc",
			"---\n\ndescription:\n  - a\n---\n", skill.Skill{}, "SKILL.md:4: description: must be text"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := writeSkill(t, dir, c.folder, c.content)
			r, errs := skill.Load(dir)
			if c.wantErr != "" {
				if len(errs) != 1 || !strings.Contains(errs[0].Error(), c.wantErr) {
					t.Fatalf("errors %v, want one containing %q", errs, c.wantErr)
				}
				if !strings.Contains(errs[0].Error(), path) {
					t.Errorf("error %q does not name the file %s", errs[0], path)
				}
				if len(r.List()) != 0 {
					t.Errorf("a bad skill was loaded: %v", r.List())
				}
				return
			}
			if len(errs) != 0 {
				t.Fatalf("unexpected errors: %v", errs)
			}
			got, ok := r.Get(c.want.Name)
			if !ok {
				t.Fatalf("skill %q not loaded; have %v", c.want.Name, r.Names())
			}
			if got.Path != path || got.Dir != filepath.Dir(path) {
				t.Errorf("path %q dir %q, want %q and its folder", got.Path, got.Dir, path)
			}
			got.Path, got.Dir = "", ""
			if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", c.want) {
				t.Errorf("got  %#v\nwant %#v", got, c.want)
			}
		})
	}
}

func TestLoadKeepsGoingPastABadSkill(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeSkill(t, dir, "a-good", "---\ndescription: first\n---\n")
	writeSkill(t, dir, "b-bad", "---\nname: [\n---\n")
	writeSkill(t, dir, "c-good", "---\ndescription: third\n---\n")
	if err := os.MkdirAll(filepath.Join(dir, "shared-files"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, errs := skill.Load(dir, filepath.Join(dir, "does-not-exist"))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "b-bad") {
		t.Errorf("want one error naming b-bad, got %v", errs)
	}
	if got := strings.Join(r.Names(), ","); got != "a-good,c-good" {
		t.Errorf("loaded %s, want a-good,c-good (a folder without SKILL.md and a missing dir are not errors)", got)
	}
}

func TestLoadEarlierDirWinsANameClash(t *testing.T) {
	t.Parallel()
	project, user := t.TempDir(), t.TempDir()
	writeSkill(t, project, "deploy", "---\ndescription: project deploy\n---\n")
	writeSkill(t, user, "deploy", "---\ndescription: user deploy\n---\n")
	writeSkill(t, user, "notes", "---\ndescription: user notes\n---\n")
	r, errs := skill.Load(project, user)
	if len(errs) != 0 {
		t.Fatalf("a shadowed skill must not be an error: %v", errs)
	}
	s, _ := r.Get("deploy")
	if s.Description != "project deploy" {
		t.Errorf("deploy came from %s, want the project's", s.Path)
	}
	if got := strings.Join(r.Names(), ","); got != "deploy,notes" {
		t.Errorf("names %s, want deploy,notes", got)
	}
}

func TestDefaultDirsPutsTheProjectFirst(t *testing.T) {
	cfg, home := t.TempDir(), t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("HOME", home)
	got := skill.DefaultDirs("/proj")
	want := []string{"/proj/.workbench/skills", "/proj/.claude/skills", filepath.Join(cfg, "workbench", "skills"), filepath.Join(home, ".claude", "skills")}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestPromptListsEverySkillWithinTheBudget(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const count = 60
	for i := range count {
		desc := fmt.Sprintf("Skill number %d. %s", i, strings.Repeat("word ", 200))
		writeSkill(t, dir, fmt.Sprintf("skill-%02d", i), "---\ndescription: "+desc+"\n---\n")
	}
	r, errs := skill.Load(dir)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	p := skill.Tool(r).Prompt()
	listing := p[strings.Index(p, "Available skills:"):]
	described := 0
	for i := range count {
		name := fmt.Sprintf("skill-%02d", i)
		switch {
		case strings.Contains(listing, "- "+name+": "):
			described++
		case strings.Contains(listing, "- "+name+"\n") || strings.HasSuffix(listing, "- "+name):
		default:
			t.Errorf("%s is missing from the prompt", name)
		}
	}
	if described == 0 || described == count {
		t.Errorf("%d of %d skills described; want the budget to cut in between", described, count)
	}
	for _, line := range strings.Split(listing, "\n")[1:] {
		if n := len([]rune(line)); n > len("- skill-00: ")+500 {
			t.Errorf("an entry of %d characters was not clipped to 500: %.80s...", n, line)
		}
	}
	var descLen int
	for _, line := range strings.Split(listing, "\n")[1:] {
		if strings.Contains(line, ": ") {
			descLen += len([]rune(line)) + 1
		}
	}
	if descLen > 8000 {
		t.Errorf("described entries take %d characters, over the 8000 budget", descLen)
	}
}

func TestSkillRunSendsInstructionsAsAnExtraMessage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeSkill(t, dir, "lint", "---\ndescription: Lint the code.\nunlocks: [golangci]\n---\nRun ${SKILL_DIR}/lint.sh, then read ${SKILL_DIR}/rules.md.\n")
	r, _ := skill.Load(dir)
	var invoked []skill.Skill
	r.OnInvoke = func(s skill.Skill) string {
		invoked = append(invoked, s)
		return "Unlocked tools: golangci."
	}
	res := call(t, skill.Tool(r), `{"name":"lint","args":"only the parser package"}`)
	if res.IsError {
		t.Fatalf("error result: %s", res.Text)
	}
	if !strings.HasPrefix(res.Text, "Loaded skill lint.") || !strings.Contains(res.Text, "Unlocked tools: golangci.") {
		t.Errorf("acknowledgement %q lacks the load notice or OnInvoke's note", res.Text)
	}
	if len(invoked) != 1 || invoked[0].Name != "lint" || invoked[0].Unlocks[0] != "golangci" {
		t.Errorf("OnInvoke got %v, want the lint skill once", invoked)
	}
	if len(res.Extra) != 1 {
		t.Fatalf("want one extra message, got %d", len(res.Extra))
	}
	msg, skillDir := res.Extra[0], filepath.Join(dir, "lint")
	for _, want := range []string{
		"# Skill: lint",
		skillDir,
		"Run " + skillDir + "/lint.sh, then read " + skillDir + "/rules.md.",
		"## Arguments\n\nonly the parser package",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("instructions lack %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "${SKILL_DIR}") {
		t.Errorf("${SKILL_DIR} was left in:\n%s", msg)
	}
	if strings.Contains(res.Text, "lint.sh") {
		t.Errorf("the instructions belong in Extra, not in the result text: %s", res.Text)
	}
}

func TestSkillRunWithoutArgsHasNoArgumentsHeading(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeSkill(t, dir, "plain", "---\ndescription: d\n---\nDo it.\n")
	r, _ := skill.Load(dir)
	res := call(t, skill.Tool(r), `{"name":"/plain"}`)
	if res.IsError || len(res.Extra) != 1 || strings.Contains(res.Extra[0], "## Arguments") {
		t.Errorf("a slash-prefixed name must load without an Arguments heading: %+v", res)
	}
	if res.Text != "Loaded skill plain. Its instructions follow as the next message." {
		t.Errorf("without OnInvoke the acknowledgement is only the notice, got %q", res.Text)
	}
}

func TestSkillRunRefusesAnUnknownName(t *testing.T) {
	t.Parallel()
	withSkills := t.TempDir()
	writeSkill(t, withSkills, "alpha", "---\ndescription: a\n---\n")
	writeSkill(t, withSkills, "beta", "---\ndescription: b\n---\n")
	cases := []struct {
		name string
		dir  string
		want []string
	}{
		{"the available names are listed", withSkills, []string{`no skill named "gamma"`, "Available skills: alpha, beta."}},
		{"with no skills the message says where they go", t.TempDir(), []string{"no skills are installed", skill.FileName}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, _ := skill.Load(c.dir)
			res := call(t, skill.Tool(r), `{"name":"gamma"}`)
			if !res.IsError || len(res.Extra) != 0 {
				t.Fatalf("want an error result without instructions, got %+v", res)
			}
			for _, w := range c.want {
				if !strings.Contains(res.Text, w) {
					t.Errorf("%q lacks %q", res.Text, w)
				}
			}
		})
	}
}

func TestSkillToolMetadata(t *testing.T) {
	t.Parallel()
	tool := skill.Tool(nil)
	in := json.RawMessage(`{"name":"x"}`)
	if tool.Name() != "Skill" || !tool.ReadOnly(in) || tool.ConcurrencySafe(in) {
		t.Errorf("Skill must be read-only and not concurrency-safe")
	}
	if d := tool.CheckPermission(context.Background(), in, &tools.Context{}); d.Behavior != "allow" {
		t.Errorf("Skill must allow itself, got %v", d)
	}
	if !strings.Contains(tool.Prompt(), "No skills are installed.") {
		t.Errorf("an empty registry must say so in the prompt")
	}
	if _, err := tool.Schema().Prepare(json.RawMessage(`{"args":"x"}`)); err == nil {
		t.Errorf("a call without a name must fail the schema")
	}
}

func TestCompat7_AllowedToolsAreRules(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeSkill(t, dir, "commit", "---\ndescription: Commit the work.\nallowed-tools: Bash(git add:*), Bash(git commit:*), Read\n---\nDo it.")
	writeSkill(t, dir, "listed", "---\ndescription: A list.\nallowed-tools:\n  - Bash(npm run test:*)\n  - Grep\n---\n")
	writeSkill(t, dir, "spaced", "---\ndescription: Spaces.\nallowed-tools: Read Grep Glob\n---\n")
	writeSkill(t, dir, "broken", "---\ndescription: Broken.\nallowed-tools: Bash(git add\n---\n")
	r, errs := skill.Load(dir)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "broken") || !strings.Contains(errs[0].Error(), "allowed-tools") {
		t.Fatalf("errors %v, want one naming the broken skill's allowed-tools", errs)
	}
	for name, want := range map[string]string{
		"commit": "Bash(git add:*)|Bash(git commit:*)|Read",
		"listed": "Bash(npm run test:*)|Grep",
		"spaced": "Read|Grep|Glob",
	} {
		s, ok := r.Get(name)
		if !ok || strings.Join(s.AllowedTools, "|") != want {
			t.Errorf("%s: allowed-tools %q, want %q", name, s.AllowedTools, want)
		}
	}
}
