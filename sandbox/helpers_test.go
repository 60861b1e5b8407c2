package sandbox

import (
	"bytes"
	scratchpkg "github.com/seed92b641c3/workbench/internal/scratch"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets this test binary be its own launcher: Options.Launcher
// points at it and Dispatch takes over when it is started as one. With
// clientEnv set it is a Workbench stand-in instead (runClient).
func TestMain(m *testing.M) {
	Dispatch()
	if ws := os.Getenv(clientEnv); ws != "" {
		runClient(ws)
	}
	os.Exit(m.Run())
}

// testLauncher is this test binary.
func testLauncher(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// scratch makes a directory outside every temp directory (which the
// sandbox leaves writable), so a refused write there is the sandbox's doing.
func scratch(t testing.TB) string { return scratchpkg.Dir(t) }

// fixture is a workspace, a directory outside it and a home directory, all
// outside the temp directories.
type fixture struct {
	ws, outside, home string
}

func newFixture(t testing.TB) fixture {
	t.Helper()
	base := scratch(t)
	f := fixture{
		ws:      filepath.Join(base, "ws"),
		outside: filepath.Join(base, "outside"),
		home:    filepath.Join(base, "home"),
	}
	for _, d := range []string{f.ws, f.outside, f.home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// policy is the default policy for the fixture, with no tool caches so a
// test touches nothing of the machine's.
func (f fixture) policy() Policy {
	return Policy{Roots: []string{f.ws}, Home: f.home, Caches: []string{}}
}

// newSandbox makes an active sandbox or fails the test.
func newSandbox(t testing.TB, p Policy, o Options) *Sandbox {
	t.Helper()
	if o.Launcher == "" {
		o.Launcher = testLauncher(t)
	}
	s, err := New(p, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	<-s.Checked()
	if p.Mode != Off && !s.Active() {
		t.Fatalf("sandbox unavailable: %v", s.Unavailable())
	}
	return s
}

// run runs script with bash in dir under s, as the session's commands
// start (Start: through the sandbox server), and returns its combined
// output and exit code.
func run(t testing.TB, s *Sandbox, dir, script string, env ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	p, release, err := s.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := p.Wait()
	release()
	if err != nil {
		t.Fatalf("run %q: %v", script, err)
	}
	if ws.Signaled() {
		return out.String(), 128 + int(ws.Signal())
	}
	return out.String(), ws.ExitStatus()
}

// runLauncher is run through the launcher (Wrap), the path of a command
// the server does not start (an MCP stdio server's).
func runLauncher(t testing.TB, s *Sandbox, dir, script string, env ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	release, err := s.Wrap(cmd)
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	release()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("run %q: %v", script, err)
		}
		code = ee.ExitCode()
	}
	return string(out), code
}

// mustFail checks that script exits non-zero under s.
func mustFail(t *testing.T, s *Sandbox, dir, script string) string {
	t.Helper()
	out, code := run(t, s, dir, script)
	if code == 0 {
		t.Errorf("%q succeeded in the sandbox; output %q", script, out)
	}
	return out
}

// mustPass checks that script exits 0 under s.
func mustPass(t *testing.T, s *Sandbox, dir, script string) string {
	t.Helper()
	out, code := run(t, s, dir, script)
	if code != 0 {
		t.Errorf("%q failed (%d) in the sandbox: %s", script, code, strings.TrimSpace(out))
	}
	return out
}

// exists reports whether p exists.
func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
