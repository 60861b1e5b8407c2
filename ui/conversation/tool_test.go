package conversation

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed92b641c3/workbench/tools"
)

func TestToolCall(t *testing.T) {
	t.Parallel()
	v := newView(60, 12)
	v.AddToolUse("c1", "Bash", bashInput("go test ./..."))
	t.Run("running", func(t *testing.T) {
		golden.RequireEqual(t, screen(t, v))
	})
	v.SetToolResult("c1", tools.Result{Text: numbered(9)}, 2340*time.Millisecond)
	t.Run("finished and collapsed", func(t *testing.T) {
		golden.RequireEqual(t, screen(t, v))
	})
	if !v.ToggleExpand() {
		t.Fatal("ToggleExpand with the call on screen changed nothing")
	}
	t.Run("expanded", func(t *testing.T) {
		golden.RequireEqual(t, screen(t, v))
	})
	v.ToggleExpand()
	t.Run("collapsed again", func(t *testing.T) {
		golden.RequireEqual(t, screen(t, v))
	})
}

func TestToolLines(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		tool  string
		input string
		res   *tools.Result
		dur   time.Duration
		want  []string // lines the screen must contain
	}{
		{"a running call shows the dot and the command", "Bash", `{"command":"git status"}`, nil, 0,
			[]string{"● Bash(git status)"}},
		{"a finished call shows a tick and its duration", "Bash", `{"command":"git status"}`,
			&tools.Result{Text: "clean"}, 120 * time.Millisecond, []string{"✓ Bash(git status) 120ms", "│ clean"}},
		{"a failed call shows a cross", "Bash", `{"command":"false"}`,
			&tools.Result{Text: "exit status 1", IsError: true}, 2 * time.Second, []string{"✗ Bash(false) 2.0s", "│ exit status 1"}},
		{"a background command is marked", "Bash", `{"command":"npm run dev","run_in_background":true}`, nil, 0,
			[]string{"● Bash(npm run dev &)"}},
		{"a multi-line command is folded onto one line", "Bash", `{"command":"cd x &&\n  make"}`, nil, 0,
			[]string{"● Bash(cd x && make)"}},
		{"a read shows the path and range and only a line count", "Read", `{"file_path":"main.go","offset":10,"limit":5}`,
			&tools.Result{Text: "a\nb\nc\n"}, time.Millisecond, []string{"✓ Read(main.go:10-14)", "│ Read 3 lines"}},
		{"a write shows the path and its size", "Write", `{"file_path":"a/b.txt","content":"x"}`, nil, 0,
			[]string{"● Write(a/b.txt · 1 line)"}},
		{"an edit shows the path", "Edit", `{"file_path":"x.go","old_string":"a","new_string":"b"}`, nil, 0,
			[]string{"● Edit(x.go)"}},
		{"grep shows the pattern and where", "Grep", `{"pattern":"func main","path":"cmd"}`, nil, 0,
			[]string{"● Grep(func main in cmd)"}},
		{"glob shows the pattern", "Glob", `{"pattern":"**/*.go"}`, nil, 0,
			[]string{"● Glob(**/*.go)"}},
		{"a fetch shows the URL", "WebFetch", `{"url":"https://go.dev/doc?x=1","prompt":"summarise"}`, nil, 0,
			[]string{"● WebFetch(https://go.dev/doc?x=1)"}},
		{"a subagent shows its description", "Agent", `{"description":"find tests","prompt":"..."}`, nil, 0,
			[]string{"● Agent(find tests)"}},
		{"a todo list is drawn as the list", "TodoWrite",
			`{"todos":[{"content":"write","status":"completed"},{"content":"test","status":"in_progress"},{"content":"ship","status":"pending"}]}`,
			&tools.Result{Text: "ok"}, 0, []string{"✓ TodoWrite(3 todos, 1 in progress, 1 done)", "│ [x] write", "│ [~] test", "│ [ ] ship"}},
		{"an MCP tool shows its server, tool and first argument, never JSON", "mcp__db__query", "{\n  \"sql\": \"select 1\"\n}", nil, 0,
			[]string{`● db · query(select 1)`}},
		{"a question shows its header and the question", "AskUserQuestion",
			`{"questions":[{"question":"Which database?","header":"Storage","options":[{"label":"pg"},{"label":"sqlite"}]}]}`, nil, 0,
			[]string{"● AskUserQuestion(Storage: Which database?)"}},
		{"a terminal session shows its command", "shell_open", `{"command":"python3 -q","rows":24}`, nil, 0,
			[]string{"● shell_open(python3 -q)"}},
		{"a call without output says so", "Bash", `{"command":"true"}`, &tools.Result{}, 0,
			[]string{"✓ Bash(true)", "│ (no output)"}},
		{"escape sequences in output are not drawn", "Bash", `{"command":"ls --color"}`,
			&tools.Result{Text: "\x1b[34mdir\x1b[0m"}, 0, []string{"│ dir"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			v := newView(80, 10)
			v.AddToolUse("id", c.tool, json.RawMessage(c.input))
			if c.res != nil {
				v.SetToolResult("id", *c.res, c.dur)
			}
			got := screen(t, v)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Fatalf("screen lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

func TestCollapsedOutput(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		lines  int
		hidden string // the hint line, or "" for none
	}{
		{"four lines show whole", 4, ""},
		{"five lines hide one", 5, "… +1 more line (ctrl+o to expand)"},
		{"thousands of lines are counted with separators", 12345, "… +12,341 more lines (ctrl+o to expand)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			v := newView(60, 10)
			v.AddToolUse("id", "Bash", bashInput("seq"))
			v.SetToolResult("id", tools.Result{Text: numbered(c.lines)}, 0)
			got := screen(t, v)
			if !strings.Contains(got, "│ line 4\n") {
				t.Fatalf("the first four lines are not shown:\n%s", got)
			}
			if c.lines > 4 && strings.Contains(got, "│ line 5\n") {
				t.Fatalf("a fifth line is shown while collapsed:\n%s", got)
			}
			if c.hidden == "" && strings.Contains(got, "… +") {
				t.Fatalf("a hint with nothing hidden:\n%s", got)
			}
			if c.hidden != "" && !strings.Contains(got, c.hidden) {
				t.Fatalf("want hint %q:\n%s", c.hidden, got)
			}
		})
	}
}

func TestSpilledResult(t *testing.T) {
	t.Parallel()
	v := newView(80, 12)
	spill := &tools.Spill{Path: "/home/me/.local/state/workbench/spill/20260101T120000-7-Bash.txt", Bytes: 5 << 20, Lines: 120345}
	v.AddToolUse("big", "Bash", bashInput("make test"))
	v.SetToolResult("big", tools.Result{Text: numbered(30), Spill: spill}, 95*time.Second)
	got := screen(t, v)
	for _, want := range []string{
		"✓ Bash(make test) 1m35s",
		"full output: 5.0 MiB, 120,345 lines (enter to open)",
		spill.Path,
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("screen lacks %q:\n%s", want, got)
		}
	}
	golden.RequireEqual(t, got)

	v.SelectPrev()
	id, sp, ok := v.Selected()
	if !ok || id != "big" || sp != spill {
		t.Fatalf("Selected() = %q, %v, %v; want the spilled call", id, sp, ok)
	}
}

func TestKeyHintsComeFromTheRoot(t *testing.T) {
	t.Parallel()
	v := newView(80, 10)
	v.AddToolUse("id", "Bash", bashInput("seq"))
	v.SetToolResult("id", tools.Result{Text: numbered(9), Spill: &tools.Spill{Path: "/s", Bytes: 1, Lines: 9}}, 0)
	screen(t, v)
	v.SetKeyHints(KeyHints{Expand: "space", Open: "o"})
	got := screen(t, v)
	if !strings.Contains(got, "(space to expand)") || !strings.Contains(got, "(o to open)") {
		t.Fatalf("hints not updated:\n%s", got)
	}
	v.SetKeyHints(KeyHints{})
	if got := screen(t, v); strings.Contains(got, " to ") {
		t.Fatalf("empty hints still printed:\n%s", got)
	}
}

// A subagent's calls (ids under the Agent call's id) are drawn inside the
// Agent call, one line each, the latest few while collapsed; they are not
// entries of their own that would push the Agent's report out of view.
func TestChildCallsAreDrawnInsideTheirParent(t *testing.T) {
	t.Parallel()
	v := newView(70, 30)
	v.AddToolUse("a", "Agent", json.RawMessage(`{"description":"survey the tree","prompt":"p"}`))
	for i := range 7 {
		id := "a/c" + string(rune('0'+i))
		v.AddToolUse(id, "Read", json.RawMessage(`{"file_path":"f`+string(rune('0'+i))+`.go"}`))
		v.SetToolResult(id, tools.Result{Text: "x"}, time.Millisecond)
	}
	v.AddToolUse("a/c6/deep", "Grep", json.RawMessage(`{"pattern":"TODO"}`)) // a subagent's subagent
	v.SetToolResult("a", tools.Result{Text: "Report: seven files read."}, time.Second)
	s := screen(t, v)
	for _, want := range []string{"✓ Agent(survey the tree)", "⎿ ✓ Read(f6.go)", "⎿ ● Grep(TODO)", "… 3 earlier calls", "│ Report: seven files read."} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "Read(f0.go)") || strings.Count(s, "✓ Read") != 4 {
		t.Errorf("collapsed, only the latest five child calls are listed:\n%s", s)
	}
	if len(v.selectable) != 1 {
		t.Errorf("child calls must not be entries of their own: %d selectable", len(v.selectable))
	}
	v.ToggleExpand()
	if s := screen(t, v); !strings.Contains(s, "Read(f0.go)") {
		t.Errorf("expanded, every child call is listed:\n%s", s)
	}
}
