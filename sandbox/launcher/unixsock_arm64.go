//go:build linux

package launcher

import "golang.org/x/sys/unix"

// thisArch: arm64, with 32-bit ARM programs' socketcall (102), socket (281)
// and io_uring_setup (425) refused.
var thisArch = &filterArch{
	native: unix.AUDIT_ARCH_AARCH64, socket: unix.SYS_SOCKET, ioUringSetup: unix.SYS_IO_URING_SETUP,
	compat: unix.AUDIT_ARCH_ARM, compatDeny: []uint32{102, 281, 425},
}
