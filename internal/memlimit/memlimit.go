// Package memlimit sets the Go runtime's soft memory limit, past which the
// garbage collector works harder rather than let the heap grow, from the
// container the process runs in: a pod with a 2 GiB memory limit collects
// before it nears 2 GiB instead of being killed by the kernel, and a large
// machine without a limit is not held to a small fixed figure.
package memlimit

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/KimMachineGun/automemlimit/memlimit"
)

// Ratio is the share of the container's memory limit the heap may use;
// the rest is left to goroutine stacks, memory-mapped files and the
// runtime's own overhead.
const Ratio = 0.9

// Setting is the limit in force and where it came from.
type Setting struct {
	Bytes  int64  // 0: none
	Source string // "GOMEMLIMIT", "flag", "cgroup" or "none"
}

func (s Setting) String() string {
	if s.Bytes <= 0 {
		return "none (" + s.Source + ")"
	}
	return fmt.Sprintf("%d MiB (%s)", s.Bytes>>20, s.Source)
}

// Apply sets the soft memory limit: the GOMEMLIMIT variable when it is set
// (the runtime has read it already), else overrideMiB when positive, else
// Ratio of the cgroup's memory limit when the process runs under one, else
// none.
func Apply(overrideMiB int) Setting {
	return apply(overrideMiB, os.LookupEnv, memlimit.FromCgroup, debug.SetMemoryLimit)
}

func apply(overrideMiB int, env func(string) (string, bool), cgroup func() (uint64, error), set func(int64) int64) Setting {
	if v, ok := env("GOMEMLIMIT"); ok && v != "" {
		return Setting{Bytes: set(-1), Source: "GOMEMLIMIT"}
	}
	if overrideMiB > 0 {
		b := int64(overrideMiB) << 20
		set(b)
		return Setting{Bytes: b, Source: "flag"}
	}
	limit, err := cgroup()
	if err != nil || limit == 0 || limit > 1<<62 {
		return Setting{Source: "none"}
	}
	b := int64(float64(limit) * Ratio)
	set(b)
	return Setting{Bytes: b, Source: "cgroup"}
}
