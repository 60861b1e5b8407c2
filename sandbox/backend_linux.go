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
)

// probeTimeout bounds the start-up check; a launcher that takes longer is
// broken, and the session must not hang on it.
const probeTimeout = 30 * time.Second

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

// Probe checks Landlock's version, then starts the launcher once with the
// real policy, which tells whether user namespaces are allowed, the mounts
// work and Landlock takes the rules.
func (b *linuxBackend) Probe(r Resolved) error {
	abi, err := llsyscall.LandlockGetABIVersion()
	if err != nil {
		return fmt.Errorf("this kernel offers no Landlock (%v)", err)
	}
	if abi < minABI {
		return fmt.Errorf("the kernel's Landlock ABI %d is older than %d", abi, minABI)
	}
	if b.launcher == "" {
		return errors.New("cannot find the workbench executable to launch the sandbox")
	}
	cmd := exec.Command(b.launcher)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	release, err := b.prepare(cmd, r, nil, true)
	if err != nil {
		return err
	}
	defer release()
	if err := cmd.Start(); err != nil {
		if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EINVAL) ||
			errors.Is(err, syscall.ENOSPC) {
			return fmt.Errorf("the kernel refuses unprivileged user namespaces (%v)", err)
		}
		return fmt.Errorf("cannot start the launcher: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(probeTimeout):
		_ = cmd.Process.Kill()
		<-done
		return errors.New("the launcher did not finish its check")
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		msg = strings.TrimPrefix(msg, "workbench sandbox: ")
		msg = strings.TrimSuffix(msg, "; the command did not run")
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("the launcher failed: %s", msg)
	}
	return nil
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
	spec := launchSpec{Write: r.Write, ReadOnly: r.ReadOnly, Pin: r.Pin, Hide: r.Hide, Sealed: r.Sealed, Net: r.Net, UnixSockets: r.UnixSockets, Probe: probe}
	release := func() {}
	if r.Net == NetDomains && !probe {
		if proxy == nil {
			return nil, errors.New("sandbox: allowed domains without a proxy")
		}
		fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return nil, fmt.Errorf("sandbox: proxy socket: %w", err)
		}
		ours, theirs := os.NewFile(uintptr(fds[0]), "proxy"), os.NewFile(uintptr(fds[1]), "proxy-child")
		spec.ProxyFD = 3 + len(cmd.ExtraFiles)
		cmd.ExtraFiles = append(cmd.ExtraFiles, theirs)
		serving := proxy.serveHandOver(ours)
		release = func() {
			theirs.Close()
			serving.close()
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
	attr.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS
	if r.Net != NetOpen {
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
	cmd.SysProcAttr = attr
	return release, nil
}
