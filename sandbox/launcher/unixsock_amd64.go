//go:build linux

package launcher

import "golang.org/x/sys/unix"

// thisArch: x86-64, with the x32 ABI refused and i386 programs' socketcall
// (102), socket (359) and io_uring_setup (425) refused.
var thisArch = &filterArch{
	native: unix.AUDIT_ARCH_X86_64, socket: unix.SYS_SOCKET, ioUringSetup: unix.SYS_IO_URING_SETUP,
	x32:    true,
	compat: unix.AUDIT_ARCH_I386, compatDeny: []uint32{102, 359, 425},
}
