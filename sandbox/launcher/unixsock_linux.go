package launcher

import (
	"errors"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A Unix socket with a path is reached through the file system, not the
// network: a fresh network namespace does not close it, and Landlock (up to
// ABI 7) does not check connect. Behind such a path wait programs that run
// commands for whoever connects (a tmux or screen server, an ssh or gpg
// agent, the session bus, a container engine, an X server), so a
// sandboxed command that may connect is outside the sandbox in one step.
// The launcher therefore installs a seccomp filter that refuses to create
// Unix sockets (socketpair, which makes a connected pair and reaches
// nothing, stays allowed) and refuses io_uring, whose requests can create
// sockets without the system call the filter sees. Claude Code's Linux
// sandbox blocks Unix sockets the same way; allowAllUnixSockets turns it
// off in both.

// filterArch is what the seccomp filter checks on this architecture: the
// native audit architecture and its socket and io_uring_setup numbers, and
// optionally a compatibility architecture (32-bit programs) whose socket
// calls are refused outright.
type filterArch struct {
	native       uint32
	socket       uint32
	ioUringSetup uint32
	// x32 is true where system call numbers with bit 30 set are the x32
	// ABI's, which the filter refuses rather than decode.
	x32 bool
	// compat is the 32-bit audit architecture (0 if none); compatDeny its
	// system calls that create sockets or rings: all refused, since
	// socketcall's arguments are in memory the filter cannot read.
	compat     uint32
	compatDeny []uint32
}

// bpf is one instruction with symbolic jump targets, resolved by assemble.
type bpf struct {
	code          uint16
	k             uint32
	jt, jf, label string
}

// assemble turns the instructions into a filter program: a jump target
// names the instruction carrying that label; "" means the next one.
func assemble(prog []bpf) ([]unix.SockFilter, error) {
	at := map[string]int{}
	for i, in := range prog {
		if in.label != "" {
			at[in.label] = i
		}
	}
	out := make([]unix.SockFilter, len(prog))
	for i, in := range prog {
		jump := func(l string) (uint8, error) {
			if l == "" {
				return 0, nil
			}
			to, ok := at[l]
			if !ok || to <= i || to-i-1 > 255 {
				return 0, errors.New("seccomp: bad jump to " + l)
			}
			return uint8(to - i - 1), nil
		}
		jt, err := jump(in.jt)
		if err != nil {
			return nil, err
		}
		jf, err := jump(in.jf)
		if err != nil {
			return nil, err
		}
		out[i] = unix.SockFilter{Code: in.code, Jt: jt, Jf: jf, K: in.k}
	}
	return out, nil
}

// The offsets of struct seccomp_data's fields, and the instructions used.
const (
	offNr    = 0
	offArch  = 4
	offArg0  = 16 // the low 32 bits on a little-endian machine
	ldAbs    = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	jeq      = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	jge      = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	ret      = unix.BPF_RET | unix.BPF_K
	retAllow = unix.SECCOMP_RET_ALLOW
	retDeny  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
)

// unixSocketFilter is the program for a: refuse socket(AF_UNIX, ...) and
// io_uring_setup natively, the socket calls of the compatibility
// architecture, and everything of an architecture it does not know.
func unixSocketFilter(a filterArch) ([]unix.SockFilter, error) {
	p := []bpf{
		{code: ldAbs, k: offArch},
		{code: jeq, k: a.native, jt: "native"},
	}
	if a.compat != 0 {
		p = append(p, bpf{code: jeq, k: a.compat, jt: "compat"})
	}
	p = append(p, bpf{code: ret, k: retDeny},
		bpf{code: ldAbs, k: offNr, label: "native"})
	if a.x32 {
		p = append(p, bpf{code: jge, k: 0x40000000, jt: "deny"})
	}
	p = append(p,
		bpf{code: jeq, k: a.ioUringSetup, jt: "deny"},
		bpf{code: jeq, k: a.socket, jf: "allow"},
		bpf{code: ldAbs, k: offArg0},
		bpf{code: jeq, k: unix.AF_UNIX, jt: "deny", jf: "allow"})
	if a.compat != 0 {
		p = append(p, bpf{code: ldAbs, k: offNr, label: "compat"})
		for _, nr := range a.compatDeny {
			p = append(p, bpf{code: jeq, k: nr, jt: "deny"})
		}
		p = append(p, bpf{code: ret, k: retAllow})
	}
	p = append(p,
		bpf{code: ret, k: retAllow, label: "allow"},
		bpf{code: ret, k: retDeny, label: "deny"})
	return assemble(p)
}

// closeUnixSockets installs the filter on the calling thread, which must
// have no_new_privs set and be the one that execs the program.
func closeUnixSockets() error {
	if thisArch == nil {
		return errors.New("seccomp: this architecture is not supported, so Unix sockets cannot be closed")
	}
	prog, err := unixSocketFilter(*thisArch)
	if err != nil {
		return err
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	return unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0)
}
