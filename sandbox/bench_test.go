package sandbox

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkSandboxedTrue is the set-up cost of the sandbox per command:
// `true` run plain, through a launcher of its own and through the
// session's sandbox server, in one run.
func BenchmarkSandboxedTrue(b *testing.B) {
	f := newFixture(b)
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true")
	}
	// launcher starts each command through its own launcher (Wrap).
	launcher := func(b *testing.B, s *Sandbox) {
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
	// served starts each command through the session's server (Start);
	// the server's own CPU for the commands is reported beside the
	// command's, so no cost hides in it.
	served := func(b *testing.B, s *Sandbox) {
		var cpu time.Duration
		before := processCPU(b, s.srv.pid())
		for b.Loop() {
			cmd := exec.Command(truePath)
			p, release, err := s.Start(cmd)
			if err != nil {
				b.Fatal(err)
			}
			if ws, err := p.Wait(); err != nil || ws.ExitStatus() != 0 {
				b.Fatal(ws, err)
			}
			release()
			cpu += p.(*servedProc).CPU()
		}
		server := processCPU(b, s.srv.pid()) - before
		b.ReportMetric(float64(cpu.Microseconds())/float64(b.N)/1000, "child-cpu-ms/op")
		b.ReportMetric(float64(server.Microseconds())/float64(b.N)/1000, "server-cpu-ms/op")
	}
	b.Run("plain", func(b *testing.B) { launcher(b, nil) })
	b.Run("launcher", func(b *testing.B) { launcher(b, newSandbox(b, f.policy(), Options{})) })
	b.Run("server", func(b *testing.B) { served(b, newSandbox(b, f.policy(), Options{})) })
	p := f.policy()
	p.AllowedDomains = []string{"example.com"}
	b.Run("launcher-proxy", func(b *testing.B) { launcher(b, newSandbox(b, p, Options{})) })
	b.Run("server-proxy", func(b *testing.B) { served(b, newSandbox(b, p, Options{})) })
	// The launcher's own start-up is most of its cost; with the workbench
	// binary (SANDBOX_BENCH_LAUNCHER=path) it includes the packages that
	// binary initialises before package launcher's init dispatches.
	if l := os.Getenv("SANDBOX_BENCH_LAUNCHER"); l != "" {
		b.Run("launcher-workbench-binary", func(b *testing.B) { launcher(b, newSandbox(b, f.policy(), Options{Launcher: l})) })
		b.Run("server-workbench-binary", func(b *testing.B) { served(b, newSandbox(b, f.policy(), Options{Launcher: l})) })
	}
}

// processCPU is the user and system CPU time process pid has used so far,
// from /proc/PID/stat (utime and stime, in clock ticks of 10 ms).
func processCPU(b *testing.B, pid int) time.Duration {
	b.Helper()
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		b.Fatal(err)
	}
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		b.Fatalf("stat %q", stat)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}
