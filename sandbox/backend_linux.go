package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"github.com/seed92b641c3/workbench/sandbox/launcher"
)

// probeTimeout bounds the start-up check, so the session does not hang on
// a launcher that is slow to answer. Running out of it proves nothing (the
// machine may only be busy): the answer stays open and commands still start
// through the launcher.
const probeTimeout = 10 * time.Second

// SlowProbeEnv, when set in Workbench's own environment, makes every check
// run out of time (the launcher waits instead of answering, and the wait is
// short): the switch tests use to reach the inconclusive path.
const SlowProbeEnv = "WORKBENCH_SANDBOX_TEST_SLOW_PROBE"

// linuxBackend confines with user, mount and network namespaces and
// Landlock, through the launcher (this binary's hidden sub-command).
type linuxBackend struct {
	launcher string
}

func newBackend(launcher string) Backend {
	if launcher == "" {
		if exe, err := os.Executable(); err == nil {
			launcher = exe
		}
	}
	return &linuxBackend{launcher: launcher}
}

// Name says what confines.
func (b *linuxBackend) Name() string { return "Linux namespaces and Landlock" }

// Probe checks Landlock's version in this process, then starts the
// launcher once with the real policy, which tells whether user namespaces
// are allowed, the mounts work and Landlock takes the rules. Only what the
// kernel answered makes the sandbox unavailable: a refused clone, or a
// launcher that reports a refusal (exit launcher.Exit). A launcher that does
// not answer in time, cannot be started for want of resources, or dies
// another way is inconclusive (ErrInconclusive).
func (b *linuxBackend) Probe(r Resolved) error {
	if err := b.precheck(); err != nil {
		return err
	}
	cmd := exec.Command(b.launcher)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	release, err := b.prepare(cmd, r, nil, true)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInconclusive, err)
	}
	defer release()
	timeout := probeTimeout
	if os.Getenv(SlowProbeEnv) != "" {
		timeout = 100 * time.Millisecond
		cmd.Args[2] = stallSpec(cmd.Args[2])
	}
	if err := cmd.Start(); err != nil {
		if cloneRefused(err) {
			return fmt.Errorf("the kernel refuses unprivileged user namespaces (%v)", err)
		}
		return fmt.Errorf("%w: cannot start the launcher: %v", ErrInconclusive, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(timeout):
		_ = cmd.Process.Kill()
		<-done
		return fmt.Errorf("%w: the launcher did not answer within %v", ErrInconclusive, timeout)
	}
	if err == nil {
		return nil
	}
	msg := strings.TrimSpace(stderr.String())
	msg = strings.TrimPrefix(msg, "workbench sandbox: ")
	msg = strings.TrimSuffix(msg, "; the command did not run")
	if msg == "" {
		msg = err.Error()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == launcher.Exit {
		return fmt.Errorf("the launcher failed: %s", msg)
	}
	return fmt.Errorf("%w: the launcher failed: %s", ErrInconclusive, msg)
}

// precheck is what is checked in this process before a launcher is
// started: Landlock's version, and that there is a launcher to start.
func (b *linuxBackend) precheck() error {
	abi, err := llsyscall.LandlockGetABIVersion()
	if err != nil {
		return fmt.Errorf("this kernel offers no Landlock (%v)", err)
	}
	if abi < launcher.MinABI {
		return fmt.Errorf("the kernel's Landlock ABI %d is older than %d", abi, launcher.MinABI)
	}
	if b.launcher == "" {
		return fmt.Errorf("%w: cannot find the workbench executable to launch the sandbox", ErrInconclusive)
	}
	return nil
}

// cloneRefused reports whether starting the launcher failed because the
// kernel refuses the namespaces, rather than for want of resources at the
// moment. ENOSPC is the user namespace limit: a refusal only when the limit
// is zero, otherwise others hold the namespaces for now.
func cloneRefused(err error) bool {
	switch {
	case errors.Is(err, syscall.EPERM), errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EINVAL),
		errors.Is(err, syscall.EUSERS):
		return true
	case errors.Is(err, syscall.ENOSPC):
		limit, err := os.ReadFile("/proc/sys/user/max_user_namespaces")
		return err == nil && strings.TrimSpace(string(limit)) == "0"
	}
	return false
}

// stallSpec is a probe's spec with Stall set (SlowProbeEnv).
func stallSpec(js string) string {
	var spec launcher.Spec
	if json.Unmarshal([]byte(js), &spec) != nil {
		return js
	}
	spec.Stall = true
	out, err := json.Marshal(spec)
	if err != nil {
		return js
	}
	return string(out)
}

// specFor is the launcher's spec for r.
func specFor(r Resolved, probe bool) launcher.Spec {
	return launcher.Spec{Write: r.Write, ReadOnly: r.ReadOnly, Pin: r.Pin, Hide: r.Hide, Sealed: r.Sealed, Net: r.Net,
		UnixSockets: r.UnixSockets, Probe: probe, Layers: r.Layers}
}

// proxyPair makes the socket over which a command's launcher hands the
// proxy its listening socket: theirs goes to the launcher, and the proxy
// serves what arrives on the other end until stop.
func proxyPair(proxy *Proxy) (theirs *os.File, stop func(), err error) {
	if proxy == nil {
		return nil, nil, errors.New("sandbox: allowed domains without a proxy")
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox: proxy socket: %w", err)
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "proxy"), os.NewFile(uintptr(fds[1]), "proxy-child")
	return theirs, proxy.serveHandOver(ours).close, nil
}

// Prepare rewrites cmd to run through the launcher.
func (b *linuxBackend) Prepare(cmd *exec.Cmd, r Resolved, proxy *Proxy) (func(), error) {
	return b.prepare(cmd, r, proxy, false)
}

func (b *linuxBackend) prepare(cmd *exec.Cmd, r Resolved, proxy *Proxy, probe bool) (func(), error) {
	if cmd.Process != nil {
		return nil, errors.New("sandbox: the command has already started")
	}
	if cmd.Err != nil {
		return nil, cmd.Err
	}
	spec := specFor(r, probe)
	release := func() {}
	if r.Net == NetDomains && !probe {
		theirs, stop, err := proxyPair(proxy)
		if err != nil {
			return nil, err
		}
		spec.ProxyFD = 3 + len(cmd.ExtraFiles)
		cmd.ExtraFiles = append(cmd.ExtraFiles, theirs)
		release = func() {
			theirs.Close()
			stop()
		}
	}
	js, err := json.Marshal(spec)
	if err != nil {
		release()
		return nil, err
	}
	program := cmd.Path
	if probe {
		program = "probe" // never run: the launcher exits after the check
	}
	args := append([]string{b.launcher, Subcommand, string(js), "--", program}, cmd.Args[min(1, len(cmd.Args)):]...)
	cmd.Path, cmd.Args = b.launcher, args
	attr := cmd.SysProcAttr
	if attr == nil {
		attr = &syscall.SysProcAttr{}
	}
	inNamespaces(attr, r.Net)
	cmd.SysProcAttr = attr
	return release, nil
}

// inNamespaces makes attr start a launcher in new user, mount and (unless
// net is open) network namespaces, with the capabilities it needs there.
func inNamespaces(attr *syscall.SysProcAttr, net NetworkMode) {
	attr.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS
	if net != NetOpen {
		attr.Cloneflags |= syscall.CLONE_NEWNET
	}
	// The same ids inside as outside, so files keep their owner.
	uid, gid := os.Getuid(), os.Getgid()
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	attr.GidMappingsEnableSetgroups = false
	// The launcher needs these in its namespaces (mounts, the loopback
	// device); it drops every capability before it execs the program.
	attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_NET_ADMIN}
}
