package startgc

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

// settings reads GOGC and GOMEMLIMIT as they are now.
func settings() (int, int64) {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p, debug.SetMemoryLimit(-1)
}

// childEnv marks the test binary run again by
// TestTheCollectorIsOffFromBeginToDoneAndThenAsItWas.
const childEnv = "STARTGC_TEST_CHILD"

// TestMain reports, in the child, the settings at each step.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		var steps []string
		say := func(what string) {
			p, l := settings()
			steps = append(steps, fmt.Sprintf("%s %d %d", what, p, l))
		}
		say("start")
		Done() // without Begin: nothing
		say("done-first")
		Begin()
		say("begun")
		Begin()
		say("begun-again")
		Done()
		say("done")
		Done()
		Begin()
		say("after")
		fmt.Println(strings.Join(steps, "\n"))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// From Begin to Done the collector is off, under the start's memory limit
// or the person's lower one; Done gives back GOGC and GOMEMLIMIT as they
// were, once; Done without Begin and Begin after Done change nothing.
func TestTheCollectorIsOffFromBeginToDoneAndThenAsItWas(t *testing.T) {
	cases := []struct {
		name, gogc, memlimit string
		percent              int
		limit, startLimit    int64
	}{
		{"no settings", "100", "off", 100, math.MaxInt64, startLimit},
		{"the person's GOGC and a high limit", "50", "1GiB", 50, 1 << 30, startLimit},
		{"a limit below the start's stays", "100", "64MiB", 100, 64 << 20, 64 << 20},
		{"GOGC off stays off", "off", "off", -1, math.MaxInt64, startLimit},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), childEnv+"=1", "GOGC="+c.gogc, "GOMEMLIMIT="+c.memlimit)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("child: %v", err)
			}
			as := fmt.Sprintf("%d %d", c.percent, c.limit)
			off := fmt.Sprintf("-1 %d", c.startLimit)
			want := strings.Join([]string{"start " + as, "done-first " + as, "begun " + off, "begun-again " + off, "done " + as, "after " + as}, "\n")
			if got := strings.TrimSpace(string(out)); got != want {
				t.Errorf("GOGC and limit step by step:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
