package launcher

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// How the server starts a command. Everything a command's sandbox is made
// of belongs to one thread: its mount namespace (unshare(CLONE_NEWNS) from
// one thread of a multithreaded process is allowed, since the file system
// context it implies is copied for that thread), its capabilities, its
// no_new_privs bit, its seccomp filter (installed without TSYNC) and its
// Landlock domain (landlock_restrict_self confines the calling thread
// only). So each request gets a goroutine locked to a thread of its own,
// which sets the command's sandbox up, forks the command (which inherits
// all of it) and ends without unlocking, so the Go runtime ends that thread
// too: its state dies with it, and the runtime starts threads for others
// from its template thread, never from a locked one. The thread ends at
// once, before the command is waited for, because a thread in the
// command's Landlock domain is one the command may signal (a SIGKILL to one
// thread ends the whole server) and, were the server dumpable, trace; no
// Pdeathsig is set for that reason (it is tied to the forking thread).
// The main thread keeps the main goroutine (the runtime never ends the
// main thread) and the server's own state: mounts made private, the
// loopback up, not dumpable, every capability the namespace gives.

// serve runs the server until Workbench closes its end of the control
// socket, then stops every command still running and exits.
func serve(args []string) error {
	probing = true // a failure to set the server up answers the start-up check
	if len(args) != 1 {
		return errors.New("usage: " + Subcommand + " " + ServeArg + " SERVERSPEC")
	}
	var ss ServerSpec
	if err := json.Unmarshal([]byte(args[0]), &ss); err != nil {
		return fmt.Errorf("server spec: %w", err)
	}
	runtime.LockOSThread() // the main thread runs nothing but this loop
	// The control socket came as a descriptor the server's commands would
	// inherit: any of them could then ask the server for a command with
	// no sandbox at all.
	unix.CloseOnExec(ControlFD)
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	if ss.Net != NetOpen {
		if err := loopbackUp(); err != nil {
			return fmt.Errorf("loopback: %w", err)
		}
	}
	// Not dumpable: no command (same uid, no capability) may trace the
	// server or read its memory, environment or descriptors through
	// /proc. A command's execve makes it dumpable again.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("not dumpable: %w", err)
	}
	s := &server{running: map[int]bool{}}
	s.receive()
	s.stopAll()
	os.Exit(0)
	return nil
}

// server is the running server's state.
type server struct {
	// send serialises replies, so a long one is never interleaved.
	send sync.Mutex
	// mu guards running: the commands started and not yet reaped, by
	// pid, true when the command leads a process group of its own.
	mu      sync.Mutex
	running map[int]bool
}

// receive handles requests until the control socket ends.
func (s *server) receive() {
	buf := make([]byte, MaxMessage)
	oob := make([]byte, unix.CmsgSpace(MaxFiles*4))
	for {
		n, oobn, flags, _, err := unix.Recvmsg(ControlFD, buf, oob, unix.MSG_CMSG_CLOEXEC)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || n == 0 {
			return // Workbench is gone, or closed the socket
		}
		fds := receivedFDs(oob[:oobn])
		var req Request
		if err := json.Unmarshal(buf[:n], &req); err != nil || flags&(unix.MSG_TRUNC|unix.MSG_CTRUNC) != 0 {
			closeAll(fds)
			s.reply(Reply{ID: req.ID, Err: "the request was cut short or unreadable"})
			continue
		}
		go s.handle(req, fds)
	}
}

// receivedFDs are the descriptors that came with a message.
func receivedFDs(oob []byte) []int {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil
	}
	var fds []int
	for _, m := range msgs {
		if got, err := unix.ParseUnixRights(&m); err == nil {
			fds = append(fds, got...)
		}
	}
	return fds
}

func closeAll(fds []int) {
	for _, fd := range fds {
		unix.Close(fd)
	}
}

// handle starts one command, answers with its pid, waits for it and
// answers with how it ended.
func (s *server) handle(req Request, fds []int) {
	pid, err := s.start(req, fds)
	closeAll(fds) // the command has its copies
	if err != nil {
		s.reply(Reply{ID: req.ID, Err: err.Error(), Refused: kernelRefused(err)})
		return
	}
	if req.Spec.Probe {
		s.reply(Reply{ID: req.ID, Done: true})
		return
	}
	s.mu.Lock()
	s.running[pid] = req.Setsid || req.Setpgid && req.Pgid == 0
	s.mu.Unlock()
	s.reply(Reply{ID: req.ID, Pid: pid})
	// Wait without reaping, forget the command, then reap: stopAll never
	// signals a pid that was reaped and may be someone else's.
	var info unix.Siginfo
	for {
		if err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil); !errors.Is(err, unix.EINTR) {
			break
		}
	}
	s.mu.Lock()
	delete(s.running, pid)
	var ws unix.WaitStatus
	var ru unix.Rusage
	for {
		if _, err := unix.Wait4(pid, &ws, 0, &ru); !errors.Is(err, unix.EINTR) {
			break
		}
	}
	s.mu.Unlock()
	s.reply(Reply{ID: req.ID, Done: true, Status: uint32(ws),
		UserUsec: ru.Utime.Sec*1e6 + ru.Utime.Usec, SysUsec: ru.Stime.Sec*1e6 + ru.Stime.Usec})
}

// start sets the command's sandbox up on a thread of its own and forks it
// from there (see the comment at the top).
func (s *server) start(req Request, fds []int) (int, error) {
	type started struct {
		pid int
		err error
	}
	done := make(chan started, 1)
	go func() {
		// Never unlocked: the thread is the command's now, and ends
		// with this goroutine.
		runtime.LockOSThread()
		pid, err := spawn(req, fds)
		done <- started{pid, err}
	}()
	r := <-done
	return r.pid, r.err
}

// spawn makes the calling thread the command's sandbox and starts the
// command from it.
func spawn(req Request, fds []int) (int, error) {
	spec := req.Spec
	if len(fds) != req.Files || len(fds) < 3 || spec.ProxyFD != 0 && spec.ProxyFD != len(fds)-1 {
		return 0, fmt.Errorf("the request came with %d descriptors, not the %d it names", len(fds), req.Files)
	}
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return 0, fmt.Errorf("mount namespace: %w", err)
	}
	if err := mountAll(spec); err != nil {
		return 0, err
	}
	env, files := req.Env, fds
	if spec.ProxyFD > 0 {
		files = fds[:spec.ProxyFD]
		if spec.Net == NetDomains && !spec.Probe {
			port, err := handOverListener(fds[spec.ProxyFD])
			if err != nil {
				return 0, fmt.Errorf("proxy: %w", err)
			}
			env = withProxy(env, "http://127.0.0.1:"+strconv.Itoa(port))
		}
	}
	if err := confine(spec); err != nil {
		return 0, err
	}
	if spec.Probe {
		for spec.Stall {
			time.Sleep(time.Hour) // until the probe's time runs out
		}
		return 0, nil
	}
	attr := &syscall.ProcAttr{Dir: req.Dir, Env: env, Sys: &syscall.SysProcAttr{
		Setsid: req.Setsid, Setpgid: req.Setpgid, Pgid: req.Pgid,
		Setctty: req.Setctty, Noctty: req.Noctty, Ctty: req.Ctty,
	}}
	for _, fd := range files {
		attr.Files = append(attr.Files, uintptr(fd))
	}
	pid, err := syscall.ForkExec(req.Path, req.Argv, attr)
	if err != nil {
		return 0, &startError{path: req.Path, err: err}
	}
	return pid, nil
}

// startError is a program that could not be executed: its own failure
// (not found, not executable), not the sandbox's.
type startError struct {
	path string
	err  error
}

func (e *startError) Error() string { return "exec " + e.path + ": " + e.err.Error() }
func (e *startError) Unwrap() error { return e.err }

// reply sends one reply; a failure means Workbench is gone, which the
// receiving loop finds out.
func (s *server) reply(r Reply) {
	b, err := json.Marshal(r)
	if err != nil {
		return
	}
	s.send.Lock()
	defer s.send.Unlock()
	for {
		if err := unix.Sendmsg(ControlFD, b, nil, nil, 0); !errors.Is(err, unix.EINTR) {
			return
		}
	}
}

// stopAll kills every command still running, and its process group when
// it leads one, once Workbench is gone: nobody would stop them otherwise.
func (s *server) stopAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for pid, leads := range s.running {
		if leads {
			_ = unix.Kill(-pid, unix.SIGKILL)
		}
		_ = unix.Kill(pid, unix.SIGKILL)
	}
}
