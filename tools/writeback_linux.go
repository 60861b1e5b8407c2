package tools

import (
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback asks the kernel to begin writing a range to disk without
// waiting for it.
func startWriteback(f *os.File, off, n int64) {
	unix.SyncFileRange(int(f.Fd()), off, n, unix.SYNC_FILE_RANGE_WRITE)
}
