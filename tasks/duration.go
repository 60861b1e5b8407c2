package tasks

import (
	"fmt"
	"time"
)

// FormatDuration writes a duration the one way Workbench shows times, in
// task notices, the task list and every view of the UI alike: whole
// milliseconds under a second (120ms), tenths of a second under a minute
// (20.1s), then minutes and seconds (1m05s) and hours and minutes
// (2h03m).
func FormatDuration(d time.Duration) string {
	switch {
	case d < 0:
		return "0ms"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d.Round(100*time.Millisecond) < time.Minute:
		return fmt.Sprintf("%.1fs", float64(d.Round(100*time.Millisecond))/float64(time.Second))
	case d < time.Hour:
		d = d.Round(time.Second)
		if d >= time.Hour {
			return "1h00m"
		}
		return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	default:
		d = d.Round(time.Minute)
		return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	}
}
