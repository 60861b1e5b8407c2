package tasks

import (
	"regexp"
	"strings"
	"testing"
)

// monitorSpec watches for the given patterns.
func monitorSpec(command string, repeat bool, patterns ...string) Spec {
	s := Spec{Command: command, Kind: KindMonitor, Repeat: repeat}
	for _, p := range patterns {
		s.Watch = append(s.Watch, regexp.MustCompile(p))
	}
	return s
}

// tenLines prints line1..line10 with ERROR on lines 5 and 8.
const tenLines = `for i in 1 2 3 4 5 6 7 8 9 10; do case $i in 5|8) echo "line$i ERROR";; *) echo "line$i";; esac; done`

// matches splits drained notifications into match reports and final ones.
func matches(t *testing.T, ns []Notification) (match []string, final []string) {
	t.Helper()
	for _, n := range ns {
		if strings.Contains(n.Text, "<event>match</event>") {
			match = append(match, n.Text)
		} else {
			final = append(final, n.Text)
		}
	}
	return match, final
}

func TestMonitorPatternFiresOnceWithContext(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	task := spawn(t, m, monitorSpec(tenLines, false, "ERROR"))
	wait(t, m, task.ID())
	match, final := matches(t, m.Drain())
	if len(match) != 1 || len(final) != 1 {
		t.Fatalf("%d match and %d final notifications, want 1 and 1:\n%s", len(match), len(final), strings.Join(append(match, final...), "\n"))
	}
	lines := element(t, match[0], "lines")
	want := "\n  2: line2\n  3: line3\n  4: line4\n> 5: line5 ERROR\n  6: line6\n  7: line7\n  8: line8 ERROR\n"
	if lines != want {
		t.Errorf("lines %q, want %q", lines, want)
	}
	if got := element(t, match[0], "pattern"); got != "ERROR" {
		t.Errorf("pattern %q", got)
	}
	if element(t, match[0], "kind") != "monitor" || element(t, match[0], "task-id") != task.ID() {
		t.Errorf("match notification %s", match[0])
	}
	if element(t, final[0], "status") != "completed" || element(t, final[0], "kind") != "monitor" {
		t.Errorf("final notification %s", final[0])
	}
}

func TestMonitorRepeatFiresOnEveryMatch(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	task := spawn(t, m, monitorSpec(tenLines, true, "ERROR", `^line1$`))
	wait(t, m, task.ID())
	match, final := matches(t, m.Drain())
	if len(match) != 3 || len(final) != 1 {
		t.Fatalf("%d match and %d final notifications, want 3 and 1", len(match), len(final))
	}
	for i, want := range []string{"> 1: line1\n", "> 5: line5 ERROR\n", ">  8: line8 ERROR\n"} {
		if !strings.Contains(match[i], want) {
			t.Errorf("match %d lacks %q:\n%s", i, want, match[i])
		}
	}
	if strings.Contains(match[1], "line9") || !strings.Contains(match[2], "line10") {
		t.Error("after-lines are wrong: want three after line 5 and two after line 8")
	}
}

func TestMonitorReportsAMatchWhileStillRunning(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	task := spawn(t, m, monitorSpec("echo before; echo READY; sleep 100", false, "READY"))
	eventually(t, "the match notification", m.Pending)
	if s, _ := m.Get(task.ID()); !s.Running() {
		t.Fatalf("the monitor ended before its match was reported: %+v", s)
	}
	match, final := matches(t, m.Drain())
	if len(match) != 1 || len(final) != 0 || !strings.Contains(match[0], "> 2: READY") {
		t.Errorf("notifications %q / %q, want the READY match only", match, final)
	}
	if err := m.Kill(task.ID()); err != nil {
		t.Fatal(err)
	}
	if _, final := matches(t, m.Drain()); len(final) != 1 || element(t, final[0], "status") != "killed" {
		t.Errorf("final notifications %q, want one saying killed", final)
	}
}

func TestMonitorMatchesTheLastLineWithoutNewline(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	task := spawn(t, m, monitorSpec("printf 'a\\nDONE'", false, "DONE"))
	wait(t, m, task.ID())
	if match, _ := matches(t, m.Drain()); len(match) != 1 {
		t.Errorf("want the unterminated last line matched, got %d matches", len(match))
	}
}

func TestMonitorFloodIsBounded(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	task := spawn(t, m, monitorSpec("seq 1 500", true, `\d`))
	wait(t, m, task.ID())
	match, final := matches(t, m.Drain())
	if len(match) != maxQueuedMatches || len(final) != 1 {
		t.Fatalf("%d matches and %d final, want %d and 1", len(match), len(final), maxQueuedMatches)
	}
	if sum := element(t, final[0], "summary"); !strings.Contains(sum, "480 further pattern matches") {
		t.Errorf("summary %q does not count the unreported matches", sum)
	}
}

func TestMonitorWithoutPatternsNotifiesOnlyAtTheEnd(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	task := spawn(t, m, Spec{Command: "echo ERROR; exit 4", Kind: KindMonitor})
	s := wait(t, m, task.ID())
	if !s.Background {
		t.Error("a monitor is not in the background")
	}
	match, final := matches(t, m.Drain())
	if len(match) != 0 || len(final) != 1 || element(t, final[0], "exit-code") != "4" {
		t.Errorf("notifications %q / %q", match, final)
	}
}
