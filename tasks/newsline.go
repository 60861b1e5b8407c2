package tasks

import (
	"fmt"
	"strings"
)

// newsCommandMax bounds the command quoted in a one-line notice, so the
// line fits a narrow screen beside its status.
const newsCommandMax = 40

// endLine is the one-line form of a task's end for the person
// ("task_2 sleep 20 · completed in 20.1s · exit 0 · 3 lines"); the model
// gets the structured block instead.
func endLine(s Snapshot) string {
	var how string
	took := FormatDuration(s.Elapsed(s.End))
	switch {
	case s.Status == StatusCompleted:
		how = fmt.Sprintf("completed in %s · exit 0", took)
	case s.Reason == ReasonOutputCap:
		how = fmt.Sprintf("stopped after %s · output reached the cap", took)
	case s.Status == StatusKilled:
		how = fmt.Sprintf("killed after %s · %s", took, s.Reason)
	case s.Signal != "":
		how = fmt.Sprintf("ended by %s after %s · exit %d", s.Signal, took, s.ExitCode)
	default:
		how = fmt.Sprintf("failed after %s · exit %d", took, s.ExitCode)
	}
	return fmt.Sprintf("%s %s · %s · %s", s.ID, oneLine(s.Command), how, countLines(s.Lines))
}

// matchLine is the one-line form of a monitor's match: which task, which
// output line, and the line itself.
func matchLine(id, command string, n int, text string) string {
	return fmt.Sprintf("%s %s · matched at line %s: %s", id, oneLine(command), thousands(int64(n)), shorten(strings.TrimSpace(text), commandMax))
}

// oneLine keeps a command on one short line.
func oneLine(cmd string) string {
	cmd = strings.Join(strings.Fields(cmd), " ")
	return shorten(cmd, newsCommandMax)
}

// countLines says "1 line", "3,000 lines".
func countLines(n int64) string {
	if n == 1 {
		return "1 line"
	}
	return thousands(n) + " lines"
}

// thousands writes n with comma separators.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
