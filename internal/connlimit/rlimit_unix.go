//go:build unix

package connlimit

import "syscall"

// reserved is the descriptors DefaultMax leaves for everything but client
// connections: listeners, the catalog file, Redis and telemetry
// connections, the runtime's own.
const reserved = 64

// DefaultMax returns a global connection limit that fits in the process's
// open-file limit (RLIMIT_NOFILE, which the Go runtime raises to the hard
// limit at start): nine tenths of it, at most the limit less 64 and at
// least 16.
func DefaultMax() int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	n := int(min(lim.Cur, 1<<24))
	return max(16, min(n*9/10, n-reserved))
}
