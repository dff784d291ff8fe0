//go:build !linux

package memory

import "os"

// releaseRange keeps the blocks of f: only Linux's files are given back
// as they are copied.
func releaseRange(*os.File, int64, int64) {}
