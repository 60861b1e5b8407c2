package ui

import (
	"testing"
	"time"
)

func TestWorkingLineCountsWholeSecondsInTheOneFormat(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		0:                           "● working",
		400 * time.Millisecond:      "● working",
		1900 * time.Millisecond:     "● working 1.0s",
		65*time.Second + 7e8:        "● working 1m05s",
		2*time.Hour + 3*time.Minute: "● working 2h03m",
	} {
		if got := workingLine(d); got != want {
			t.Errorf("workingLine(%v) = %q, want %q", d, got, want)
		}
	}
}
