package pipeline

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/theme"
)

// TestViewGolden pins a few whole screens. Most goldens are plain text so
// they can be reviewed as layout; the styled one pins the colours.
func TestViewGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		build  func(testing.TB) *Panel
		w, h   int
		pick   bool
		styled bool
	}{
		{name: "single_call", build: singleCall, w: 60, h: 6},
		{name: "ask_approved", build: askApproved, w: 60, h: 6},
		{name: "denied", build: denied, w: 60, h: 4},
		{name: "parallel_wide", build: parallel, w: 100, h: 12},
		{name: "parallel_narrow", build: parallel, w: 40, h: 20},
		{name: "running", build: running, w: 60, h: 4},
		{name: "spilled", build: spilled, w: 60, h: 4},
		{name: "nested", build: nested, w: 60, h: 11},
		{name: "rewritten", build: rewritten, w: 60, h: 5},
		{name: "selected", build: parallel, w: 60, h: 14, pick: true, styled: true},
		{name: "styled_denied", build: denied, w: 60, h: 4, styled: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := tt.build(t)
			p.SetSize(tt.w, tt.h)
			if tt.pick {
				p.SelectPrev()
				p.SelectPrev()
			}
			out := p.View()
			checkSize(t, out, tt.w, tt.h)
			if !tt.styled {
				out = plain(out)
			}
			golden.RequireEqual(t, out)
		})
	}
}

// TestViewShows checks what a person must be able to read on the panel in
// each state.
func TestViewShows(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		build func(testing.TB) *Panel
		w, h  int
		want  []string
	}{
		{"a finished call shows its tool, input and total time", singleCall, 60, 6,
			[]string{"✓ Bash git status", "1.2s"}},
		{"an allowed call names the allowing rule", singleCall, 60, 6,
			[]string{"permission allow (Bash(git status:*))"}},
		{"an ask that a person approved shows both and the granted rule", askApproved, 60, 6,
			[]string{"permission ask→approved 2.3s (Bash(git status:*))"}},
		{"a denied call shows deny and the rule, and fails", denied, 60, 4,
			[]string{"✗ Bash rm -rf build", "permission deny (Bash(rm:*))", "result ✗"}},
		{"a running call shows a dot and the elapsed time of the call", running, 60, 4,
			[]string{"call ● 1.2s"}},
		{"a spilled capture shows the spilled size", spilled, 60, 4,
			[]string{"capture spilled 2.0 MiB"}},
		{"a rewritten input shows the re-check and who rewrote", rewritten, 60, 5,
			[]string{"pre_hook rewrite 150ms (hook:fmt)", "recheck by hook fmt: allow (Bash(gofmt:*))", "gofmt -l -s ."}},
		{"skipped hooks read as a dash", singleCall, 60, 6,
			[]string{"pre_hook –", "post_hook –"}},
		{"a call that ran shows how long the call stage took", singleCall, 60, 6,
			[]string{"call ✓ 1.2s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := tt.build(t)
			p.SetSize(tt.w, tt.h)
			out := plain(p.View())
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("view lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestStagesAppearInPipelineOrder(t *testing.T) {
	t.Parallel()
	p := singleCall(t)
	p.SetSize(200, 4) // wide enough for one line of stages
	out := plain(p.View())
	order := []string{"lookup", "schema", "permission", "pre_hook", "call", "capture", "post_hook", "result"}
	line := strings.Split(out, "\n")[1]
	last := -1
	for _, st := range order {
		i := strings.Index(line, st+" ")
		if i <= last {
			t.Fatalf("stage %q is not after the one before it in %q", st, line)
		}
		last = i
	}
}

func TestOutcomesUseThemeStyles(t *testing.T) {
	t.Parallel()
	p := denied(t)
	p.SetSize(60, 4)
	out := p.View()
	for _, o := range []string{agent.OutcomeDeny} {
		if want := theme.Outcome(o).Render(o); !strings.Contains(out, want) {
			t.Errorf("the %s outcome is not styled by theme.Outcome: want %q in %q", o, want, out)
		}
	}
	if want := theme.Outcome(agent.OutcomeError).Render(theme.SymbolError); !strings.Contains(out, want) {
		t.Errorf("the failed result mark is not styled as an error")
	}
}

func TestParallelCalls(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		w    int
		// sameLine lists pairs of headers that must share a line.
		sameLine [][2]string
		// below lists pairs where the second header is on a later line.
		below [][2]string
	}{
		{"two columns fit at width 100, the third call wraps to the next row", 100,
			[][2]string{{"Read go.mod", "Read main.go"}},
			[][2]string{{"Read main.go", "Read README.md"}, {"Read README.md", "Bash go test"}}},
		{"three columns fit at width 130", 130,
			[][2]string{{"Read go.mod", "Read main.go"}, {"Read main.go", "Read README.md"}},
			[][2]string{{"Read README.md", "Bash go test"}}},
		{"at width 40 every call is stacked", 40, nil,
			[][2]string{{"Read go.mod", "Read main.go"}, {"Read main.go", "Read README.md"}, {"Read README.md", "Bash go test"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := parallel(t)
			p.SetSize(tt.w, 30)
			out := p.View()
			checkSize(t, out, tt.w, 30)
			for _, pr := range tt.sameLine {
				a, b := lineWith(out, pr[0]), lineWith(out, pr[1])
				if a < 0 || a != b {
					t.Errorf("%q (line %d) and %q (line %d) should be side by side:\n%s", pr[0], a, pr[1], b, plain(out))
				}
			}
			for _, pr := range tt.below {
				a, b := lineWith(out, pr[0]), lineWith(out, pr[1])
				if a < 0 || b <= a {
					t.Errorf("%q (line %d) should be above %q (line %d):\n%s", pr[0], a, pr[1], b, plain(out))
				}
			}
		})
	}
}

func TestSequentialCallsAreStackedEvenWhenWide(t *testing.T) {
	t.Parallel()
	p := New()
	at := t0
	for i := 1; i <= 3; i++ {
		at = feed(p, callID(i), "Bash", at, cat(front("Bash"), back(ms(5)))...)
	}
	p.SetSize(200, 20)
	out := p.View()
	lines := strings.Split(plain(out), "\n")
	headers := 0
	for _, l := range lines {
		headers += strings.Count(l, "✓ Bash")
		if strings.Count(l, "✓ Bash") > 1 {
			t.Fatalf("calls that did not overlap share a line: %q", l)
		}
	}
	if headers != 3 {
		t.Fatalf("want 3 headers, got %d:\n%s", headers, plain(out))
	}
}

func TestTickMovesSpinnerAndElapsed(t *testing.T) {
	t.Parallel()
	p := New()
	at := feed(p, "c1", "Bash", t0, append(front("Bash"), s(agent.StageCall, agent.OutcomeStart, 0))...)
	p.SetSize(60, 3)
	if !p.Running() {
		t.Fatal("a started call should count as running")
	}
	var frames []string
	for i, want := range []string{"call ● 0ms", "call ● 100ms", "call ● 1.2s", "call ● 1m05s"} {
		d := []time.Duration{0, ms(100), ms(1200), 65 * time.Second}[i]
		p.Tick(at.Add(d))
		out := plain(p.View())
		if !strings.Contains(out, want) {
			t.Fatalf("after %v want %q in:\n%s", d, want, out)
		}
		frames = append(frames, strings.Fields(strings.Split(out, "\n")[0])[0])
	}
	if frames[0] == frames[1] {
		t.Errorf("the spinner did not move between ticks 100 ms apart: %q", frames[:2])
	}
	for _, f := range frames {
		if !strings.Contains(strings.Join(spinnerFrames, ""), f) {
			t.Errorf("header symbol %q is not a spinner frame", f)
		}
	}
	p.Tick(at.Add(time.Second)) // an older tick never moves time back
	if out := plain(p.View()); !strings.Contains(out, "1m05s") {
		t.Errorf("a late tick moved the clock back:\n%s", out)
	}
	feed(p, "c1", "Bash", at,
		s(agent.StageCall, agent.OutcomeOK, 66*time.Second),
		s(agent.StageResult, agent.OutcomeOK, 0))
	if p.Running() {
		t.Error("a finished call still counts as running")
	}
	if out := plain(p.View()); !strings.Contains(out, "call ✓ 1m06s") || !strings.HasPrefix(out, "✓ Bash") {
		t.Errorf("the finished call still shows as running:\n%s", out)
	}
}

func TestRunningCountsOnlyBegunCalls(t *testing.T) {
	t.Parallel()
	p := New()
	p.ToolUse("c1", "Bash", nil)
	if p.Running() {
		t.Fatal("a queued call that never started would keep the root ticking forever")
	}
	p.SetSize(40, 2)
	if out := plain(p.View()); !strings.Contains(out, "queued") {
		t.Errorf("a queued call should say so:\n%s", out)
	}
}

func TestWaitingForApprovalShowsQuestionMark(t *testing.T) {
	t.Parallel()
	p := New()
	at := feed(p, "c1", "Bash", t0,
		s(agent.StageLookup, agent.OutcomeOK, 0),
		s(agent.StagePermission, agent.OutcomeAsk, ms(1), rule("mode:default")))
	p.Tick(at.Add(ms(4000)))
	p.SetSize(60, 3)
	out := plain(p.View())
	for _, want := range []string{"? Bash", "permission ask 4.0s (mode:default)"} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
}

func TestNestedCallIsIndentedUnderItsParent(t *testing.T) {
	t.Parallel()
	p := nested(t)
	p.SetSize(60, 12)
	out := plain(p.View())
	parent, child, next := lineWith(out, "ExecuteExtraTool"), lineWith(out, "↳ ✓ Sleep"), lineWith(out, "✓ LS")
	if !(parent >= 0 && parent < child && child < next) {
		t.Fatalf("want parent < child < next call, got %d, %d, %d:\n%s", parent, child, next, out)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[child], "  ↳") {
		t.Errorf("the nested call is not indented: %q", lines[child])
	}
	if !strings.HasPrefix(lines[child+1], "    lookup") {
		t.Errorf("the nested call's stages are not indented under it: %q", lines[child+1])
	}
	if strings.HasPrefix(lines[next], " ") {
		t.Errorf("the next top-level call is indented: %q", lines[next])
	}
}

func TestReusedIDAfterFinishIsANewCall(t *testing.T) {
	t.Parallel()
	p := New()
	at := feed(p, "c1/Read", "Read", t0, cat(front("Read"), back(ms(1)))...)
	feed(p, "c1/Read", "Read", at, cat(front("Read"), back(ms(1)))...)
	p.SetSize(60, 10)
	if n := strings.Count(plain(p.View()), "✓ Read"); n != 2 {
		t.Fatalf("want two blocks for two runs, got %d", n)
	}
}

func TestViewFitsItsSize(t *testing.T) {
	t.Parallel()
	builds := map[string]func(testing.TB) *Panel{
		"single": singleCall, "ask": askApproved, "denied": denied, "parallel": parallel,
		"running": running, "spilled": spilled, "nested": nested, "rewritten": rewritten,
		"empty": func(testing.TB) *Panel { return New() },
	}
	for name, build := range builds {
		// One panel goes through every size, so a render cached at one
		// width must not leak into another.
		p := build(t)
		for _, w := range []int{200, 1, 10, MinWidth, 40, 60, 79, 100, 40} {
			for _, h := range []int{0, 1, 3, 7, 40} {
				t.Run(fmt.Sprintf("%s_%dx%d", name, w, h), func(t *testing.T) {
					p.Deselect()
					p.SetSize(w, h)
					checkSize(t, p.View(), w, h)
					p.SelectPrev()
					checkSize(t, p.View(), w, h)
				})
			}
		}
	}
}

func TestNewestCallStaysInView(t *testing.T) {
	t.Parallel()
	p := New()
	at := t0
	for i := range 50 {
		at = feed(p, fmt.Sprintf("id%02d", i), fmt.Sprintf("Tool%02d", i), at, cat(front("X"), back(ms(1)))...)
	}
	p.SetSize(60, 10)
	out := plain(p.View())
	if !strings.Contains(out, "Tool49") {
		t.Errorf("the newest call is not in view:\n%s", out)
	}
	if strings.Contains(out, "Tool00") {
		t.Errorf("the oldest call should have scrolled off:\n%s", out)
	}
	// Selecting an old call scrolls back to it; deselecting follows again.
	for range 45 {
		p.SelectPrev()
	}
	if p.Selected() != "id05" {
		t.Fatalf("selected %q, want id05", p.Selected())
	}
	if out := plain(p.View()); !strings.Contains(out, "Tool05") || strings.Contains(out, "Tool49") {
		t.Errorf("the selected old call should be in view instead of the newest:\n%s", out)
	}
	p.Deselect()
	if out := plain(p.View()); !strings.Contains(out, "Tool49") {
		t.Errorf("after Deselect the view should follow the newest call:\n%s", out)
	}
}

func TestForgetsOldestCallsPastTheBound(t *testing.T) {
	t.Parallel()
	p := New()
	at := t0
	p.ToolUse("first", "Read", nil)
	p.Select("first")
	for i := range maxGroups + 5 {
		at = feed(p, fmt.Sprintf("id%d", i), "Read", at, cat(front("X"), back(0))...)
	}
	if n := len(p.groups); n > maxGroups {
		t.Fatalf("panel keeps %d groups, more than %d", n, maxGroups)
	}
	if p.Selected() != "" {
		t.Errorf("a forgotten call is still selected: %q", p.Selected())
	}
	if p.Select("first") {
		t.Error("a forgotten call can still be selected")
	}
	for i, g := range p.groups {
		if g.idx != i {
			t.Fatalf("group %d has index %d after forgetting", i, g.idx)
		}
	}
}

func TestModelTextCannotInjectEscapes(t *testing.T) {
	t.Parallel()
	p := New()
	p.ToolUse("c1", "Bash", input(t, map[string]any{"command": "echo \x1b[2J\x1b]0;pwned\x07 hi\nsecond"}))
	feed(p, "c1", "Bash", t0, cat(front("Bash"), back(ms(1)))...)
	p.SetResult("c1", "out\x1b[2Jput", false)
	p.SetSize(80, 4)
	p.Select("c1")
	for name, out := range map[string]string{"view": p.View(), "detail": p.Detail(80, 40)} {
		if strings.Contains(out, "\x1b[2J") || strings.Contains(out, "\x1b]0;") || strings.Contains(out, "\x07") {
			t.Errorf("%s lets a control sequence from the model through: %q", name, out)
		}
	}
	if out := plain(p.View()); !strings.Contains(out, "⏎ second") {
		t.Errorf("a newline in the input should read as ⏎:\n%s", out)
	}
}

func TestSelectedHeaderIsHighlighted(t *testing.T) {
	t.Parallel()
	p := singleCall(t)
	p.SetSize(60, 6)
	before := p.View()
	p.SelectPrev()
	after := p.View()
	if before == after {
		t.Fatal("selecting a call does not change the view")
	}
	first := strings.Split(after, "\n")[0]
	if !regexp.MustCompile(`^\x1b\[[0-9;]*m`).MatchString(first) || !strings.Contains(first, "48;") {
		t.Errorf("the selected header has no background: %q", first)
	}
}

// sgr matches a select-graphic-rendition sequence.
var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

func TestNarrowPanelWrapsLongStagesWithoutLosingTheRule(t *testing.T) {
	t.Parallel()
	p := askApproved(t)
	p.SetSize(MinWidth, 12)
	out := p.View()
	checkSize(t, out, MinWidth, 12)
	if !strings.Contains(strings.ReplaceAll(plain(out), "\n", " "), "(Bash(git status:*))") {
		t.Errorf("the rule was cut off on a narrow panel:\n%s", plain(out))
	}
	// A wrapped piece must not leave a style open at the end of a line,
	// or it would bleed into whatever the root draws next to the panel.
	for i, l := range strings.Split(out, "\n") {
		if seqs := sgr.FindAllString(l, -1); len(seqs) > 0 {
			if last := seqs[len(seqs)-1]; last != "\x1b[m" && last != "\x1b[0m" {
				t.Errorf("line %d leaves a style open (%q): %q", i, last, l)
			}
		}
	}
}

func TestCompat11_ProgressShowsOnTheRunningCall(t *testing.T) {
	t.Parallel()
	p := New()
	p.SetSize(60, 20)
	at := feed(p, "c1", "mcp__docs__index", t0,
		s(agent.StageLookup, agent.OutcomeOK, ms(1)),
		s(agent.StageCall, agent.OutcomeStart, ms(1)),
		s(agent.StageCall, agent.OutcomeProgress, ms(1), detail("3/10 indexing files", "")))
	if v := plain(p.View()); !strings.Contains(v, "↳ 3/10 indexing files") {
		t.Fatalf("the running call does not show its progress:\n%s", v)
	}
	feed(p, "c1", "mcp__docs__index", at,
		s(agent.StageCall, agent.OutcomeProgress, ms(1), detail("7/10 indexing files", "")))
	v := plain(p.View())
	if !strings.Contains(v, "↳ 7/10") || strings.Contains(v, "3/10") {
		t.Fatalf("only the latest progress line shows:\n%s", v)
	}
	feed(p, "c1", "mcp__docs__index", at.Add(ms(5)),
		s(agent.StageCall, agent.OutcomeOK, ms(1)),
		s(agent.StageResult, agent.OutcomeOK, ms(1)))
	if v := plain(p.View()); strings.Contains(v, "↳") {
		t.Fatalf("a finished call still shows progress:\n%s", v)
	}
}
