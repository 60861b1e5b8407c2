package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestH16_ARefusedWriteIsExplained(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	os.MkdirAll(filepath.Join(f.ws, ".git", "hooks"), 0o755)
	s := newSandbox(t, f.policy(), Options{})
	cases := []struct{ script, path, why string }{
		{`touch ` + f.outside + `/x`, f.outside + "/x", "outside the paths"},
		{`python3 -c "open('` + f.outside + `/y','w')"`, f.outside + "/y", "outside the paths"},
		{`echo x > .git/hooks/pre-commit`, filepath.Join(f.ws, ".git/hooks/pre-commit"), "read-only by the sandbox even inside the workspace"},
		{`cp /etc/hostname ../outside/z`, f.outside + "/z", "outside the paths"},
	}
	for _, c := range cases {
		out := mustFail(t, s, f.ws, c.script)
		note := s.Explain(out, f.ws)
		if !strings.Contains(note, c.path) || !strings.Contains(note, c.why) ||
			!strings.Contains(note, "sandbox.allowWrite") || !strings.Contains(note, "dangerouslyDisableSandbox") {
			t.Errorf("%q: output %q explained as %q", c.script, out, note)
		}
	}
	// A refusal the sandbox did not cause gets no note.
	os.WriteFile(filepath.Join(f.ws, "locked"), nil, 0o000)
	if note := s.Explain("cat: ./locked: Permission denied\n", f.ws); note != "" {
		t.Errorf("a workspace permission error was blamed on the sandbox: %q", note)
	}
	if note := s.Explain("all good\n", f.ws); note != "" {
		t.Errorf("output without a refusal got %q", note)
	}
}

func TestH16_AllowWriteOpensAPath(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	p := f.policy()
	p.AllowWrite = []string{f.outside, filepath.Join(f.outside, "missing")}
	s := newSandbox(t, p, Options{})
	mustPass(t, s, f.ws, `echo x > `+f.outside+`/allowed`)
	if w := s.Warnings(); len(w) != 1 || !strings.Contains(w[0], "missing") || !strings.Contains(w[0], "sandbox.allowWrite") {
		t.Errorf("warnings = %q, want one for the missing path", w)
	}
}

func TestH16_UnavailableShowsTheNoticeAndHonoursRequired(t *testing.T) {
	t.Setenv(ForceUnavailableEnv, "the test says so")
	f := newFixture(t)
	for _, required := range []bool{false, true} {
		p := f.policy()
		p.Required = required
		s, err := New(p, Options{Launcher: testLauncher(t)})
		if err != nil {
			t.Fatal(err)
		}
		if s.Active() || s.Unavailable() == nil || !strings.Contains(s.Notice(), "the test says so") {
			t.Fatalf("required=%v: active=%v notice=%q", required, s.Active(), s.Notice())
		}
		if d := s.Describe(); d.Mode != "unavailable" {
			t.Errorf("Describe = %+v", d)
		}
		cmd := exec.Command("bash", "-c", "echo x > "+f.outside+"/bare")
		release, err := s.Wrap(cmd)
		if required {
			if !errors.Is(err, ErrUnavailable) || !strings.Contains(s.Notice(), "will not run") {
				t.Errorf("required: Wrap err = %v, notice %q", err, s.Notice())
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("unrequired sandbox did not run the command: %v %s", err, out)
		}
		release()
		if !strings.Contains(s.Notice(), "without it") {
			t.Errorf("notice %q does not say commands run without the sandbox", s.Notice())
		}
	}
}

func TestH16_GoBuildWorksInside(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain")
	}
	f := newFixture(t)
	os.WriteFile(filepath.Join(f.ws, "go.mod"), []byte("module example.com/tiny\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(f.ws, "main.go"), []byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"built inside\") }\n"), 0o644)
	os.WriteFile(filepath.Join(f.ws, "main_test.go"), []byte("package main\n\nimport \"testing\"\n\nfunc TestOK(t *testing.T) {}\n"), 0o644)
	p := f.policy()
	home, _ := os.UserHomeDir()
	p.Caches = DefaultCaches(home) // the real Go caches, as a person's session has them
	s := newSandbox(t, p, Options{LayersDir: t.TempDir()})
	out := mustPass(t, s, f.ws, `go build -o tiny . && ./tiny && go test ./... 2>&1`)
	if !strings.Contains(out, "built inside") || !strings.Contains(out, "ok") {
		t.Errorf("go build/test inside: %s", out)
	}
}
