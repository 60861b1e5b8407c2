//go:build linux && !amd64 && !arm64

package launcher

// thisArch is nil: the filter's system call numbers are known only for
// amd64 and arm64, so elsewhere closing Unix sockets fails and the sandbox
// is unavailable unless allowAllUnixSockets is set.
var thisArch *filterArch
