package conversation

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/seed92b641c3/workbench/tools"
)

// editResult is the result the Edit tool returns: its text, and the Meta
// with the unified diff of the file before and after (tools/files).
func editResult(t *testing.T, path, before, after string) tools.Result {
	t.Helper()
	meta, err := json.Marshal(map[string]string{"path": "/p/" + path, "diff": udiff.Unified(path, path, before, after)})
	if err != nil {
		t.Fatal(err)
	}
	return tools.Result{Text: "Edited " + path + " (1 replacement):\n...", Meta: meta}
}

func editInput(path, old, new string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"file_path": path, "old_string": old, "new_string": new})
	return b
}

// fileOf returns n lines "l1\n" ... "ln\n", with change(i) in place of
// line i where it returns something.
func fileOf(n int, change func(i int) string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if change != nil {
			if s := change(i); s != "" {
				b.WriteString(s)
				continue
			}
		}
		b.WriteString("l" + itoa(i) + "\n")
	}
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestEditShowsItsDiff(t *testing.T) {
	t.Parallel()
	before := fileOf(40, nil)
	after := fileOf(40, func(i int) string {
		switch i {
		case 5:
			return "five\n"
		case 30:
			return "thirty\n"
		}
		return ""
	})
	cases := []struct {
		name     string
		input    json.RawMessage
		res      tools.Result
		want     []string
		wantNot  []string
		expanded []string
	}{
		{"a change shows its lines, numbered, with one line of context when collapsed",
			editInput("a.txt", "l5", "five"), editResult(t, "a.txt", before, after),
			[]string{"│ +2 -2", "│  4   l4", "│  5 - l5", "│  5 + five", "│  6   l6", "│    ⋯", "more lines (ctrl+o to expand)"},
			[]string{"--- a.txt", "+++ a.txt", "@@"},
			[]string{"│  2   l2", "│ 30 - l30", "│ 30 + thirty", "│ 33   l33"}},
		{"a resumed call, without the tool's diff, diffs its input without numbers",
			editInput("a.txt", "keep\nold line\n", "keep\nnew line\n"), tools.Result{Text: "Edited a.txt (1 replacement):\n..."},
			[]string{"│ +1 -1", "│   keep", "│ - old line", "│ + new line"}, []string{"Edited a.txt"}, nil},
		{"a failed edit shows its error, not a diff",
			editInput("a.txt", "x", "y"), tools.Result{Text: "Cannot edit a.txt: old_string not found.", IsError: true},
			[]string{"│ Cannot edit a.txt: old_string not found."}, []string{"│ - x", "+0 -0"}, nil},
		{"a carriage return inside a line is shown, never obeyed",
			editInput("a.txt", "ok\n", "rm -rf ~ \rok\n"), tools.Result{Text: "Edited"},
			[]string{`│ + rm -rf ~ \rok`}, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			v := newView(60, 30)
			v.AddToolUse("e", "Edit", c.input)
			v.SetToolResult("e", c.res, time.Millisecond)
			s := screen(t, v)
			for _, w := range c.want {
				if !strings.Contains(s, w) {
					t.Errorf("the screen lacks %q:\n%s", w, s)
				}
			}
			for _, w := range c.wantNot {
				if strings.Contains(s, w) {
					t.Errorf("the screen shows %q:\n%s", w, s)
				}
			}
			if c.expanded == nil {
				return
			}
			v.ToggleExpand()
			s = screen(t, v)
			for _, w := range c.expanded {
				if !strings.Contains(s, w) {
					t.Errorf("expanded, the screen lacks %q:\n%s", w, s)
				}
			}
			if strings.Contains(s, "more lines") || strings.Contains(s, "\n  │ ⋯") {
				t.Errorf("expanded, the diff is still cut:\n%s", s)
			}
		})
	}
}

// TestEditDiffCollapsedNeverEndsInAGap: the few rows of a collapsed diff
// end on a line of the file, and the note counts exactly the lines the
// expanded view adds.
func TestEditDiffCollapsedNeverEndsInAGap(t *testing.T) {
	t.Parallel()
	before := fileOf(60, nil)
	after := fileOf(60, func(i int) string {
		if i%10 == 0 {
			return "changed\nadded\n"
		}
		return ""
	})
	res := editResult(t, "a.txt", before, after)
	d := editRenderer{}.Diff(editInput("a.txt", "", ""), res)
	if d == nil {
		t.Fatal("no diff from the tool's Meta")
	}
	rows, shown := d.collapsed()
	if len(rows) > diffCollapsedRows || rows[len(rows)-1].kind == diffGap {
		t.Fatalf("collapsed rows %+v", rows)
	}
	v := newView(60, 80)
	v.AddToolUse("e", "Edit", editInput("a.txt", "", ""))
	v.SetToolResult("e", res, time.Millisecond)
	collapsed := strings.Count(screen(t, v), "\n  │ ")
	want := "… +" + itoa(d.lines()-shown) + " more lines"
	if s := screen(t, v); !strings.Contains(s, want) {
		t.Fatalf("the note is not %q:\n%s", want, s)
	}
	v.ToggleExpand()
	expanded := strings.Count(screen(t, v), "\n  │ ")
	// The expanded view has every line and gap, the summary, and no note;
	// the collapsed one its rows, the summary and the note.
	if got, wantRows := expanded, len(d.rows)+1; got != wantRows {
		t.Errorf("expanded shows %d rows, want %d", got, wantRows)
	}
	if collapsed != len(rows)+2 {
		t.Errorf("collapsed shows %d rows, want %d", collapsed, len(rows)+2)
	}
}

// TestEditDiffWrapsLongLinesWhenExpanded: a long changed line is cut when
// collapsed and wrapped under its text when expanded, never wider than
// the view.
func TestEditDiffWrapsLongLinesWhenExpanded(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("abcdefghij", 10)
	v := newView(40, 20)
	v.AddToolUse("e", "Edit", editInput("a.txt", "x\n", long+"\n"))
	v.SetToolResult("e", tools.Result{Text: "Edited"}, time.Millisecond)
	if s := screen(t, v); !strings.Contains(s, "…") || strings.Contains(s, "↪") {
		t.Fatalf("collapsed, the long line is not cut:\n%s", s)
	}
	v.ToggleExpand()
	s := screen(t, v)
	if strings.Count(s, "↪") < 2 || !strings.Contains(strings.ReplaceAll(s, "\n", ""), "abcdefghij") {
		t.Fatalf("expanded, the long line is not wrapped:\n%s", s)
	}
}

// A resumed MultiEdit diffs each of its edits, one after another.
func TestResumedMultiEditDiffsEachEdit(t *testing.T) {
	t.Parallel()
	in, _ := json.Marshal(map[string]any{"file_path": "a.txt", "edits": []map[string]string{
		{"old_string": "one", "new_string": "uno"}, {"old_string": "two", "new_string": "dos"}}})
	v := newView(60, 20)
	v.AddToolUse("m", "MultiEdit", in)
	v.SetToolResult("m", tools.Result{Text: "Applied 2 edits to a.txt"}, 0)
	s := screen(t, v)
	for _, w := range []string{"│ +2 -2", "│ - one", "│ + uno", "│  ⋯", "│ - two", "│ + dos"} {
		if !strings.Contains(s, w) {
			t.Errorf("the screen lacks %q:\n%s", w, s)
		}
	}
}

// TestWriteShowsItsDiff: a Write shows the change it made as an Edit does;
// resumed (no Meta), a Write that created its file shows its content as
// added lines, and one that overwrote a file, whose old content is not
// known then, shows the tool's line instead of a made-up diff.
func TestWriteShowsItsDiff(t *testing.T) {
	t.Parallel()
	writeInput := func(content string) json.RawMessage {
		b, _ := json.Marshal(map[string]string{"file_path": "a.txt", "content": content})
		return b
	}
	overwrite := editResult(t, "a.txt", "one\ntwo\nthree\n", "one\nTWO\nthree\n")
	overwrite.Text = "Overwrote a.txt (14 bytes)"
	created := editResult(t, "a.txt", "", fileOf(9, nil))
	created.Text = "Created a.txt (27 bytes)"
	cases := []struct {
		name          string
		input         json.RawMessage
		res           tools.Result
		want, wantNot []string
	}{
		{"an overwrite diffs the old content against the new",
			writeInput("one\nTWO\nthree\n"), overwrite,
			[]string{"│ +1 -1", "│ 1   one", "│ 2 - two", "│ 2 + TWO", "│ 3   three"}, []string{"Overwrote"}},
		{"a new file shows its first lines as added, the rest counted",
			writeInput(fileOf(9, nil)), created,
			[]string{"│ +9 -0", "│ 1 + l1", "│ 6 + l6", "… +3 more lines"}, []string{"│ 7 + l7", "Created"}},
		{"a resumed Write that created its file shows its content as added",
			writeInput("alpha\nbeta\n"), tools.Result{Text: "Created a.txt (11 bytes)"},
			[]string{"│ +2 -0", "│ 1 + alpha", "│ 2 + beta"}, []string{"Created a.txt"}},
		{"a resumed overwrite shows the tool's line: the old content is not known",
			writeInput("alpha\n"), tools.Result{Text: "Overwrote a.txt (6 bytes)"},
			[]string{"│ Overwrote a.txt (6 bytes)"}, []string{"+1 -0", "+ alpha"}},
		{"an unchanged file shows the tool's line",
			writeInput("alpha\n"), tools.Result{Text: "Unchanged: a.txt already holds this content (6 bytes); nothing was written."},
			[]string{"│ Unchanged: a.txt already holds this content"}, []string{"+ alpha"}},
		{"a failed Write shows its error",
			writeInput("alpha\n"), tools.Result{Text: "Created nothing: Cannot write a.txt", IsError: true},
			[]string{"│ Created nothing: Cannot write a.txt"}, []string{"+ alpha"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			v := newView(60, 30)
			v.AddToolUse("w", "Write", c.input)
			v.SetToolResult("w", c.res, time.Millisecond)
			s := screen(t, v)
			for _, w := range c.want {
				if !strings.Contains(s, w) {
					t.Errorf("the screen lacks %q:\n%s", w, s)
				}
			}
			for _, w := range c.wantNot {
				if strings.Contains(s, w) {
					t.Errorf("the screen shows %q:\n%s", w, s)
				}
			}
		})
	}
}
