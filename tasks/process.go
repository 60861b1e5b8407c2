package tasks

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// DefaultGrace is how long a process group has to exit after SIGTERM before
// it gets SIGKILL: enough for a test runner or a compiler to clean up, short
// enough that an interrupt still feels immediate.
const DefaultGrace = 2 * time.Second

// DrainWait bounds how long output is still read once the process group is
// gone. Only a process that left the group (setsid, an ssh ControlPersist
// master) can still hold the pipe then, and it must not hold the caller
// too; a caller that bounds its own wait for a Process adds it.
const DrainWait = 500 * time.Millisecond

// reapPoll is how often a group being stopped is checked for survivors.
const reapPoll = 10 * time.Millisecond

// readBuffer is the size of each read from the output pipe: large reads keep
// the per-byte cost of a command that prints gigabytes close to a plain copy.
const readBuffer = 256 << 10

// ProcessSpec says what StartProcess runs, where, and where its output goes.
type ProcessSpec struct {
	// Command is a shell command line, run with Shell -c.
	Command string
	// Shell is the shell's path; empty means bash, or /bin/sh where bash
	// is not installed.
	Shell string
	// Dir is the working directory; empty means the current one.
	Dir string
	// Env holds KEY=VALUE entries added after InheritedEnv() and the
	// non-interactive defaults (see NonInteractiveEnv); a later entry for
	// the same key wins.
	Env []string
	// Output receives stdout and stderr as they arrive, interleaved in the
	// order the process wrote them (both are the same pipe). It is called
	// from one goroutine only, with a slice that is reused after Write
	// returns. Nil discards the output.
	Output io.Writer
	// Grace is the time between SIGTERM and SIGKILL when the group is
	// stopped; zero means DefaultGrace.
	Grace time.Duration
	// Wrap, when set, puts the command into the sandbox before it starts.
	Wrap Wrapper
}

// Exit is how a process ended.
type Exit struct {
	// Code is the shell's exit status, or -1 when a signal ended it.
	Code int
	// Signal is the signal that ended the shell, or 0.
	Signal syscall.Signal
	// Stopped says the group was stopped (Stop, or the context ended)
	// before the shell exited on its own.
	Stopped bool
	// Duration runs from start until the output was fully read.
	Duration time.Duration
	// Bytes is the number of output bytes read.
	Bytes int64
	// Err is a failure other than the exit status: waiting failed, or
	// Output returned an error (the rest of the output was then dropped).
	Err error
}

// Process is a shell command running in its own session and process group,
// so that stopping it reaches everything it started (H14). Every goroutine a
// Process starts has ended when Wait returns. Foreground Bash calls and
// background tasks share it, so both stop the same way.
type Process struct {
	proc Proc
	// release frees what the wrapper set up, once the group is gone.
	release func()
	pgid    int
	grace   time.Duration
	start   time.Time
	out     *os.File // read end of the output pipe
	stop    chan struct{}
	done    chan struct{}
	exit    Exit
}

// StartProcess runs s.Command. Its stdin is /dev/null and it has no
// controlling terminal (it is made a session leader), so nothing it runs can
// read a password from the person's terminal or stop on SIGTTIN: a program
// that wants an answer fails at once instead of hanging. When ctx ends, the
// whole process group is stopped as by Stop.
func StartProcess(ctx context.Context, s ProcessSpec) (*Process, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.Dir != "" {
		// exec reports a bad directory as the shell not being found.
		if fi, err := os.Stat(s.Dir); err != nil {
			return nil, fmt.Errorf("working directory: %w", err)
		} else if !fi.IsDir() {
			return nil, fmt.Errorf("working directory %s is not a directory", s.Dir)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("output pipe: %w", err)
	}
	growPipe(w)
	sh := s.Shell
	if sh == "" {
		sh = shellPath()
	}
	cmd := exec.Command(sh, "-c", s.Command)
	cmd.Dir = s.Dir
	cmd.Env = environ(s.Env)
	cmd.Stdout, cmd.Stderr = w, w // one pipe: arrival order is kept
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	p := &Process{grace: s.Grace, out: r,
		stop: make(chan struct{}), done: make(chan struct{}),
	}
	if p.grace <= 0 {
		p.grace = DefaultGrace
	}
	p.start = time.Now()
	proc, release, err := start(s.Wrap, cmd)
	w.Close() // the child holds its own copy; EOF comes when every holder exits
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	p.proc, p.release, p.pgid = proc, release, proc.Pid()
	output := s.Output
	if output == nil {
		output = io.Discard
	}
	read := make(chan readResult, 1)
	go func() { read <- pump(r, output) }()
	go p.supervise(ctx, read)
	return p, nil
}

// Pid is the shell's process id, which is also its process group id.
func (p *Process) Pid() int { return p.pgid }

// Stop ends the process group: SIGTERM to every member, SIGKILL to those
// left after the grace period. It returns at once; Wait tells when it is
// over. Calling it again, or after the process ended, does nothing.
func (p *Process) Stop() {
	select {
	case <-p.stop:
	default:
		close(p.stop)
	}
}

// Done is closed when the process has ended and all its output was read.
func (p *Process) Done() <-chan struct{} { return p.done }

// Wait blocks until the process has ended, its group is gone and its output
// was read, and says how it ended.
func (p *Process) Wait() Exit {
	<-p.done
	return p.exit
}

type readResult struct {
	n   int64
	err error
}

// pump copies the pipe to w with large reads and no intermediate copy. A
// writer error stops the copying to w but not the reading, so the process
// never blocks on a full pipe.
func pump(r *os.File, w io.Writer) readResult {
	buf := make([]byte, readBuffer)
	var res readResult
	for {
		n, err := r.Read(buf)
		if n > 0 {
			res.n += int64(n)
			if res.err == nil {
				if _, werr := w.Write(buf[:n]); werr != nil {
					res.err = fmt.Errorf("output: %w", werr)
				}
			}
		}
		if err != nil {
			// io.EOF: every writer is gone; os.ErrClosed: supervise
			// gave up waiting for a process outside the group.
			return res
		}
	}
}

// supervise owns the process from start to end: it is the only goroutine
// that signals the group, so no signal is sent after the group was cleared.
func (p *Process) supervise(ctx context.Context, read <-chan readResult) {
	defer close(p.done)
	defer p.release()
	type waitResult struct {
		ws  syscall.WaitStatus
		err error
	}
	waited := make(chan waitResult, 1)
	go func() {
		ws, err := p.proc.Wait()
		waited <- waitResult{ws, err}
	}()

	var waitErr waitResult
	var deadline time.Time
	select {
	case waitErr = <-waited:
	case <-ctx.Done():
		p.exit.Stopped = true
	case <-p.stop:
		p.exit.Stopped = true
	}
	if p.exit.Stopped {
		deadline = time.Now().Add(p.grace)
		p.signal(syscall.SIGTERM)
		t := time.NewTimer(p.grace)
		select {
		case waitErr = <-waited:
		case <-t.C:
			p.signal(syscall.SIGKILL)
			waitErr = <-waited
		}
		t.Stop()
	}
	p.exit.Code, p.exit.Signal, p.exit.Err = status(waitErr.ws, waitErr.err)

	// The shell is gone; what it left running in its group is stopped too,
	// since a command owns everything it started.
	if deadline.IsZero() {
		deadline = time.Now().Add(p.grace)
	}
	p.clearGroup(deadline)

	var res readResult
	t := time.NewTimer(DrainWait)
	select {
	case res = <-read:
	case <-t.C:
		p.out.Close() // unblocks the read
		res = <-read
	}
	t.Stop()
	p.out.Close()
	p.exit.Bytes = res.n
	if p.exit.Err == nil {
		p.exit.Err = res.err
	}
	p.exit.Duration = time.Since(p.start)
}

// clearGroup stops what is left of the group after the shell exited: SIGTERM
// at once, SIGKILL at the deadline. It returns when no member is running, or
// shortly after SIGKILL if one still seems to be (see groupLive).
func (p *Process) clearGroup(deadline time.Time) {
	if !groupLive(p.pgid) {
		return
	}
	p.signal(syscall.SIGTERM)
	killed := false
	for {
		time.Sleep(reapPoll)
		if !groupLive(p.pgid) {
			return
		}
		now := time.Now()
		switch {
		case !killed && now.After(deadline):
			p.signal(syscall.SIGKILL)
			killed = true
			deadline = now.Add(DrainWait)
		case killed && now.After(deadline):
			return
		}
	}
}

// signal sends sig to the whole group and reports whether any member was
// there to receive it.
func (p *Process) signal(sig syscall.Signal) bool {
	return syscall.Kill(-p.pgid, sig) == nil
}

// status reads an exit status out of Wait's result.
func status(ws syscall.WaitStatus, err error) (code int, sig syscall.Signal, other error) {
	if err != nil {
		return -1, 0, fmt.Errorf("wait: %w", err)
	}
	if ws.Signaled() {
		return -1, ws.Signal(), nil
	}
	return ws.ExitStatus(), 0, nil
}

// shellPath prefers bash, the shell models write for, and falls back to the
// POSIX shell every Unix has.
func shellPath() string {
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "/bin/sh"
}
