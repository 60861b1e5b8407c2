package sandbox

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// serveHello listens on a Unix socket at path and answers every connection
// with "hello": a server outside the sandbox, as ssh-agent or a session
// bus would be.
func serveHello(t *testing.T, path string) {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello"))
			c.Close()
		}
	}()
}

const connectScript = `python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
print(s.recv(5).decode())
' `

func TestH16_UnixSocketsOutsideAreOutOfReach(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	sock := filepath.Join(f.ws, "agent.sock")
	serveHello(t, sock)

	closed := newSandbox(t, f.policy(), Options{})
	out := mustFail(t, closed, f.ws, connectScript+sock)
	if !strings.Contains(out, "PermissionError") {
		t.Errorf("connecting to %s in the sandbox: want a permission error, got %q", sock, out)
	}
	// A connected pair reaches nothing outside, and programs use it.
	mustPass(t, closed, f.ws, `python3 -c 'import socket; a, b = socket.socketpair(); a.send(b"x"); assert b.recv(1) == b"x"'`)

	p := f.policy()
	p.AllowAllUnixSockets = true
	open := newSandbox(t, p, Options{})
	if out := mustPass(t, open, f.ws, connectScript+sock); strings.TrimSpace(out) != "hello" {
		t.Errorf("with allowAllUnixSockets the socket answered %q", out)
	}
}

func TestH16_ATmuxServerCannotRunCommandsForTheSandbox(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	f := newFixture(t)
	sock := filepath.Join(scratch(t), "tmux.sock")
	start := exec.Command("tmux", "-S", sock, "-f", "/dev/null", "new-session", "-d", "sleep 600")
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })
	marker := filepath.Join(f.outside, "escaped")
	escape := "tmux -S " + sock + " new-window -d 'touch " + marker + "'"

	mustFail(t, newSandbox(t, f.policy(), Options{}), f.ws, escape)
	time.Sleep(500 * time.Millisecond) // the window's command would have run by now
	if exists(marker) {
		t.Fatal("a sandboxed command had the person's tmux server create a file outside the sandbox")
	}
	// The same command outside the sandbox does create it: the test can fail.
	mustPass(t, newSandbox(t, Policy{Mode: Off}, Options{}), f.ws, escape)
	for end := time.Now().Add(10 * time.Second); !exists(marker) && time.Now().Before(end); {
		time.Sleep(50 * time.Millisecond)
	}
	if !exists(marker) {
		t.Fatal("unsandboxed, tmux did not run the command either, so the check above proves nothing")
	}
}

func TestH16_IOUringIsRefused(t *testing.T) {
	t.Parallel()
	if b, _ := os.ReadFile("/proc/sys/kernel/io_uring_disabled"); strings.TrimSpace(string(b)) == "2" {
		t.Skip("io_uring is disabled on this machine")
	}
	f := newFixture(t)
	// io_uring_setup(1, params) with zeroed params: a ring, or EPERM.
	const setup = `python3 -c '
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
params = ctypes.create_string_buffer(120)
fd = libc.syscall(425, 1, params)
print("errno", ctypes.get_errno() if fd < 0 else 0)
'`
	if out := mustPass(t, newSandbox(t, Policy{Mode: Off}, Options{}), f.ws, setup); !strings.Contains(out, "errno 0") {
		t.Skipf("io_uring_setup fails outside the sandbox too: %s", out)
	}
	if out := mustPass(t, newSandbox(t, f.policy(), Options{}), f.ws, setup); !strings.Contains(out, "errno 1\n") {
		t.Errorf("io_uring_setup in the sandbox: want EPERM (1), got %q", out)
	}
}
