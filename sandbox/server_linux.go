package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/seed92b641c3/workbench/sandbox/launcher"
	"github.com/seed92b641c3/workbench/tasks/proc"
)

// The session's sandbox server: the launcher started once, in the
// namespaces every command of the session shares, which starts each
// command in a mount namespace and Landlock domain of its own (see package
// launcher's serve_linux.go). A command then costs a fork and the set-up
// of its own sandbox, not new namespaces and a Go runtime's start.

// serve starts the session's server and makes the start-up check with it:
// the check Probe makes, with the same answers (an error that wraps
// ErrInconclusive says nothing about the kernel).
func (b *linuxBackend) serve(r Resolved, slow bool) (commandServer, error) {
	if err := b.precheck(); err != nil {
		return nil, err
	}
	c, err := startServer(b.launcher, r.Net)
	if err != nil {
		if cloneRefused(err) {
			return nil, fmt.Errorf("the kernel refuses unprivileged user namespaces (%v)", err)
		}
		return nil, fmt.Errorf("%w: cannot start the sandbox server: %v", ErrInconclusive, err)
	}
	timeout := probeTimeout
	spec := specFor(r, true)
	if slow {
		timeout, spec.Stall = 100*time.Millisecond, true
	}
	if err := c.check(spec, timeout); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// serverClient is Workbench's side of a running server.
type serverClient struct {
	conn *net.UnixConn
	cmd  *exec.Cmd
	// stderr is what the server wrote, read once it has exited.
	stderr bytes.Buffer
	// exited is closed once the server was reaped, with exitErr.
	exited  chan struct{}
	exitErr error
	// gone is closed when the control socket has ended: no reply comes
	// after it.
	gone chan struct{}

	mu      sync.Mutex
	next    uint64
	waiting map[uint64]chan launcher.Reply
}

// startServer starts the server in new namespaces.
func startServer(exe string, netMode NetworkMode) (*serverClient, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "sandbox-server"), os.NewFile(uintptr(fds[1]), "sandbox-control")
	defer theirs.Close()
	fc, err := net.FileConn(ours)
	ours.Close()
	if err != nil {
		return nil, err
	}
	js, err := json.Marshal(launcher.ServerSpec{Net: netMode})
	if err != nil {
		fc.Close()
		return nil, err
	}
	c := &serverClient{conn: fc.(*net.UnixConn), exited: make(chan struct{}), gone: make(chan struct{}),
		waiting: map[uint64]chan launcher.Reply{}}
	c.cmd = exec.Command(exe, Subcommand, launcher.ServeArg, string(js))
	c.cmd.ExtraFiles = []*os.File{theirs} // launcher.ControlFD
	c.cmd.Stderr = &c.stderr
	c.cmd.SysProcAttr = &syscall.SysProcAttr{}
	inNamespaces(c.cmd.SysProcAttr, netMode)
	if err := c.cmd.Start(); err != nil {
		c.conn.Close()
		return nil, err
	}
	go func() {
		c.exitErr = c.cmd.Wait()
		close(c.exited)
	}()
	go c.read()
	return c, nil
}

// read hands each reply to the request waiting for it, until the socket
// ends (the server exited, or close).
func (c *serverClient) read() {
	defer close(c.gone)
	buf := make([]byte, 64<<10)
	for {
		n, _, _, _, err := c.conn.ReadMsgUnix(buf, nil)
		if err != nil || n == 0 {
			return
		}
		var r launcher.Reply
		if json.Unmarshal(buf[:n], &r) != nil {
			continue
		}
		c.mu.Lock()
		ch := c.waiting[r.ID]
		if r.Done || r.Err != "" {
			delete(c.waiting, r.ID)
		}
		c.mu.Unlock()
		if ch != nil {
			ch <- r // never blocks: room for both replies
		}
	}
}

// pid is the server's process id.
func (c *serverClient) pid() int { return c.cmd.Process.Pid }

// close ends the server: it stops the commands still running and exits
// when its control socket ends.
func (c *serverClient) close() {
	c.conn.Close()
	<-c.exited
}

// send sends req with files and returns the channel its replies come on.
func (c *serverClient) send(req launcher.Request, files []int) (chan launcher.Reply, error) {
	select {
	case <-c.gone:
		return nil, errNotServed
	default:
	}
	ch := make(chan launcher.Reply, 2)
	c.mu.Lock()
	c.next++
	req.ID = c.next
	c.waiting[req.ID] = ch
	c.mu.Unlock()
	forget := func() {
		c.mu.Lock()
		delete(c.waiting, req.ID)
		c.mu.Unlock()
	}
	js, err := json.Marshal(req)
	if err != nil {
		forget()
		return nil, err
	}
	if len(js) > launcher.MaxMessage || len(files) > launcher.MaxFiles {
		forget()
		return nil, errNotServed
	}
	var oob []byte
	if len(files) > 0 {
		oob = unix.UnixRights(files...)
	}
	if _, _, err := c.conn.WriteMsgUnix(js, oob, nil); err != nil {
		forget()
		if errors.Is(err, syscall.EMSGSIZE) || errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.EPIPE) {
			return nil, errNotServed
		}
		return nil, err
	}
	return ch, nil
}

// reply waits for the next reply on ch; ok is false when the server ended
// first.
func (c *serverClient) reply(ch chan launcher.Reply) (launcher.Reply, bool) {
	select {
	case r := <-ch:
		return r, true
	case <-c.gone:
		select { // a reply read before the end is still there
		case r := <-ch:
			return r, true
		default:
			return launcher.Reply{}, false
		}
	}
}

// check is the start-up check: the server sets a command's sandbox up
// with the real policy, without starting a command.
func (c *serverClient) check(spec launcher.Spec, timeout time.Duration) error {
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInconclusive, err)
	}
	defer devNull.Close()
	fd := int(devNull.Fd())
	ch, err := c.send(launcher.Request{Spec: spec, Files: 3}, []int{fd, fd, fd})
	if err != nil {
		return fmt.Errorf("%w: cannot reach the sandbox server: %v", ErrInconclusive, err)
	}
	answered := make(chan launcher.Reply, 1)
	ended := make(chan struct{})
	go func() {
		if r, ok := c.reply(ch); ok {
			answered <- r
			return
		}
		close(ended)
	}()
	select {
	case r := <-answered:
		switch {
		case r.Err == "":
			return nil
		case r.Refused:
			return fmt.Errorf("the launcher failed: %s", r.Err)
		}
		return fmt.Errorf("%w: the launcher failed: %s", ErrInconclusive, r.Err)
	case <-ended:
		<-c.exited
		msg := strings.TrimSpace(c.stderr.String())
		msg = strings.TrimPrefix(msg, "workbench sandbox: ")
		msg = strings.TrimSuffix(msg, "; the command did not run")
		if msg == "" && c.exitErr != nil {
			msg = c.exitErr.Error()
		}
		var ee *exec.ExitError
		if errors.As(c.exitErr, &ee) && ee.ExitCode() == launcher.Exit {
			return fmt.Errorf("the launcher failed: %s", msg)
		}
		return fmt.Errorf("%w: the sandbox server ended: %s", ErrInconclusive, msg)
	case <-time.After(timeout):
		return fmt.Errorf("%w: the launcher did not answer within %v", ErrInconclusive, timeout)
	}
}

// start starts cmd through the server, confined by r.
func (c *serverClient) start(cmd *exec.Cmd, r Resolved, proxy *Proxy) (proc.Proc, func(), error) {
	if cmd.Process != nil {
		return nil, nil, errors.New("sandbox: the command has already started")
	}
	if cmd.Err != nil {
		return nil, nil, cmd.Err
	}
	req, ok := requestFor(cmd)
	if !ok {
		return nil, nil, errNotServed
	}
	req.Spec = specFor(r, false)
	p := &servedProc{done: make(chan struct{})}
	files, sent, err := p.childFiles(cmd)
	if err != nil {
		return nil, nil, err
	}
	defer sent()
	release := func() {}
	if r.Net == NetDomains {
		theirs, stop, err := proxyPair(proxy)
		if err != nil {
			p.abandon()
			return nil, nil, err
		}
		defer theirs.Close()
		req.Spec.ProxyFD = len(files)
		files = append(files, int(theirs.Fd()))
		release = stop
	}
	req.Files = len(files)
	ch, err := c.send(req, files)
	if err != nil {
		release()
		p.abandon()
		return nil, nil, err
	}
	sent()
	first, ok := c.reply(ch)
	switch {
	case !ok:
		first.Err = "the sandbox server ended before the command started"
	case first.Err == "" && first.Done:
		first.Err = "the sandbox server answered out of turn"
	}
	if first.Err != "" {
		release()
		p.abandon()
		return nil, nil, errors.New(first.Err)
	}
	p.pid = first.Pid
	go func() {
		defer close(p.done)
		last, ok := c.reply(ch)
		if !ok {
			p.err = errors.New("the sandbox server ended before the command did")
			return
		}
		p.status = syscall.WaitStatus(last.Status)
		p.cpu = time.Duration(last.UserUsec+last.SysUsec) * time.Microsecond
	}()
	return p, release, nil
}

// requestFor is the request that starts cmd, without its spec and files;
// ok is false when cmd asks for what the server does not do (credentials,
// namespaces, a foreground process group...).
func requestFor(cmd *exec.Cmd) (launcher.Request, bool) {
	req := launcher.Request{Path: cmd.Path, Argv: cmd.Args, Env: cmd.Environ(), Dir: cmd.Dir}
	if len(req.Argv) == 0 {
		req.Argv = []string{cmd.Path}
	}
	if req.Dir == "" || !filepath.IsAbs(req.Dir) {
		// The server's thread that starts the command has its own
		// mounts: the directory is entered again below them.
		wd, err := filepath.Abs(req.Dir)
		if err != nil {
			return req, false
		}
		req.Dir = wd
	}
	if a := cmd.SysProcAttr; a != nil {
		rest := *a
		req.Setsid, req.Setpgid, req.Pgid = a.Setsid, a.Setpgid, a.Pgid
		req.Setctty, req.Noctty, req.Ctty = a.Setctty, a.Noctty, a.Ctty
		rest.Setsid, rest.Setpgid, rest.Pgid, rest.Setctty, rest.Noctty, rest.Ctty = false, false, 0, false, false, 0
		if !reflect.ValueOf(rest).IsZero() {
			return req, false
		}
	}
	for _, f := range cmd.ExtraFiles {
		if f == nil {
			return req, false
		}
	}
	return req, true
}

// servedProc is a command the server started: a child of the server, not
// of Workbench, so its end comes in the server's reply.
type servedProc struct {
	pid  int
	done chan struct{}
	// status, cpu and err are set before done is closed.
	status syscall.WaitStatus
	cpu    time.Duration
	err    error
	// copying counts the goroutines that copy between the command's
	// pipes and writers or readers that are not files.
	copying sync.WaitGroup
	// readEnds are the copy pipes' ends on Workbench's side.
	readEnds []*os.File
	copyErr  error
	copyMu   sync.Mutex
}

func (p *servedProc) Pid() int { return p.pid }

func (p *servedProc) Wait() (syscall.WaitStatus, error) {
	<-p.done
	p.copying.Wait()
	err := p.err
	if err == nil {
		err = p.copyErr
	}
	return p.status, err
}

// CPU is the command's own CPU time, with its children's that it waited
// for (the server reads it from wait4): what a benchmark reports.
func (p *servedProc) CPU() time.Duration {
	<-p.done
	return p.cpu
}

// abandon undoes childFiles when the command did not start.
func (p *servedProc) abandon() {
	for _, f := range p.readEnds {
		f.Close()
	}
	p.copying.Wait()
}

// childFiles are the descriptors the command gets as 0, 1, 2 and its
// extra files, as exec.Cmd makes them: /dev/null for a nil stream, the
// file itself for an *os.File, a pipe copied to or from anything else.
// sent closes what was opened for the command once the server has its
// copies (calling it again does nothing).
func (p *servedProc) childFiles(cmd *exec.Cmd) (fds []int, sent func(), err error) {
	var opened []*os.File
	var once sync.Once
	sent = func() {
		once.Do(func() {
			for _, f := range opened {
				f.Close()
			}
		})
	}
	fail := func(err error) ([]int, func(), error) {
		sent()
		p.abandon()
		return nil, nil, err
	}
	var outPipe *os.File // stdout's pipe, which stderr shares when it is the same writer
	for i, stream := range []any{cmd.Stdin, cmd.Stdout, cmd.Stderr} {
		switch s := stream.(type) {
		case nil:
			flag := os.O_WRONLY
			if i == 0 {
				flag = os.O_RDONLY
			}
			f, err := os.OpenFile(os.DevNull, flag, 0)
			if err != nil {
				return fail(err)
			}
			opened = append(opened, f)
			fds = append(fds, int(f.Fd()))
		case *os.File:
			fds = append(fds, int(s.Fd()))
		default:
			if i == 2 && outPipe != nil && stream == any(cmd.Stdout) {
				fds = append(fds, int(outPipe.Fd()))
				continue
			}
			pr, pw, err := os.Pipe()
			if err != nil {
				return fail(err)
			}
			if i == 0 {
				opened = append(opened, pr)
				fds = append(fds, int(pr.Fd()))
				p.copy(pw, s.(io.Reader), pw)
				continue
			}
			opened = append(opened, pw)
			fds = append(fds, int(pw.Fd()))
			p.readEnds = append(p.readEnds, pr)
			p.copy(s.(io.Writer), pr, pr)
			if i == 1 {
				outPipe = pw
			}
		}
	}
	for _, f := range cmd.ExtraFiles {
		fds = append(fds, int(f.Fd()))
	}
	return fds, sent, nil
}

// copy copies src to dst in a goroutine Wait waits for, and closes c at
// the end; a failure to write is Wait's error, as exec.Cmd's is.
func (p *servedProc) copy(dst io.Writer, src io.Reader, c io.Closer) {
	p.copying.Add(1)
	go func() {
		defer p.copying.Done()
		_, err := io.Copy(dst, src)
		c.Close()
		if err != nil && !errors.Is(err, os.ErrClosed) && !errors.Is(err, syscall.EPIPE) {
			p.copyMu.Lock()
			if p.copyErr == nil {
				p.copyErr = err
			}
			p.copyMu.Unlock()
		}
	}()
}
