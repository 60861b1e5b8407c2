package sandbox

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// The person's terminal (here a pty the test holds, as the person's
// terminal emulator holds theirs) cannot be opened from the sandbox, for
// writing (painting over the TUI) or for reading (taking the person's
// keys); a terminal the sandboxed program makes itself works, and a
// program given a terminal (an agent's shell session) keeps using it.
func TestH16_ThePersonsTerminalsAreOutOfReach(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := newSandbox(t, f.policy(), Options{})
	person, personTTY, err := pty.Open()
	if err != nil {
		t.Skip("no pseudo-terminals here:", err)
	}
	defer person.Close()
	defer personTTY.Close()
	name := personTTY.Name()

	// Unsandboxed, the same open works: the test can fail.
	if out, err := exec.Command("python3", "-c", "import os; os.write(os.open('"+name+"', os.O_WRONLY|os.O_NOCTTY), b'')").CombinedOutput(); err != nil {
		t.Fatalf("outside the sandbox the person's terminal cannot be opened either: %v %s", err, out)
	}
	painted := collect(person)
	for _, script := range []string{
		`echo PAINTED > ` + name,
		`python3 -c "import os; os.write(os.open('` + name + `', os.O_RDWR|os.O_NOCTTY), b'PAINTED')"`,
		`python3 -c "import os; os.open('` + name + `', os.O_RDONLY|os.O_NOCTTY|os.O_NONBLOCK)"`,
		`ls /dev/pts/ | grep -qx "` + strings.TrimPrefix(name, "/dev/pts/") + `"`,
	} {
		mustFail(t, s, f.ws, script)
	}
	time.Sleep(300 * time.Millisecond) // what was written is already queued; let the reader take it
	if got := painted(); got != "" {
		t.Errorf("a sandboxed command wrote to the person's terminal: %q", got)
	}

	mustPass(t, s, f.ws, `python3 -c "import os, pty; m, s = pty.openpty(); os.write(m, b'x\n'); assert os.read(s, 2) == b'x\n'"`)

	session, sessionTTY, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	cmd := exec.Command("bash", "-c", `[ -t 0 ] && echo on-a-terminal; echo via-dev-tty > /dev/tty`)
	cmd.Dir = f.ws
	cmd.Stdin, cmd.Stdout, cmd.Stderr = sessionTTY, sessionTTY, sessionTTY
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	release, err := s.Wrap(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sessionTTY.Close()
	output := collect(session)
	cmd.Wait()
	release()
	var got string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && !strings.Contains(got, "via-dev-tty"); {
		time.Sleep(20 * time.Millisecond)
		got = output()
	}
	if !strings.Contains(got, "on-a-terminal") || !strings.Contains(got, "via-dev-tty") {
		t.Errorf("a program given a terminal lost it in the sandbox: %q", got)
	}
}

// collect reads a pty master in the background (its reads do not honour
// deadlines) and returns what has arrived so far.
func collect(master *os.File) func() string {
	var mu sync.Mutex
	var b bytes.Buffer
	go func() {
		buf := make([]byte, 256)
		for {
			n, err := master.Read(buf)
			mu.Lock()
			b.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return func() string {
		mu.Lock()
		defer mu.Unlock()
		return b.String()
	}
}
