package memory

import (
	"os"

	"golang.org/x/sys/unix"
)

// releaseRange gives the disk blocks of n bytes of f from off back to the
// file system, leaving a hole that reads as zeros. It is best effort: a
// file system that cannot punch holes keeps the blocks.
func releaseRange(f *os.File, off, n int64) {
	_ = unix.Fallocate(int(f.Fd()), unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE, off, n)
}
