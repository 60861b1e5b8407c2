package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The start-up check fails closed: a check that does not answer in time is
// not "the kernel cannot do it", and commands keep running in the sandbox.
func TestH16_ASlowProbeLeavesCommandsInTheSandbox(t *testing.T) {
	t.Setenv(SlowProbeEnv, "1")
	f := newFixture(t)
	for _, required := range []bool{false, true} {
		p := f.policy()
		p.Required = required
		s, err := New(p, Options{Launcher: testLauncher(t)})
		if err != nil {
			t.Fatal(err)
		}
		<-s.Checked()
		if s.Unavailable() != nil || !s.Active() || !errors.Is(s.Undecided(), ErrInconclusive) {
			t.Fatalf("required=%v: unavailable=%v active=%v undecided=%v", required, s.Unavailable(), s.Active(), s.Undecided())
		}
		if n := s.Notice(); !strings.Contains(n, "did not answer") || !strings.Contains(n, "still run in the sandbox") {
			t.Errorf("notice %q", n)
		}
		if d := s.Describe(); d.Mode != string(WorkspaceWrite) || d.Network != NetNone {
			t.Errorf("Describe = %+v", d)
		}
		// Every check before a command stalls too: the command still
		// starts through the launcher, confined.
		bare := filepath.Join(f.outside, "bare")
		out := mustFail(t, s, f.ws, `echo x > `+bare)
		if exists(bare) {
			t.Fatalf("required=%v: a command wrote outside the workspace while the check was open", required)
		}
		if note := s.Explain(out, f.ws); !strings.Contains(note, bare) {
			t.Errorf("refusal %q explained as %q", out, note)
		}
		mustPass(t, s, f.ws, `echo x > inside && python3 -c "open('`+f.outside+`/py','w')" 2>/dev/null; test ! -e `+f.outside+`/py`)
		if !exists(filepath.Join(f.ws, "inside")) {
			t.Error("a write inside the workspace did not happen")
		}
		if s.Undecided() == nil {
			t.Error("a stalled check counted as an answer")
		}
	}
}

// The check before the first command answers when the machine is quiet
// again, and the sandbox is then decided.
func TestH16_TheFirstCommandChecksAgain(t *testing.T) {
	f := newFixture(t)
	t.Setenv(SlowProbeEnv, "1")
	s, err := New(f.policy(), Options{Launcher: testLauncher(t)})
	if err != nil {
		t.Fatal(err)
	}
	<-s.Checked()
	os.Unsetenv(SlowProbeEnv)
	mustFail(t, s, f.ws, `touch `+f.outside+`/x`)
	if s.Undecided() != nil || !s.Active() || s.Notice() != "" {
		t.Errorf("after an answering check: undecided=%v active=%v notice=%q", s.Undecided(), s.Active(), s.Notice())
	}
}

// A check after start that finds the sandbox unavailable refuses commands
// rather than running them bare: the start-up notice said they run in it.
func TestH16_UnavailableFoundAfterStartRefusesCommands(t *testing.T) {
	f := newFixture(t)
	t.Setenv(SlowProbeEnv, "1")
	s, err := New(f.policy(), Options{Launcher: testLauncher(t)})
	if err != nil {
		t.Fatal(err)
	}
	<-s.Checked()
	t.Setenv(ForceUnavailableEnv, "found later")
	bare := filepath.Join(f.outside, "bare")
	for range 2 {
		cmd := exec.Command("bash", "-c", "echo x > "+bare)
		if _, err := s.Wrap(cmd); !errors.Is(err, ErrFoundUnavailable) || !strings.Contains(err.Error(), "found later") {
			t.Fatalf("Wrap err = %v, want ErrFoundUnavailable", err)
		}
	}
	if exists(bare) || s.Active() || s.Describe().Mode != "unavailable" {
		t.Errorf("exists=%v active=%v describe=%+v", exists(bare), s.Active(), s.Describe())
	}
}

// A launcher that fails in a way that is not the kernel's refusal (here a
// program that exits 1 whatever it is given) leaves the question open; the
// commands it is asked to start do not run.
func TestH16_ALauncherThatFailsOddlyDoesNotTurnTheSandboxOff(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, launcher := range []string{"/bin/false", filepath.Join(f.outside, "missing-launcher")} {
		s, err := New(f.policy(), Options{Launcher: launcher})
		if err != nil {
			t.Fatal(err)
		}
		<-s.Checked()
		if !s.Active() || s.Unavailable() != nil || !errors.Is(s.Undecided(), ErrInconclusive) {
			t.Fatalf("%s: active=%v unavailable=%v undecided=%v", launcher, s.Active(), s.Unavailable(), s.Undecided())
		}
		marker := filepath.Join(f.ws, "ran")
		cmd := exec.Command("bash", "-c", "touch "+marker)
		release, err := s.Wrap(cmd)
		if err == nil {
			_ = cmd.Run()
			release()
		}
		if exists(marker) {
			t.Errorf("%s: the command ran although the sandbox could not be set up", launcher)
		}
	}
}
