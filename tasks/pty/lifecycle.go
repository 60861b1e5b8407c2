package pty

import (
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"

	"github.com/seed92b641c3/workbench/tasks"
)

// The life of a session: starting the program, the reader that feeds the
// screen, the writer of query answers, and the end (exit or close), after
// which nothing the session started is left running (H14).

// start runs the program; the manager registers the session afterwards.
func start(m *Manager, id string, spec OpenSpec) (*Session, error) {
	rows, cols := spec.Rows, spec.Cols
	if rows <= 0 {
		rows = m.opts.DefaultRows
	}
	if cols <= 0 {
		cols = m.opts.DefaultCols
	}
	if rows > MaxRows || cols > MaxCols {
		return nil, fmt.Errorf("terminal size %dx%d is larger than %dx%d", rows, cols, MaxRows, MaxCols)
	}
	argv := spec.Argv
	if len(argv) == 0 {
		if spec.Command == "" {
			return nil, errors.New("nothing to run: no command")
		}
		argv = []string{shellPath(), "-c", spec.Command}
	}
	master, slave, err := openPTY(rows, cols)
	if err != nil {
		return nil, fmt.Errorf("open pty: %w", err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = spec.WorkDir
	cmd.Env = m.environ(spec.Env)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	// A session of its own with the pty as controlling terminal: the
	// program gets job control and SIGWINCH, and its session can be
	// signalled as a whole (H14).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	proc, release, err := startCommand(m.opts.Wrap, spec.Wrap, cmd)
	slave.Close() // the child has it; holding it here would hide the end of output
	if err != nil {
		master.Close()
		return nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	explain := m.opts.Explain
	if spec.Wrap != nil {
		explain = spec.Explain
	}
	s := &Session{
		id: id, spec: spec, started: time.Now(), proc: proc, release: release, explain: explain, pid: proc.Pid(),
		master: master, mgr: m,
		replies:    make(chan []byte, replyQueue),
		pulse:      make(chan struct{}),
		rows:       rows,
		cols:       cols,
		state:      Running,
		changed:    make(chan struct{}, 1),
		readerDone: make(chan struct{}),
		done:       make(chan struct{}),
		stop:       make(chan struct{}),
	}
	s.lastOutput = s.started
	s.feed, s.vt = newTerminal(rows, cols, s.queueReply)
	s.feed.fast = !m.opts.plainFeed
	s.wg.Add(3)
	go s.readLoop()
	go s.waitLoop()
	go s.replyLoop()
	return s, nil
}

// startCommand starts cmd with the session's wrapper, or the manager's
// when the session names none, or as it is when neither does. release is
// never nil when err is.
func startCommand(def, own Wrapper, cmd *exec.Cmd) (tasks.Proc, func(), error) {
	w := def
	if own != nil {
		w = own
	}
	if w == nil {
		w = Unconfined
	}
	p, release, err := w(cmd)
	if err == nil && release == nil {
		release = func() {}
	}
	return p, release, err
}

// shellPath is bash, or sh where bash is not installed.
func shellPath() string {
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "/bin/sh"
}

// queueReply hands an answer to a terminal query to the writer goroutine;
// the reader never waits for the program to read its input.
func (s *Session) queueReply(b []byte) {
	select {
	case s.replies <- b:
	default: // the program is not reading its input; it will not miss these
	}
}

func (s *Session) replyLoop() {
	defer s.wg.Done()
	for {
		select {
		case b := <-s.replies:
			_, _ = s.writeTerminal(b)
		case <-s.stop:
			return
		}
	}
}

// readLoop is the one goroutine that reads the pty and feeds the screen.
// It reads what is waiting without blocking, up to drainBudget, before it
// brings the screen up to date, so a flood is handled in large batches.
func (s *Session) readLoop() {
	defer s.wg.Done()
	defer close(s.readerDone)
	buf := make([]byte, readSize)
	rc, err := s.master.SyscallConn()
	if err != nil {
		return
	}
	for {
		n, err := s.master.Read(buf)
		if n > 0 {
			s.consume(buf[:n])
		}
		for budget := drainBudget - n; err == nil && budget > 0; {
			n, err = tryRead(rc, buf)
			if n == 0 {
				break
			}
			s.consume(buf[:n])
			budget -= n
		}
		s.publish()
		if err != nil {
			// EIO (every holder of the terminal is gone), EOF, or the
			// master was closed: the end of the stream either way.
			return
		}
	}
}

// consume records output and hands it to the feeder.
func (s *Session) consume(p []byte) {
	s.mu.Lock()
	s.out.write(p)
	s.lastOutput = time.Now()
	s.mu.Unlock()
	s.feedMu.Lock()
	s.feed.write(p)
	s.feedMu.Unlock()
}

// publish brings the screen up to date and tells whoever waits.
func (s *Session) publish() {
	s.feedMu.Lock()
	s.feed.flush()
	bracketed := s.feed.bracketed
	s.feedMu.Unlock()
	s.mu.Lock()
	s.modes.BracketedPaste = bracketed
	close(s.pulse)
	s.pulse = make(chan struct{})
	s.mu.Unlock()
	s.signalChanged()
}

func (s *Session) signalChanged() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// outputSignal returns a channel closed at the next output.
func (s *Session) outputSignal() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pulse
}

// waitLoop reaps the program, lets the last output arrive, and ends the
// session's life: anything the program left running in its terminal
// session is stopped (H14).
func (s *Session) waitLoop() {
	defer s.wg.Done()
	code := exitCode(s.proc.Wait())
	s.drainAfterExit()
	if !isClosed(s.readerDone) || sessionAlive(s.pid) {
		// Something outlived the program: the session is over, and nobody
		// would track what is left (H14).
		s.endSession()
	}
	<-s.readerDone
	s.master.Close()
	s.release()
	s.mu.Lock()
	if s.state == Running {
		s.state = Exited
	}
	s.code = code
	s.ended = time.Now()
	s.mu.Unlock()
	close(s.done)
	// Nothing is written to an ended program: the reply writer can go,
	// so a session dropped from the list without Close leaks nothing.
	s.stopOnce.Do(func() { close(s.stop) })
	s.signalChanged()
	s.mgr.publish(Event{Kind: EventExited, ID: s.id, Code: code})
}

// drainAfterExit waits for the end of output after the program exited:
// until the reader ends, output has been quiet for exitQuiet, or
// exitDrainMax passed.
func (s *Session) drainAfterExit() {
	deadline := time.NewTimer(exitDrainMax)
	defer deadline.Stop()
	for {
		wait := exitQuiet - s.Idle()
		if wait <= 0 {
			return
		}
		t := time.NewTimer(wait)
		select {
		case <-s.readerDone:
			t.Stop()
			return
		case <-deadline.C:
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// endSession stops every process of the terminal session, politely first,
// and closes the master so the reader wakes up whatever is left.
func (s *Session) endSession() {
	signalSession(s.pid, syscall.SIGHUP)
	signalSession(s.pid, syscall.SIGCONT) // stopped jobs must run to see the hangup
	grace := time.NewTimer(s.mgr.opts.KillGrace)
	defer grace.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for sessionAlive(s.pid) {
		select {
		case <-grace.C:
			signalSession(s.pid, syscall.SIGKILL)
			s.master.Close()
			// SIGKILL cannot be refused, but dying takes a moment.
			for i := 0; i < 100 && sessionAlive(s.pid); i++ {
				<-tick.C
			}
			return
		case <-tick.C:
		}
	}
	s.master.Close()
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// close stops the session: the program and everything in its terminal
// session get SIGHUP, then SIGKILL after the manager's grace, and every
// goroutine of the session has ended when close returns.
func (s *Session) close() {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		running := s.state == Running
		if running {
			s.state = Closed
		}
		s.mu.Unlock()
		if running {
			s.endSession()
		}
		<-s.done
		s.stopOnce.Do(func() { close(s.stop) })
		s.wg.Wait()
	})
}

// exitCode turns a wait result into a shell-style exit code.
func exitCode(ws syscall.WaitStatus, err error) int {
	switch {
	case err != nil && ws == 0:
		return -1
	case ws.Signaled():
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}
