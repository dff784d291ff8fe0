//go:build !unix

package connlimit

// DefaultMax returns 0, no global limit, where the open-file limit cannot
// be read.
func DefaultMax() int { return 0 }
