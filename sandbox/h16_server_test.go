package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The session's commands start from its sandbox server: the command's
// parent is the server, not Workbench, and it is confined all the same.
func TestH16_CommandsStartFromTheSessionsServer(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := newSandbox(t, f.policy(), Options{})
	if s.srv == nil {
		t.Fatal("no sandbox server runs for an active sandbox")
	}
	out := mustPass(t, s, f.ws, `echo "parent $PPID"; grep '^NoNewPrivs:' /proc/self/status`)
	if !strings.Contains(out, "parent "+strconv.Itoa(s.srv.pid())+"\n") || !strings.Contains(out, "NoNewPrivs:\t1") {
		t.Errorf("the command's status %q: not the server's child %d, or no no_new_privs", out, s.srv.pid())
	}
	mustFail(t, s, f.ws, `echo x > `+f.outside+`/escaped`)
	if exists(filepath.Join(f.outside, "escaped")) {
		t.Error("a command of the server wrote outside the workspace")
	}
}

// The server is outside every command's sandbox: it keeps capabilities
// in the namespaces and is in no Landlock domain. A command may not
// signal it or any of its threads, trace it, read its memory, environment,
// descriptors or root through /proc, or find its control socket.
func TestH16_ACommandCannotReachTheServer(t *testing.T) {
	t.Parallel()
	if runtime.GOARCH != "amd64" {
		t.Skip("the script calls x86-64 system call numbers")
	}
	f := newFixture(t)
	s := newSandbox(t, f.policy(), Options{})
	srv := strconv.Itoa(s.srv.pid())
	// A few commands first, so the server has had threads for others.
	for range 3 {
		mustPass(t, s, f.ws, `true`)
	}
	script := `
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
srv, me = ` + srv + `, ` + strconv.Itoa(os.Getpid()) + `
bad = []
def call(what, *args):
    if libc.syscall(*args) == 0:
        bad.append(what)
for pid in (srv, me):
    try:
        os.kill(pid, 0)
        bad.append("kill %d" % pid)
    except PermissionError:
        pass
tids = os.listdir("/proc/%d/task" % srv)
if not tids:
    bad.append("no threads listed")
for tid in map(int, tids):
    call("tgkill %d" % tid, 234, srv, tid, 0)          # tgkill
    call("tkill %d" % tid, 200, tid, 0)                # tkill
    call("ptrace attach %d" % tid, 101, 16, tid, 0, 0)  # PTRACE_ATTACH
    call("ptrace seize %d" % tid, 101, 0x4206, tid, 0, 0)
names = ["mem", "environ", "root/", "cwd/", "task/%s/mem" % tids[0], "task/%s/environ" % tids[-1]]
# The numbers of its descriptors may be listed; none may be followed.
try:
    names += ["fd/" + fd for fd in os.listdir("/proc/%d/fd" % srv)]
except OSError:
    pass
for name in names:
    path = "/proc/%d/%s" % (srv, name)
    try:
        if name.endswith("/"):
            os.listdir(path)
        elif name.startswith("fd/"):
            os.readlink(path)
            bad.append(path)
            open(path, "rb")
        else:
            open(path, "rb").read(1)
        bad.append(path)
    except OSError:
        pass
listing = os.open("/proc/self/fd", os.O_RDONLY)
for fd in os.listdir(listing):
    try:
        if int(fd) != listing and os.readlink("/proc/self/fd/" + fd).startswith("socket:"):
            bad.append("inherited socket fd %s" % fd)
    except OSError:
        pass
print("REACHED", bad) if bad else print("NONE REACHED")
`
	out := mustPass(t, s, f.ws, `python3 -c '`+script+`'`)
	if !strings.Contains(out, "NONE REACHED") {
		t.Errorf("a command reached the server or Workbench: %s", out)
	}
	// The server is still there and serving.
	mustPass(t, s, f.ws, `true`)
	if err := syscall.Kill(s.srv.pid(), 0); err != nil {
		t.Errorf("the server is gone: %v", err)
	}
}

// Commands of one session started side by side each have their own
// mounts: what the rules hid for one is not hidden or shown for another,
// and each command's writes to a tool cache are in its own layer. A
// command sees the protected paths as they were when it started.
func TestH16_CommandsSideBySideHaveTheirOwnMounts(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cache := filepath.Join(f.home, "go-build")
	os.MkdirAll(cache, 0o755)
	p := f.policy()
	p.Caches = []string{cache}
	late := filepath.Join(f.ws, "late.key")
	p.HideRules = []HideRule{{Rule: "Read(./*.key)", Patterns: []string{f.ws + "/*.key"}}}
	s := newSandbox(t, p, Options{LayersDir: t.TempDir()})

	// first starts before late.key exists and reads it only after second
	// has started, hidden it in its own mounts, read nothing and ended.
	gate := filepath.Join(f.ws, "gate")
	first := exec.Command("bash", "-c", `echo first > `+cache+`/mine
while [ ! -e `+gate+` ]; do sleep 0.05; done
cat `+late+`; echo; ls `+cache)
	first.Dir = f.ws
	var firstOut strings.Builder
	first.Stdout, first.Stderr = &firstOut, &firstOut
	p1, release1, err := s.Start(first)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(late, []byte("key-material\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := mustPass(t, s, f.ws, `cat `+late+` 2>/dev/null; echo second > `+cache+`/mine2; ls `+cache)
	if strings.Contains(out, "key-material") || strings.Contains(out, "mine\n") || !strings.Contains(out, "mine2") {
		t.Errorf("the second command read a file hidden for it, or saw the first's layer: %q", out)
	}
	os.WriteFile(gate, nil, 0o644)
	ws, err := p1.Wait()
	release1()
	if err != nil || ws.ExitStatus() != 0 {
		t.Fatalf("first: %v %v %q", ws, err, firstOut.String())
	}
	if !strings.Contains(firstOut.String(), "key-material") || strings.Contains(firstOut.String(), "mine2") {
		t.Errorf("the first command's mounts changed under it (another's hide or layer): %q", firstOut.String())
	}
	// Many at once, each with its own: every one sees only its own write.
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() {
			name := "n" + strconv.Itoa(i)
			out, code := run(t, s, f.ws, `echo `+name+` > `+cache+`/`+name+`; sleep 0.3; ls `+cache)
			seen := strings.Fields(out)
			if code != 0 || !slices.Contains(seen, name) || slices.ContainsFunc(seen, func(n string) bool { return n != name && strings.HasPrefix(n, "n") }) {
				t.Errorf("command %d saw %q (exit %d), not its own layer alone", i, out, code)
			}
		})
	}
	wg.Wait()
}

// A command that double-forks leaves nothing running once it is stopped
// as Workbench stops one: its process group signalled (H14). The server's
// children are in a user namespace Workbench owns, so Workbench may.
func TestH16_AServedCommandsDoubleForkIsStoppedWithItsGroup(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := newSandbox(t, f.policy(), Options{})
	pids := filepath.Join(f.ws, "pids")
	cmd := exec.Command("bash", "-c", `(sleep 1000 & echo $! >> pids); (bash -c 'sleep 1000 & echo $! >> pids' &); echo $$ >> pids; sleep 1000`)
	cmd.Dir = f.ws
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	p, release, err := s.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	recorded := waitPids(t, pids, 3)
	if err := syscall.Kill(-p.Pid(), syscall.SIGKILL); err != nil {
		t.Fatalf("Workbench cannot signal the command's group: %v", err)
	}
	ws, err := p.Wait()
	if err != nil || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Errorf("Wait = %v, %v; want killed by SIGKILL", ws, err)
	}
	for _, pid := range recorded {
		gone(t, pid)
	}
}

// The server ends when Workbench does, and the commands it runs with it:
// here "Workbench" is this test binary started again as a client, which
// starts a command through its server and is then killed with SIGKILL.
func TestH16_TheServerEndsWithWorkbench(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	client := exec.Command(testLauncher(t), "-test.run=^$")
	client.Env = append(os.Environ(), clientEnv+"="+f.ws, "SANDBOX_TEST_HOME="+f.home)
	stdout, err := client.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	client.Stderr = os.Stderr
	if err := client.Start(); err != nil {
		t.Fatal(err)
	}
	var server, command int
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if _, serr := fmt.Sscanf(line, "server %d command %d", &server, &command); err != nil || serr != nil {
		client.Process.Kill()
		client.Wait()
		t.Fatalf("client said %q: %v %v", line, err, serr)
	}
	client.Process.Kill()
	client.Wait()
	gone(t, server)
	gone(t, command)
	// Close ends them too, without Workbench ending.
	s := newSandbox(t, f.policy(), Options{})
	cmd := exec.Command("sleep", "1000")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	p, release, err := s.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	srv := s.srv.pid()
	s.Close()
	gone(t, srv)
	gone(t, p.Pid())
	if _, err := p.Wait(); err == nil {
		t.Error("Wait of a command whose server ended says nothing of it")
	}
	// A command after Close still runs confined, through the launcher.
	mustFail(t, s, f.ws, `echo x > `+f.outside+`/after-close`)
	if exists(filepath.Join(f.outside, "after-close")) {
		t.Error("a command after Close ran outside the sandbox")
	}
}

// clientEnv makes this test binary a Workbench stand-in for
// TestH16_TheServerEndsWithWorkbench: its value is the workspace.
const clientEnv = "SANDBOX_TEST_CLIENT_WS"

// runClient is that stand-in: it starts a sandbox and `sleep` through its
// server, says both pids and waits to be killed.
func runClient(ws string) {
	s, err := New(Policy{Roots: []string{ws}, Home: os.Getenv("SANDBOX_TEST_HOME"), Caches: []string{}}, Options{})
	if err == nil {
		<-s.Checked()
	}
	if err != nil || s.srv == nil {
		fmt.Println("no server:", err, s.Unavailable(), s.Undecided())
		os.Exit(1)
	}
	cmd := exec.Command("sleep", "1000")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	p, _, err := s.Start(cmd)
	if err != nil {
		fmt.Println("start:", err)
		os.Exit(1)
	}
	fmt.Printf("server %d command %d\n", s.srv.pid(), p.Pid())
	time.Sleep(time.Hour)
}

// The launcher, which starts what the server does not (an MCP stdio
// server's *exec.Cmd), still confines as it did.
func TestH16_TheLauncherStillConfinesWhatTheServerDoesNotStart(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := newSandbox(t, f.policy(), Options{})
	out, code := runLauncher(t, s, f.ws, `grep -E '^Cap(Prm|Eff|Bnd|Amb)' /proc/self/status; echo x > `+f.outside+`/launched; unshare -m true && echo UNSHARED`)
	if code == 0 || exists(filepath.Join(f.outside, "launched")) || strings.Contains(out, "UNSHARED") {
		t.Errorf("the launcher let a write out or a namespace in (exit %d): %s", code, out)
	}
	for line := range strings.Lines(out) {
		if strings.HasPrefix(line, "Cap") && !strings.HasSuffix(strings.TrimSpace(line), "0000000000000000") {
			t.Errorf("a capability is left: %s", line)
		}
	}
	if out := mustFail(t, s, f.ws, `unshare -m true && echo UNSHARED`); strings.Contains(out, "UNSHARED") {
		t.Error("a served command made a mount namespace")
	}
}

// waitPids waits until file holds n pids, and returns them.
func waitPids(t *testing.T, file string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(file)
		var pids []int
		for _, l := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(l); err == nil {
				pids = append(pids, pid)
			}
		}
		if len(pids) >= n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s holds %v, want %d pids", file, pids, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// gone fails the test unless pid ends (or is a zombie) within a few
// seconds.
func gone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return
		}
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && len(stat) > i+2 && (stat[i+2] == 'Z' || stat[i+2] == 'X') {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("process %d still runs: %s", pid, stat)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The start-up check runs in the background (starting the server is the
// check): whatever waits for its answer (AfterCheck: the session's notice)
// has it before the first command starts, and a check that does not
// answer in time still leaves that command confined.
func TestH16_TheStartUpNoticeComesBeforeTheFirstCommand(t *testing.T) {
	t.Setenv(SlowProbeEnv, "1")
	f := newFixture(t)
	s, err := New(f.policy(), Options{Launcher: testLauncher(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	var mu sync.Mutex
	var order []string
	s.AfterCheck(func() {
		mu.Lock()
		order = append(order, "notice: "+s.Notice())
		mu.Unlock()
	})
	out := mustFail(t, s, f.ws, `echo started >> `+filepath.Join(f.ws, "log")+`; echo x > `+f.outside+`/bare`)
	mu.Lock()
	defer mu.Unlock()
	if len(order) != 1 || !strings.Contains(order[0], "did not answer") {
		t.Errorf("the notice before the first command was %q", order)
	}
	if exists(filepath.Join(f.outside, "bare")) || !exists(filepath.Join(f.ws, "log")) {
		t.Errorf("the first command did not run confined: %s", out)
	}
	// A function registered after the answer runs at once.
	ran := false
	s.AfterCheck(func() { ran = true })
	if !ran {
		t.Error("AfterCheck after the answer did not run its function")
	}
}
