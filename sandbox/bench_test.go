package sandbox

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkSandboxedTrue is the set-up cost of the sandbox per command:
// `true` run plain and through the launcher, in one run.
func BenchmarkSandboxedTrue(b *testing.B) {
	f := newFixture(b)
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true")
	}
	start := func(b *testing.B, s *Sandbox) {
		var cpu time.Duration
		for b.Loop() {
			cmd := exec.Command(truePath)
			release, err := s.Wrap(cmd)
			if err != nil {
				b.Fatal(err)
			}
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
			release()
			cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		// CPU time is what the set-up costs the machine; wall time on a
		// shared machine mostly measures the other load.
		b.ReportMetric(float64(cpu.Microseconds())/float64(b.N)/1000, "child-cpu-ms/op")
	}
	b.Run("plain", func(b *testing.B) { start(b, nil) })
	b.Run("sandboxed", func(b *testing.B) { start(b, newSandbox(b, f.policy(), Options{})) })
	p := f.policy()
	p.AllowedDomains = []string{"example.com"}
	b.Run("sandboxed-proxy", func(b *testing.B) { start(b, newSandbox(b, p, Options{})) })
	// The launcher's own start-up is most of the cost; with the workbench
	// binary (SANDBOX_BENCH_LAUNCHER=path) it includes the packages that
	// binary initialises before package launcher's init dispatches.
	if l := os.Getenv("SANDBOX_BENCH_LAUNCHER"); l != "" {
		b.Run("sandboxed-workbench-binary", func(b *testing.B) { start(b, newSandbox(b, f.policy(), Options{Launcher: l})) })
	}
}
