package pty

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/internal/scratch"
	"github.com/seed92b641c3/workbench/sandbox"
)

func TestH16_PTYSessionsAreConfined(t *testing.T) {
	t.Parallel()
	base := scratch.Dir(t)
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	os.Mkdir(ws, 0o755)
	os.Mkdir(outside, 0o755)
	exe, _ := os.Executable()
	sb, err := sandbox.New(sandbox.Policy{Roots: []string{ws}, Home: base, Caches: []string{}},
		sandbox.Options{Launcher: exe})
	if err != nil || !sb.Active() {
		t.Fatalf("sandbox: %v %v", err, sb.Unavailable())
	}
	t.Cleanup(sb.Close)
	m := NewManager(Options{KillGrace: 300 * time.Millisecond, Wrap: sb.Start})
	t.Cleanup(m.CloseAll)

	// An interactive shell with job control, as shell_open starts one.
	s := open(t, m, OpenSpec{
		Argv: []string{"bash", "--norc", "--noprofile", "-i"}, WorkDir: ws,
		Env:  []string{"PS1=wb$ ", "HISTFILE=/dev/null"},
		Rows: 10, Cols: 100, Prompt: regexp.MustCompile(`wb\$ $`),
	})
	waitScreen(t, s, "the prompt", func(sc *Screen) bool { return strings.HasPrefix(sc.Line(0), "wb$") })
	since := s.Total()
	s.Write([]byte("echo x > " + outside + "/pty; echo x > inside; sleep 1000 & echo job $!\r"))
	if by := s.Wait(t.Context(), WaitSpec{Since: since, Quiet: 5 * time.Second}); by != DonePrompt {
		t.Fatalf("wait ended by %s", by)
	}
	if _, err := os.Stat(filepath.Join(outside, "pty")); err == nil {
		t.Error("a PTY session wrote outside the workspace")
	}
	if _, err := os.Stat(filepath.Join(ws, "inside")); err != nil {
		t.Errorf("a PTY session could not write inside: %v", err)
	}
	pid := s.Pid()
	if _, err := m.Close(s.ID()); err != nil {
		t.Fatal(err)
	}
	if sessionAlive(pid) {
		t.Error("the sandboxed terminal session outlived Close")
	}

	// A session's own wrapper wins: a person's pane runs as it is.
	p := open(t, m, OpenSpec{Command: "echo x > " + outside + "/pane", WorkDir: ws, Wrap: Unconfined})
	waitDone(t, p)
	if _, err := os.Stat(filepath.Join(outside, "pane")); err != nil {
		t.Errorf("an unconfined session was confined: %v", err)
	}
}
