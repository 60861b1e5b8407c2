package format

import (
	"regexp"
	"testing"
	"time"
)

func TestBytesAreBinaryUnitsOnly(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB",
		30_000: "29.3 KiB", 5 << 20: "5.0 MiB", 3 << 30: "3.0 GiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
	unit := regexp.MustCompile(`^\d+(\.\d)? (B|KiB|MiB|GiB|TiB|PiB|EiB)$`)
	for n := int64(1); n > 0 && n < 1<<62; n = n*3 + 7 {
		if s := Bytes(n); !unit.MatchString(s) {
			t.Errorf("Bytes(%d) = %q, not a binary unit", n, s)
		}
	}
}

func TestCountsHaveThousandsSeparators(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 3000: "3,000", 1234567: "1,234,567", -4321: "-4,321"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
	if Plural(1, "line") != "1 line" || Plural(3000, "line") != "3,000 lines" || Plural(0, "todo") != "0 todos" {
		t.Error("plural")
	}
}

func TestDurationIsTheTasksOne(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{120 * time.Millisecond: "120ms", 20100 * time.Millisecond: "20.1s", 65 * time.Second: "1m05s"} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestPercentReaches100OnlyAtTheEnd(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		done, total int64
		want        int
	}{{0, 10, 0}, {5, 10, 50}, {999, 1000, 99}, {1000, 1000, 100}, {2000, 1000, 100}, {5, 0, 0}, {-1, 10, 0}} {
		if got := Percent(c.done, c.total); got != c.want {
			t.Errorf("Percent(%d, %d) = %d, want %d", c.done, c.total, got, c.want)
		}
	}
}
