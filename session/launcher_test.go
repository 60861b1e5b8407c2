package session

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/sandbox/launcher"
)

// TestTheTestBinaryAsTheSandboxLauncherRunsNoTests: every sandbox check
// and sandboxed command starts this binary as the launcher. This package
// has no TestMain, and when nothing else took over such a process it ran
// the whole test suite, whose first test loads a session and checks the
// sandbox again: each run started more, was killed when its check ran out
// of time, and left its tests' temporary directories in /tmp (887
// TestCompat8_LoadFindsTheProjectRoot* of them in one day). The launcher's
// package init takes over; started with a spec it cannot read, the binary
// must fail as the launcher does, running no test.
func TestTheTestBinaryAsTheSandboxLauncherRunsNoTests(t *testing.T) {
	if os.Getenv("WORKBENCH_LAUNCHER_GUARD") != "" {
		t.Skip("started by the guard itself: the launcher did not take over")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], launcher.Subcommand, "not a spec")
	cmd.Env = append(os.Environ(), "WORKBENCH_LAUNCHER_GUARD=1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != launcher.Exit {
		t.Fatalf("the binary as launcher ended with %v, want the launcher's exit %d:\n%s", err, launcher.Exit, out)
	}
	if s := string(out); strings.Contains(s, "=== RUN") || strings.Contains(s, "PASS") || !strings.Contains(s, "workbench sandbox:") {
		t.Fatalf("the binary as launcher did not answer as the launcher:\n%s", s)
	}
}
