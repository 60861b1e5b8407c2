// Package format writes the numbers the UI shows, one way everywhere:
// sizes in binary units (532 B, 12.3 KiB, 1.0 GiB; never MB beside MiB),
// durations in one format (120ms, 20.1s, 1m05s, 2h03m), counts with
// thousands separators (3,000 lines), percentages that never claim 100%
// before the end. Sizes and durations are the task package's, so a task's
// notice, the task list and the screen agree on every figure.
package format

import (
	"strconv"
	"strings"
	"time"

	"github.com/seed92b641c3/workbench/tasks"
)

// Bytes writes a size in binary units.
func Bytes(n int64) string { return tasks.HumanBytes(n) }

// Duration writes a duration: 120ms, 20.1s, 1m05s, 2h03m.
func Duration(d time.Duration) string { return tasks.FormatDuration(d) }

// Count writes n with thousands separators: 1,234,567.
func Count[N int | int64](n N) string {
	v := int64(n)
	if v < 0 {
		return "-" + Count(-v)
	}
	s := strconv.FormatInt(v, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Plural writes a count and its noun: "1 line", "3,000 lines".
func Plural[N int | int64](n N, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return Count(n) + " " + word + "s"
}

// Percent is how far done is through total, rounded down, so 100% means
// the very end; 0 when total is not positive.
func Percent(done, total int64) int {
	if total <= 0 || done <= 0 {
		return 0
	}
	if done >= total {
		return 100
	}
	return int(done * 100 / total)
}
