package tasks

import (
	"testing"
	"time"
)

func TestFormatDurationIsOneFormat(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		-time.Second:                            "0ms",
		0:                                       "0ms",
		7 * time.Millisecond:                    "7ms",
		120 * time.Millisecond:                  "120ms",
		999 * time.Millisecond:                  "999ms",
		time.Second:                             "1.0s",
		20100 * time.Millisecond:                "20.1s",
		59940 * time.Millisecond:                "59.9s",
		59960 * time.Millisecond:                "1m00s",
		time.Minute:                             "1m00s",
		65 * time.Second:                        "1m05s",
		59*time.Minute + 59600*time.Millisecond: "1h00m",
		2*time.Hour + 3*time.Minute:             "2h03m",
		26 * time.Hour:                          "26h00m",
	} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}
