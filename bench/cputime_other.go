//go:build !linux

package bench

import "time"

// threadCPU is not available here: CPU-time percentiles read 0.
func threadCPU() time.Duration { return 0 }
